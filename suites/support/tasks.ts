// Tasks as a check reads them (spec 2.7, 2.8, 3, 4.3): the status, state and reply of a Task, the
// final states and the order of the section 3 table, tasks/get, and the wait for a state. Every window
// a check waits in is the harness's choice, grown by the agent's turn latency (c.scaled): the spec
// bounds no transition's time, so a state not seen in it is no finding (notSeenIn).
import type { CheckContext, SseEvent, SseStream } from '../../harness/check/index.ts';
import { FINAL_STATES, isFinalState } from '../../schemas/error-codes.ts';
import { isObject } from '../../schemas/json.ts';
import { resultOf, resultOfEvent, type JsonObject } from './rpc.ts';
import { sleep } from './timing.ts';

/** The final states of spec 3 (completed, failed, canceled); `is.oneOf([...FINAL_STATES])` as a matcher. */
export { FINAL_STATES, isFinalState };

export function statusOf(task: JsonObject | undefined): JsonObject | undefined {
  return isObject(task?.status) ? task.status : undefined;
}

export function stateOf(task: JsonObject | undefined): unknown {
  return statusOf(task)?.state;
}

/** The task state an SSE event carries (the state of its result). */
export function eventState(ev: SseEvent | undefined): unknown {
  return stateOf(resultOfEvent(ev));
}

/** The concatenated text of the reply's text parts (2.8 status.message), or undefined. */
export function replyText(task: JsonObject | undefined): string | undefined {
  const message = statusOf(task)?.message;
  if (!isObject(message) || !Array.isArray(message.parts)) return undefined;
  const texts = message.parts.filter((p): p is JsonObject => isObject(p) && typeof p.text === 'string');
  return texts.map((p) => p.text as string).join('\n');
}

/** Section 3 order: a legal path never goes back to a lower rank, and a final state is never left. */
export const STATE_RANK: Readonly<Record<string, number>> = Object.freeze({
  submitted: 0,
  working: 1,
  completed: 2,
  failed: 2,
  canceled: 2,
});

/** The first step of `states` that no path of the section 3 table allows, or null. */
export function illegalStep(states: readonly unknown[]): string | null {
  for (let i = 0; i < states.length; i += 1) {
    const state = states[i];
    if (typeof state !== 'string' || !(state in STATE_RANK)) {
      return `#${i}: ${JSON.stringify(state)} is not a task state`;
    }
    const prev = states[i - 1] as string | undefined;
    if (prev === undefined) continue;
    if (isFinalState(prev) && state !== prev) return `#${i}: ${prev} -> ${state} leaves a final state`;
    if (STATE_RANK[state]! < STATE_RANK[prev]!) return `#${i}: ${prev} -> ${state} goes back`;
  }
  return null;
}

export const LEGAL_PATHS =
  'a path of the section 3 table: submitted -> working -> completed|failed|canceled, or submitted -> canceled';

/** tasks/get of one task; undefined when the answer has no result object. */
export async function getTask(c: CheckContext, taskId: string): Promise<JsonObject | undefined> {
  return resultOf(await c.rpc('tasks/get', { taskId }));
}

/**
 * How long a check watches a task for its next state (leaving `submitted`, reaching its end) on a
 * fast unpaced agent; awaitState() grows it by the agent's turn latency and pace (c.scaled). The spec
 * bounds none of these times: a state not seen in it is no finding (notSeenIn).
 */
export const STATE_WINDOW_MS = 3_000;

/**
 * Polls tasks/get until `accept` takes the state, for `timeoutMs` grown by the agent's turn latency
 * and pace (c.scaled), or until the check is aborted; returns the last task seen. The window is the
 * harness's choice: a state not reached in it is no finding (the spec bounds no transition's time),
 * see notSeenIn(). Polls every 20 ms (directive timelines of a few hundred ms), a long window (a
 * system timeout of minutes, a paced agent's) less often: about 200 reads whatever its length, and a
 * paced agent no faster than the check's share of its pace (c.pollIntervalMs).
 */
