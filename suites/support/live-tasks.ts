// Tasks a check keeps running while it goes on (spec 3, 4.4; C-16, C-21): opened without waiting for
// their end (message/stream, or message/send with a client task id), held `working` by a directive,
// every task slot of the agent filled so the next task queues in `submitted`, and cancelled. A task
// that ended on its own before the check could act on it (a slow or rate-limited agent, the system
// timeout of C-05) leaves the check not-exercised, never failed (ended-first.ts).
import { randomUUID } from 'node:crypto';
import {
  is,
  type AnsweredExchange,
  type CheckContext,
  type Exchange,
  type SseStream,
} from '../../harness/check/index.ts';
import { cardLimit, streamingClaimed } from './card.ts';
import { directivesHonoured, scriptParts, type DirectiveFields } from './directives.ts';
import { endedBefore, endedBySystemTimeout } from './ended-first.ts';
import { messageParams, textPart } from './messages.ts';
import { errorOf, resultOfEvent, type JsonObject } from './rpc.ts';
import { awaitStateOf, getTask, isFinalState, notSeenIn, STATE_WINDOW_MS, stateOf } from './tasks.ts';
import { sleep } from './timing.ts';

/** A task that runs on the target while the check goes on; `stream` is absent without streaming. */
export interface LiveTask {
  taskId: string;
  stream?: SseStream;
}

/**
 * message/send with a client task id (C-16), not awaited: it blocks until its task ends (spec 4.1).
 * `left` settles once the request left for the agent (after any wait on the pace or a task slot) or
 * ended without leaving: a window that watches for the task starts when the agent has the message,
 * not while the send still waits behind other checks' turns. `answer` needs no answer (c.client).
 */
export function sendUnawaited(
  c: CheckContext,
  parts: readonly JsonObject[],
  taskId: string,
  opts: { timeoutMs?: number } = {},
): { answer: Promise<Exchange>; left: Promise<void> } {
  let leave!: () => void;
  const left = new Promise<void>((resolve) => {
    leave = resolve;
  });
  const answer = c.client.rpc('message/send', messageParams(parts, { id: taskId }), {
    ...opts,
    onSent: leave,
  });
  void answer.then(leave, leave);
  return { answer, left };
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
      const id = resultOfEvent(ev)?.id;
      c.require('first message/stream event carries result.id', typeof id, 'string');
      return { taskId: id as string, stream };
    }
    c.require('message/stream sends a first event', stream.transcript.events.length, is.atLeast(1));
  }
  const taskId = randomUUID();
  await sendUnawaited(c, parts, taskId, { timeoutMs: 30_000 }).left;
  const deadline = Date.now() + c.scaled(1_000);
  while (Date.now() < deadline) {
    if ((await getTask(c, taskId)) !== undefined) return { taskId };
    await sleep(Math.max(20, c.pollIntervalMs()));
  }
  return c.notExercised('no streaming, and the client task id of message/send (C-16) was not honoured');
}

/**
 * A task held by `directive` (e.g. runUntilCanceled), opened with message/stream and watched for
 * `working` for up to 2 s (scaled); the caller ends it (tasks/cancel) and closes the stream. It may
 * not be working yet, or have ended already, when this returns: the caller grades what it then sees
 * (endedBefore() tells an end of its own). Requires the directive contract (the caller checks it) and
 * streaming (not-exercised without it).
 */
export async function startWorkingTask(
  c: CheckContext,
  directive: DirectiveFields,
): Promise<{ taskId: string; stream: SseStream; close: () => Promise<unknown> }> {
  if (!streamingClaimed(c)) {
    c.notExercised(
      'a live task is started with message/stream, which this agent does not serve (streaming false)',
    );
  }
  const params = messageParams(scriptParts('conformance: live task', directive));
  // Budgets grown by this agent's turn latency (c.scaled); silence within them proves nothing.
  const s = await c.stream('message/stream', params, {
    firstEventMs: c.scaled(3_000),
    totalMs: c.scaled(10_000),
  });
  let taskId: unknown;
  let events = 0;
  for await (const e of s.events()) {
    events += 1;
    taskId = resultOfEvent(e)?.id;
    if (typeof taskId === 'string') break;
  }
  if (events === 0) {
    const t = await s.close();
    c.notExercised(
      `message/stream sent no event within the stream's budget (${t.budgetExceeded ?? t.closedBy}): no live task to work with`,
    );
  }
  c.require('message/stream: task id of the first event', typeof taskId, 'string');
  await awaitStateOf(c, { taskId: taskId as string, stream: s }, (st) => st === 'working', 2_000);
  return { taskId: taskId as string, stream: s, close: () => s.close() };
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
 * Waits until the task leaves `submitted` (on its stream when it has one: awaitStateOf) and requires
 * `working`. A task already final by then ran
 * its work before the harness could act on it (a loaded or remote agent, a slow network), and one
 * still submitted when the window ended has not started: either way the check cannot show its
 * precondition and ends not-exercised, saying what it saw. Another state fails.
 */
export async function requireWorking(
  c: CheckContext,
  task: LiveTask,
  workMs: number,
  label = 'state before the cancel',
): Promise<void> {
  const state = await awaitStateOf(c, task, (s) => s !== 'submitted', STATE_WINDOW_MS);
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

// Filling more slots than this costs more requests and streams than a check's budget allows.
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
    const states = await Promise.all(holders.map((h) => awaitStateOf(c, h, (s) => s !== 'submitted', 2_000)));
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

/**
 * A task a cancel can reach: with the directive contract, a runUntilCanceled task seen working;
 * otherwise a plain streamed task caught at its first event (best effort, see cancelLive()).
 */
export async function cancellableTask(c: CheckContext, text: string): Promise<LiveTask> {
  if (await directivesHonoured(c)) {
    const task = await openTask(c, scriptParts(text, { runUntilCanceled: true }));
    await awaitStateOf(c, task, (s) => s !== 'submitted');
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
