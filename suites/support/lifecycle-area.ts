// Helpers of the task lifecycle suites (spec 3, 4.3, 4.4): live tasks opened without blocking,
// the concurrentTasks overflow that holds a task in `submitted` (C-21), cancel calls, per-agent
// limits read from the card (C-05, C-46) and the state order of the section 3 table.
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { SseEvent, SseStream } from '../../harness/check/index.ts';
import { is, type AnsweredExchange, type CheckContext } from './index.ts';
import {
  directivePart,
  directivesHonoured,
  getTask,
  messageParams,
  requireDirectives,
  resultOf,
  sendTask,
  stateOf,
  textPart,
  type DirectiveFields,
  type JsonObject,
} from './messages.ts';
import { endedBefore, endedBySystemTimeout } from './ended-first.ts';
import { errorOf } from './rpc-response.ts';

export { sleep };
export { RFC3339 } from './timestamps.ts';

/** Section 3 order: a legal path never goes back to a lower rank, and a final state is never left. */
export const STATE_RANK: Readonly<Record<string, number>> = Object.freeze({
  submitted: 0,
  working: 1,
  completed: 2,
  failed: 2,
  canceled: 2,
});

export function isFinalState(state: unknown): boolean {
  return state === 'completed' || state === 'failed' || state === 'canceled';
}

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function field(obj: unknown, key: string): unknown {
  return isObject(obj) ? obj[key] : undefined;
}

/** A numeric limit of the card (`limits.<name>`), or undefined when absent or not a positive number. */
export function cardLimit(c: CheckContext, name: string): number | undefined {
  const value = field(field(c.card, 'limits'), name);
  return typeof value === 'number' && value > 0 ? value : undefined;
}

/** The card does not say streaming is absent (C-41). */
export function streamingClaimed(c: CheckContext): boolean {
  return field(field(c.card, 'capabilities'), 'streaming') !== false;
}

/** `error.data` when it is an object. */
export function errorData(ex: AnsweredExchange): JsonObject | undefined {
  const data = errorOf(ex)?.data;
  return isObject(data) ? data : undefined;
}

/** The result of one SSE event, when it is a JSON-RPC success response. */
export function eventResult(ev: SseEvent): JsonObject | undefined {
  const result = field(ev.json, 'result');
  return isObject(result) ? result : undefined;
}

export function eventState(ev: SseEvent): unknown {
  return stateOf(eventResult(ev));
}

/** A task that runs on the target while the check goes on; `stream` is absent without streaming. */
export interface LiveTask {
  taskId: string;
  stream?: SseStream;
}

/** Message parts: some text, plus the directive when given. */
export function scriptParts(text: string, directive?: DirectiveFields): JsonObject[] {
  return directive === undefined ? [textPart(text)] : [textPart(text), directivePart(directive)];
}

/**
 * Creates a task without waiting for its end: message/stream (its first event names the task), or,
 * on an agent without streaming, an unawaited message/send with a client task id (C-16).
 */
export async function openTask(c: CheckContext, parts: readonly JsonObject[]): Promise<LiveTask> {
  if (streamingClaimed(c)) {
    // Budgets above the system timeout of the certification agent; closeOnFinal keeps runs short.
    const stream = await c.stream('message/stream', messageParams(parts), {
      closeOnFinal: true,
      totalMs: 30_000,
    });
    for await (const ev of stream.events()) {
      const id = eventResult(ev)?.id;
      c.require('first message/stream event carries result.id', typeof id, 'string');
      return { taskId: id as string, stream };
    }
    c.require('message/stream sends a first event', stream.transcript.events.length, is.atLeast(1));
  }
  const taskId = randomUUID();
  void c.client.rpc('message/send', messageParams(parts, { id: taskId }), { timeoutMs: 30_000 });
  const deadline = Date.now() + c.scaled(1_000);
  while (Date.now() < deadline) {
    if ((await getTask(c, taskId)) !== undefined) return { taskId };
    await sleep(20);
  }
  return c.notExercised('no streaming, and the client task id of message/send (C-16) was not honoured');
}