export function awaitState(
  c: CheckContext,
  taskId: string,
  accept: (state: unknown) => boolean,
  timeoutMs = STATE_WINDOW_MS,
): Promise<JsonObject | undefined> {
  const windowMs = c.scaled(timeoutMs);
  return pollState(c, taskId, accept, Date.now() + windowMs, pollEvery(c, windowMs));
}

/** Every 20 ms, about 200 reads in a long window, and never faster than the check's share of the pace. */
function pollEvery(c: CheckContext, windowMs: number): number {
  return Math.max(20, Math.floor(windowMs / 200), c.pollIntervalMs());
}

async function pollState(
  c: CheckContext,
  taskId: string,
  accept: (state: unknown) => boolean,
  deadline: number,
  every: number,
): Promise<JsonObject | undefined> {
  for (;;) {
    const task = await getTask(c, taskId);
    if (accept(stateOf(task)) || Date.now() >= deadline || c.signal.aborted) return task;
    await sleep(every);
  }
}

/**
 * A precondition's wait for a task's state (it is working, so a cancel can reach it), read first on
 * the task's own stream when the caller holds one: the agent's events say so at no request's cost,
 * where every tasks/get is a second of the run at 60 requests a minute. The stream's state is its
 * newest event's, not the first one accepted. A stream that ends, or shows no accepted state within
 * the window (`timeoutMs`, scaled as awaitState()'s), leaves the answer to tasks/get, read at least
 * once. Returns the state seen. A check that grades what tasks/get says reads it with awaitState().
 */
export async function awaitStateOf(
  c: CheckContext,
  task: { taskId: string; stream?: SseStream },
  accept: (state: unknown) => boolean,
  timeoutMs = STATE_WINDOW_MS,
): Promise<unknown> {
  const windowMs = c.scaled(timeoutMs);
  const deadline = Date.now() + windowMs;
  if (task.stream !== undefined) {
    const seen = await streamedState(task.stream, accept, deadline, c.signal);
    if (seen.accepted) return seen.state;
  }
  return stateOf(await pollState(c, task.taskId, accept, deadline, pollEvery(c, windowMs)));
}

/** The newest state a stream shows once `accept` takes it, or `accepted: false` at its end or the deadline. */
async function streamedState(
  stream: SseStream,
  accept: (state: unknown) => boolean,
  deadline: number,
  signal: AbortSignal,
): Promise<{ accepted: boolean; state?: unknown }> {
  const events = stream.events();
  let timer: NodeJS.Timeout | undefined;
  const timeUp = new Promise<'time'>((resolve) => {
    timer = setTimeout(() => resolve('time'), Math.max(0, deadline - Date.now()));
  });
  let read = 0;
  let state: unknown;
  try {
    while (!signal.aborted) {
      const next = await Promise.race([events.next(), timeUp]);
      if (next === 'time' || next.done === true) break;
      read += 1;
      state = eventState(next.value) ?? state;
      // Events already received after this one: the newest of them says the state now.
      if (read < stream.transcript.events.length) continue;
      if (state !== undefined && accept(state)) return { accepted: true, state };
    }
    return { accepted: false };
  } finally {
    clearTimeout(timer);
    void events.return?.(undefined);
  }
}

/**
 * Ends the check not-exercised: the task was still `seen` when a window the harness chose (`ms`,
 * already scaled) ended, while the check waited for `wanted`. The spec bounds no transition's time
 * (a queue, a model call, a loaded agent), so not seeing it is no finding.
 */
export function notSeenIn(c: CheckContext, wanted: string, seen: unknown, ms: number): never {
  return c.notExercised(
    `the task was still ${String(seen)} ${ms} ms into the harness's wait for ${wanted} ` +
      '(tasks/get; the spec bounds no time for it, so this is no finding)',
  );
}

/**
 * For a check that reads the reply of a plain message: the agent may end the task failed or canceled
 * instead (spec 3 "agent errors"; C-51, an agent in maintenance), and then the check cannot show
 * what it checks: it ends not-exercised, saying so.
 */
export function requireCompletedTask(c: CheckContext, task: JsonObject | undefined, what: string): void {
  const state = stateOf(task);
  if (state === 'failed' || state === 'canceled') {
    c.notExercised(`${what} ended ${state}, not completed: there is no reply to read`);
  }
}
