// Webhook configuration (spec 2.11-2.13, 4.6, 4.7, 6; rulings C-17..C-20, C-29, C-39): set and get
// calls, matchers of delivery fields, a task still running when its task-level configuration is set
// (directive-driven, or a black-box race on agents without the contract), and a small retry policy
// stored for a task. Reading what the agent delivered is deliveries.ts.
import { randomUUID } from 'node:crypto';
import { is, type AnsweredExchange, type CheckContext, type SseStream } from '../../harness/check/index.ts';
import { ERROR_CODES } from '../../schemas/error-codes.ts';
import { isObject } from '../../schemas/json.ts';
import { streamingClaimed } from './card.ts';
import { DEFAULT_POLICY, type RetryPolicy } from './deliveries.ts';
import { directivePart, directivesHonoured, type DirectiveFields } from './directives.ts';
import { refusal } from './errors.ts';
import { messageParams, textPart } from './messages.ts';
import { responseOf, resultOf, resultOfEvent, sentAt, type JsonObject } from './rpc.ts';
import { awaitState, awaitStateOf, getTask, isFinalState, stateOf } from './tasks.ts';

export const SET = 'tasks/pushNotificationConfig/set';
export const GET = 'tasks/pushNotificationConfig/get';

/**
 * Spec 6.2 says only `<delivery-id>`: any non-blank token is legal (a UUID is the reference server's
 * choice, C-20; Stripe, Svix and GitHub use their own formats).
 */
export const deliveryId = is.where(
  'a non-blank delivery id',
  (a) => typeof a === 'string' && a.trim() !== '',
);

export const nonNegativeNumber = is.where(
  'a non-negative number (milliseconds, C-43)',
  (a) => typeof a === 'number' && Number.isFinite(a) && a >= 0,
);

// ---- set and get -------------------------------------------------------------------------------

export interface SetOutcome {
  ex: AnsweredExchange;
  result: JsonObject | undefined;
}

export async function setConfig(c: CheckContext, config: unknown, taskId?: string): Promise<SetOutcome> {
  const ex = await c.rpc(SET, taskId === undefined ? { config } : { config, taskId });
  return { ex, result: resultOf(ex) };
}

/** A set that must succeed; returns its configId (later steps depend on it). */
export async function requireSet(c: CheckContext, config: JsonObject, taskId?: string): Promise<string> {
  const { ex, result } = await setConfig(c, config, taskId);
  const scope = taskId === undefined ? 'agent-level' : 'task-level';
  c.require(`${scope} set succeeded`, result === undefined ? responseOf(ex) : 'a result', 'a result');
  const configId = result?.configId;
  c.require(`${scope} set result.configId`, configId, is.nonEmptyString());
  return configId as string;
}

export async function getConfig(c: CheckContext, taskId?: string): Promise<SetOutcome> {
  const ex = await c.rpc(GET, taskId === undefined ? {} : { taskId });
  return { ex, result: resultOf(ex) };
}

/** The result object of a call that must succeed; otherwise the check fails showing the response. */
export function requireResult(c: CheckContext, label: string, o: SetOutcome): JsonObject {
  const actual = o.result === undefined ? (responseOf(o.ex) ?? o.ex.response.body) : 'a result object';
  c.require(label, actual, 'a result object');
  return o.result!;
}

export const INVALID_PARAMS = ERROR_CODES.INVALID_PARAMS;

// ---- a task still running when its configuration is set ----------------------------------------

export interface RunningTask {
  taskId: string;
  /** True when the directive contract drives the task. */
  scripted: boolean;
  /**
   * True when it also runs until finish() is called (runUntilCanceled); a scripted task with a
   * delay ends by itself and, like a plain one, may end before its configuration is set.
   */
  held: boolean;
  /** Resolves when the stream (or the message/send call) carrying the task has ended. */
  ended: Promise<unknown>;
  /**
   * Lets a scripted task reach its outcome now; an unscripted one finishes on its own. Returns when the
   * check caused the outcome (the `since` of a delivery's lag): when the cancel that ends the task left
   * the harness, after any wait on the agent's pace (sentAt); for an unscripted task, when finish() was
   * called.
   */
  finish(): Promise<number>;
}

/**
 * The default directive: work until a cancel arrives, then complete instead of stopping
 * (docs/directives.md: finishOnCancel). The task thus completes only after its configuration was
 * set, however slow the set was.
 */
export const UNTIL_FINISHED: DirectiveFields = { runUntilCanceled: true, finishOnCancel: true };

/**
 * Starts a task that is still running when the caller sets its task-level configuration (C-17: only
 * events after the set reach it). With the directive contract the task runs until finish(); otherwise
 * a plain message races the set, and coveredInTime() tells whether the race was won.
 */