/** Waits for a stream event matching `accept`; undefined when the stream ends or the time is up. */
export async function nextEvent(
  stream: SseStream,
  accept: (ev: SseEvent) => boolean,
  timeoutMs = 3_000,
): Promise<SseEvent | undefined> {
  const found = (async () => {
    for await (const ev of stream.events()) if (accept(ev)) return ev;
    return undefined;
  })();
  const timer = sleep(timeoutMs, undefined, { ref: false });
  return Promise.race([found, timer]);
}

/**
 * Polls tasks/get until `accept` takes the state, for `timeoutMs` grown by the agent's turn latency
 * (c.scaled); returns the last task seen. The window is the harness's choice: a state not reached in
 * it is no finding (the spec bounds no transition's time), see notSeenIn().
 */
export async function awaitState(
  c: CheckContext,
  taskId: string,
  accept: (state: unknown) => boolean,
  timeoutMs = STATE_WINDOW_MS,
): Promise<JsonObject | undefined> {
  const deadline = Date.now() + c.scaled(timeoutMs);
  // A long wait (a system timeout of minutes) polls less often: about 200 reads whatever its length.
  const every = Math.max(15, Math.floor(timeoutMs / 200));
  for (;;) {
    const task = await getTask(c, taskId);
    if (accept(stateOf(task)) || Date.now() >= deadline) return task;
    await sleep(every);
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
 * The task as read at the end of a check's wait for its scripted end (`windowMs`, already scaled): one
 * still running, or one the agent's system timeout ended first (C-05: canceled, reason "system
 * timeout"), leaves the check not-exercised. Any other end is for the check to grade.
 */
export function requireOwnEnd(c: CheckContext, task: JsonObject | undefined, windowMs: number): void {
  const state = stateOf(task);
  if (!isFinalState(state)) notSeenIn(c, 'its end', state, windowMs);
  if (endedBySystemTimeout(task)) {
    c.notExercised(
      `the agent's system timeout (C-05) ended the task before its scripted end (canceled, reason "system timeout"): a legal end, nothing to grade`,
    );
  }
}

/**
 * How long a check watches a task for its next state (leaving `submitted`, reaching its end) on a
 * fast agent; awaitState() grows it by the agent's turn latency. The spec bounds none of these
 * times: a state not seen in it is no finding (notSeenIn).
 */
export const STATE_WINDOW_MS = 3_000;

/**
 * Waits until the task leaves `submitted` and requires `working`. A task already final by then ran
 * its work before the harness could act on it (a loaded or remote agent, a slow network), and one
 * still submitted when the window ended has not started: either way the check cannot show its
 * precondition and ends not-exercised, saying what it saw. Another state fails.
 */
export async function requireWorking(
  c: CheckContext,
  taskId: string,
  workMs: number,
  label = 'state before the cancel',
): Promise<void> {
  const state = stateOf(await awaitState(c, taskId, (s) => s !== 'submitted', STATE_WINDOW_MS));
  if (state === 'submitted') notSeenIn(c, 'working', state, c.scaled(STATE_WINDOW_MS));
  if (isFinalState(state)) {
    c.notExercised(
      `the task was already ${String(state)} when first seen past submitted (about ${workMs} ms of ` +
        'work): the harness could not act on it while it worked',
    );
  }
  c.require(label, state, 'working');
}

export function cancelTask(c: CheckContext, taskId: string, reason?: string): Promise<AnsweredExchange> {
  return c.rpc('tasks/cancel', reason === undefined ? { taskId } : { taskId, reason });
}

/** Cancels every live task and closes its stream; errors are ignored (the task may be final). */
export async function releaseAll(c: CheckContext, tasks: readonly LiveTask[]): Promise<void> {
  await Promise.allSettled(
    tasks.map(async (t) => {
      await c.client.rpc('tasks/cancel', { taskId: t.taskId, reason: 'conformance cleanup' });
      await t.stream?.close();
    }),
  );
}

// Filling more slots than this costs more requests and streams than the area's budget allows.
const MAX_SLOTS_FILLED = 16;

/** Every slot of the agent held by a working runUntilCanceled task; `release()` cancels them. */
export interface SlotFill {
  limit: number;
  holders: LiveTask[];
  release(): Promise<void>;
  /**
   * Reads the holders again: one no longer working (a slot freed, e.g. by a system timeout while a
   * slow agent took the next request) means the queue was not held, and the check is not-exercised
   * with the states seen. Call it after sampling the queued tasks, before grading them.
   */
  requireHeld(when: string): Promise<void>;
}

/**
 * Starts `limits.concurrentTasks` runUntilCanceled tasks and waits until each is working, so that
 * the next task queues in `submitted` (C-21). The caller has checked the directive contract.
 */
export async function fillSlots(c: CheckContext): Promise<SlotFill> {
  const limit = cardLimit(c, 'concurrentTasks');
  if (limit === undefined) return c.notExercised('the card reports no limits.concurrentTasks');
  if (limit > MAX_SLOTS_FILLED) {
    return c.notExercised(`limits.concurrentTasks is ${limit}, above the ${MAX_SLOTS_FILLED} tasks filled`);
  }
  const holders: LiveTask[] = [];
  const release = (): Promise<void> => releaseAll(c, holders);
  try {
    const opened = await Promise.allSettled(
      Array.from({ length: limit }, (_, i) =>
        openTask(c, scriptParts(`slot ${i}`, { runUntilCanceled: true })),
      ),
    );
    for (const o of opened) if (o.status === 'fulfilled') holders.push(o.value);
    const refused = opened.find((o) => o.status === 'rejected');
    if (refused !== undefined) throw refused.reason;
    const states = await Promise.all(
      holders.map(async (h) => stateOf(await awaitState(c, h.taskId, (s) => s !== 'submitted', 2_000))),
    );
    if (states.some((s) => s !== 'working')) {
      await release();
      return c.notExercised(
        `the ${limit} slot-holding tasks did not all start working (states ${JSON.stringify(states)}): the agent is busy`,
      );
    }
  } catch (e) {
    await release();
    throw e;
  }
  const requireHeld = async (when: string): Promise<void> => {
    const now = await Promise.all(holders.map(async (h) => stateOf(await getTask(c, h.taskId))));
    if (now.some((s) => s !== 'working')) {
      c.notExercised(
        `the ${limit} slot-holding tasks were not all working ${when} (states ${JSON.stringify(now)}): a slot freed before the queue could be sampled`,
      );
    }
  };
  return { limit, holders, release, requireHeld };
}

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

/**
 * What a stream showed of its task: the states of its events in order, repeats collapsed (several
 * `working` events, progress updates, are one state), and whether it got to the end.
 */
export interface StreamSeen {
  states: unknown[];
  /** The stream carried its final event (or an error event). */
  complete: boolean;
  /**
   * What the agent said is all there: the stream is complete, or the agent itself closed it. False
   * when the harness stopped it short (its budget, its own close) or the connection failed.
   */
  whole: boolean;
  /** Why it stopped short, when it did. */
  cut?: string;
}

export async function streamSeen(stream: SseStream): Promise<StreamSeen> {
  const t = await stream.done;
  const all = t.events.map(eventState);
  const states = all.filter((s, i) => i === 0 || s !== all[i - 1]);
  if (t.finalIndex !== null) return { states, complete: true, whole: true };
  const cut =
    t.budgetExceeded !== undefined
      ? `the harness's ${t.budgetExceeded} budget ran out`
      : t.closedBy === 'client'
        ? 'the harness closed it'
        : t.closedBy === 'error'
          ? `the connection failed (${t.error?.message ?? 'unknown error'})`
          : 'the agent closed it';
  return { states, complete: false, whole: t.closedBy === 'server', cut };
}

function isPrefix(seen: readonly unknown[], whole: readonly unknown[]): boolean {
  return seen.length <= whole.length && seen.every((s, i) => s === whole[i]);
}

/**
 * Checks the states a task's stream carried against `expected`. A stream the harness stopped short
 * (its own budget, a pace that outlasted it, its own close) shows only a beginning: when that
 * beginning agrees with `expected` it is no evidence either way and is only noted; a state out of
 * line is a finding whatever the end. A stream the agent closed before its final event is graded
 * whole. Returns whether nothing contradicted `expected`.
 */
export async function checkStreamStates(
  c: CheckContext,
  label: string,
  stream: SseStream,
  expected: readonly unknown[],
): Promise<boolean> {
  return checkSeenStates(c, label, await streamSeen(stream), expected);
}

/** checkStreamStates() of a stream read earlier (streamSeen), e.g. by a scenario several checks share. */
export function checkSeenStates(
  c: CheckContext,
  label: string,
  seen: StreamSeen,
  expected: readonly unknown[],
): boolean {
  if (!seen.whole && isPrefix(seen.states, expected)) {
    c.info(
      `${label}: ${JSON.stringify(seen.states)} before ${seen.cut}; the rest of ${JSON.stringify(expected)} was not seen (not graded)`,
    );
    return true;
  }
  return c.check(label, seen.states, expected);
}

/**
 * A task a cancel can reach: with the directive contract, a runUntilCanceled task seen working;
 * otherwise a plain streamed task caught at its first event (best effort, see cancelLive()).
 */
export async function cancellableTask(c: CheckContext, text: string): Promise<LiveTask> {
  if (await directivesHonoured(c)) {
    const task = await openTask(c, scriptParts(text, { runUntilCanceled: true }));
    await awaitState(c, task.taskId, (s) => s !== 'submitted');
    return task;
  }
  if (!streamingClaimed(c)) {
    return c.notExercised('no task can be caught before it ends: no directive contract and no streaming');
  }
  return openTask(c, [textPart(text)]);
}

/**
 * tasks/cancel of a cancellableTask(). Without the directive contract a plain task may end before
 * the cancel arrives, and a held task may meet its system timeout while the cancel waits on a slow
 * or rate-limited agent: an error answer then means not-exercised, never a finding.
 */
export async function cancelLive(
  c: CheckContext,
  task: LiveTask,
  reason?: string,
): Promise<AnsweredExchange> {
  const ex = await cancelTask(c, task.taskId, reason);
  if (errorOf(ex) === undefined) return ex;
  const ended = endedBefore(c, task, ex);
  if (ended !== undefined) c.notExercised(ended);
  if (!(await directivesHonoured(c))) {
    c.notExercised('the plain task ended before the cancel reached it (no directive contract to hold it)');
  }
  return ex;
}

export type FinalOutcome = 'completed' | 'failed' | 'canceled';

async function makeFinished(c: CheckContext, outcome: FinalOutcome): Promise<string> {
  let taskId: string;
  // The final state an answer of the agent reported (the cancel result, the blocking send's task).
  let heardEnd: unknown;
  if (outcome === 'canceled') {
    const task = await cancellableTask(c, 'to be canceled');
    heardEnd = stateOf(resultOf(await cancelLive(c, task, 'conformance: final canceled task')));
    taskId = task.taskId;
  } else {
    if (outcome === 'failed') await requireDirectives(c, 'a failed task (fail)');
    const directive = outcome === 'failed' ? { fail: 'conformance failure' } : undefined;
    const { task } = await sendTask(c, scriptParts(`to be ${outcome}`, directive));
    heardEnd = stateOf(task);
    taskId = task.id as string;
  }
  const state = stateOf(await awaitState(c, taskId, isFinalState, 2_000));
  // Read unfinished after the agent said it ended is a finding (below); unfinished with no such word,
  // the harness's window was only too short.
  if (!isFinalState(state) && !isFinalState(heardEnd)) {
    notSeenIn(c, `the sample's end (${outcome})`, state, c.scaled(2_000));
  }
  if (outcome !== 'canceled' && isFinalState(state) && state !== outcome) {
    // An agent may fail a plain message (spec 3: "agent errors"; C-51: an agent in maintenance does),
    // and the directive contract is no spec requirement: the sample cannot be made, nothing is wrong.
    c.notExercised(`the sample task meant to end ${outcome} ended ${String(state)}`);
  }
  c.require(`state of the ${outcome} sample task`, state, outcome);
  return taskId;
}

/**
 * One sample task per final state, made once per suite file by the first check that needs it;
 * a failed attempt is forgotten so that the next check tries again with its own context.
 */
export function finishedTasks(): (c: CheckContext, outcome: FinalOutcome) => Promise<string> {
  const made = new Map<FinalOutcome, Promise<string>>();
  return (c, outcome) => {
    let p = made.get(outcome);
    if (p === undefined) {
      p = makeFinished(c, outcome);
      made.set(outcome, p);
      p.catch(() => made.delete(outcome));
    }
    return p;
  };
}
