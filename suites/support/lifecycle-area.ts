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
  sendTask,
  stateOf,
  textPart,
  type DirectiveFields,
  type JsonObject,
} from './messages.ts';
import { endedBefore } from './ended-first.ts';
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
  const deadline = Date.now() + 1_000;
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

/** Polls tasks/get until the state is `state` (or final); returns the last task seen. */
export async function awaitState(
  c: CheckContext,
  taskId: string,
  accept: (state: unknown) => boolean,
  timeoutMs = 3_000,
): Promise<JsonObject | undefined> {
  const deadline = Date.now() + timeoutMs;
  // A long wait (a system timeout of minutes) polls less often: about 200 reads whatever its length.
  const every = Math.max(15, Math.floor(timeoutMs / 200));
  for (;;) {
    const task = await getTask(c, taskId);
    if (accept(stateOf(task)) || Date.now() >= deadline) return task;
    await sleep(every);
  }
}

/**
 * Waits until the task leaves `submitted` and requires `working`. A task already final by then ran
 * its work before the harness could act on it (a loaded or remote agent, a slow network): the check
 * cannot show its precondition and ends not-exercised, saying what it saw. Another state fails.
 */
export async function requireWorking(
  c: CheckContext,
  taskId: string,
  workMs: number,
  label = 'state before the cancel',
): Promise<void> {
  const state = stateOf(await awaitState(c, taskId, (s) => s !== 'submitted'));
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
 * The states of the events a stream carried, in order, with repeats collapsed: several `working`
 * events (progress updates) are one state.
 */
export async function streamStates(stream: SseStream): Promise<unknown[]> {
  const states = (await stream.done).events.map(eventState);
  return states.filter((s, i) => i === 0 || s !== states[i - 1]);
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
  if (outcome === 'canceled') {
    const task = await cancellableTask(c, 'to be canceled');
    await cancelLive(c, task, 'conformance: final canceled task');
    taskId = task.taskId;
  } else {
    if (outcome === 'failed') await requireDirectives(c, 'a failed task (fail)');
    const directive = outcome === 'failed' ? { fail: 'conformance failure' } : undefined;
    const { task } = await sendTask(c, scriptParts(`to be ${outcome}`, directive));
    taskId = task.id as string;
  }
  const state = stateOf(await awaitState(c, taskId, isFinalState, 2_000));
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