export async function startRunningTask(
  c: CheckContext,
  directive: DirectiveFields = UNTIL_FINISHED,
  /** Where finish() sends its requests (default `c`): another replica of the agent, for one. */
  finishThrough: CheckContext = c,
): Promise<RunningTask> {
  const scripted = await directivesHonoured(c);
  const parts = [textPart('webhook conformance'), ...(scripted ? [directivePart(directive)] : [])];
  const started = streamingClaimed(c) ? await streamTask(c, parts) : await sendWithTaskId(c, parts);
  const finish = async (): Promise<number> => {
    if (!scripted) return Date.now();
    // A task still queued would be canceled rather than finished: wait until it runs (C-21).
    await awaitStateOf(c, started, (state) => state !== 'submitted', 5_000);
    const cancel = await finishThrough.rpc('tasks/cancel', {
      taskId: started.taskId,
      reason: 'finish (finishOnCancel)',
    });
    // The agent's system timeout (or a queue the harness could not wait out) may have ended the task
    // first: then no task.completed is owed, and the check cannot show what it was for.
    const owed =
      directive.finishOnCancel !== true ? 'canceled' : directive.fail !== undefined ? 'failed' : 'completed';
    const ended = await getTask(finishThrough, started.taskId);
    if (stateOf(ended) !== owed) {
      const status = isObject(ended?.status) ? ended.status : {};
      c.notExercised(
        `the task was ${String(status.state)} (${String(status.reason ?? 'no reason')}), not ${owed}, ` +
          'once the harness finished it: the agent ended it first (e.g. its system timeout)',
      );
    }
    return sentAt(cancel);
  };
  return { ...started, scripted, held: scripted && directive.runUntilCanceled === true, finish };
}

async function streamTask(
  c: CheckContext,
  parts: readonly JsonObject[],
): Promise<{ taskId: string; ended: Promise<unknown>; stream?: SseStream }> {
  const stream = await c.stream('message/stream', messageParams(parts), { closeOnFinal: true });
  for await (const ev of stream.events()) {
    const result = resultOfEvent(ev);
    c.require('first message/stream event result.id', result?.id, is.nonEmptyString());
    return { taskId: result!.id as string, ended: stream.done, stream };
  }
  return c.fail('message/stream ended without an event naming the task', {
    expected: 'an SSE event whose result is the task',
    actual: stream.transcript.json ?? stream.transcript.error ?? 'no event',
  });
}

/** Without streaming: message/send with a client-chosen task id (C-16), found again by tasks/get. */
async function sendWithTaskId(
  c: CheckContext,
  parts: readonly JsonObject[],
): Promise<{ taskId: string; ended: Promise<unknown> }> {
  const taskId = randomUUID();
  const ended = c.client.rpc('message/send', messageParams(parts, { id: taskId }));
  // The task appears once the agent took the message: a slow or paced agent's turn later (c.scaled).
  if ((await awaitState(c, taskId, (state) => state !== undefined, 1_000)) !== undefined) {
    return { taskId, ended };
  }
  return c.notExercised('without streaming, the task id must be client-chosen (C-16); the target ignored it');
}

/**
 * For a task that can end by itself (not held): ends the check as not-exercised unless the task is
 * still running or the target's own clock shows the configuration stored strictly before the task
 * finished, since no event could follow otherwise (a paced agent may take longer to take the set than
 * a scripted delay lasts). A tie proves nothing (timestamps in whole seconds, or two instants in the
 * same millisecond, are legal).
 */
export async function coveredInTime(
  c: CheckContext,
  task: Pick<RunningTask, 'taskId' | 'held'>,
  agentLevel = false,
): Promise<void> {
  if (task.held) return;
  const current = await getTask(c, task.taskId);
  if (!isFinalState(stateOf(current))) return;
  const stored = (await getConfig(c, agentLevel ? undefined : task.taskId)).result?.config;
  const seen = {
    configCreatedAt: isObject(stored) ? stored.createdAt : undefined,
    taskUpdatedAt: current?.updatedAt,
  };
  if (Date.parse(String(seen.configCreatedAt)) < Date.parse(String(seen.taskUpdatedAt))) return;
  c.notExercised(
    `the task was already ${String(stateOf(current))} and its timestamps do not show the configuration ` +
      `stored before it finished (config createdAt ${String(seen.configCreatedAt)}, task updatedAt ` +
      `${String(seen.taskUpdatedAt)}); the check needs a task that outlasts the set (the a2a:directive ` +
      'contract, docs/directives.md, or a slower agent)',
  );
}

/**
 * A task-level configuration with a small retry policy (C-20: measured within a second). A target
 * that refuses a fractional initialDelay gets 1 s instead; the returned policy is the one stored.
 */
export async function setWithPolicy(
  c: CheckContext,
  taskId: string,
  config: JsonObject,
  policy: RetryPolicy,
): Promise<{ configId: string; policy: Required<RetryPolicy> }> {
  const first = await setConfig(c, { ...config, retryPolicy: policy }, taskId);
  let used = policy;
  if (first.result === undefined && (policy.initialDelay ?? 1) < 1) {
    c.info('the target refused a fractional initialDelay; falling back to 1 s', refusal(first.ex));
    used = { ...policy, initialDelay: 1 };
  }
  const configId =
    first.result !== undefined && used === policy
      ? String(first.result.configId)
      : await requireSet(c, { ...config, retryPolicy: used }, taskId);
  return { configId, policy: { ...DEFAULT_POLICY, ...used } };
}

/** A fresh url of this check, set as the task-level configuration of `taskId` (all events). */
export async function taskLevelUrl(c: CheckContext, taskId: string, label: string) {
  const hooks = await c.webhooks();
  const { token, url } = hooks.newUrl(label);
  await requireSet(c, { url }, taskId);
  return { hooks, token };
}
