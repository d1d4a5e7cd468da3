// Samples of the agent-level webhook checks (spec 6.1-6.4; rulings C-17, C-20): a plain task delivered
// to an agent-level configuration with a secret and a configured header (black-box: no directive), and
// the failed and canceled outcomes. Each is made once per file and records nothing itself.
import { randomBytes } from 'node:crypto';
import type { CheckWebhooks } from '../../harness/check/index.ts';
import { isObject } from '../../schemas/json.ts';
import { is, type CheckContext, type Delivery } from '../support/index.ts';
import { deliveriesOf, notDelivered } from '../support/deliveries.ts';
import { directivePart, directivesHonoured } from '../support/directives.ts';
import { endedBefore } from '../support/ended-first.ts';
import { refusal } from '../support/errors.ts';
import { messageParams, sendText, textPart } from '../support/messages.ts';
import { errorOf, resultOf, sentAt } from '../support/rpc.ts';
import { sharedSample } from '../support/samples.ts';
import { setConfig, startRunningTask } from '../support/webhooks.ts';

/** What a sample captured of its task at its url: the deliveries, or why they are incomplete or late. */
export interface SampleDeliveries {
  taskId?: string;
  /** The deliveries (first copies of each attempt) of this task to the sample's url, in arrival order. */
  deliveries: Delivery[];
  /** Why the sample is incomplete. */
  problem?: string;
  /** Why the sample could not be seen whole in time: the checks reading it are not-exercised. */
  late?: string;
}

export interface AgentSample extends SampleDeliveries {
  /**
   * The event that ends the sample task: `task.completed`, or the event of the final state message/send
   * answered when the agent ended the plain task otherwise (it may fail one: spec 3, C-51).
   */
  finalEvent: string;
  token: string;
  url: string;
  secret: string;
  header: readonly [string, string];
  contextId?: unknown;
}

/**
 * Waits for `lastEvent` of one task at one url, and for each of `alsoOwed` (for as long as the check's
 * budget allows: the spec sets no delivery latency; `since` is when the check caused it), and returns
 * the task's deliveries there; `late` says what arrived when one did not. Each event is awaited by
 * itself: a task's events may arrive in any order (freedom webhook.delivery-order), so the last one
 * in says nothing of the others. What may still follow is for the checks to expect
 * (CheckWebhooks.expectNothingMore), never for a pause to rule out.
 */
export async function captureTask(
  hooks: CheckWebhooks,
  token: string,
  taskId: string,
  lastEvent: string,
  since: number,
  alsoOwed: readonly string[] = [],
): Promise<{ deliveries: Delivery[]; late?: string }> {
  for (const event of [lastEvent, ...alsoOwed]) {
    const got = await hooks.awaitDeliveries({ token, taskId, event }, { since });
    if (!got.timedOut) continue;
    const deliveries = deliveriesOf(hooks, token, taskId);
    return { deliveries, late: notDelivered(`${event} of task ${taskId}`, got.waitedMs, deliveries) };
  }
  return { deliveries: deliveriesOf(hooks, token, taskId) };
}

/** Sets an agent-level configuration on a fresh url; `problem` says why it was refused. */
export async function agentLevelUrl(
  c: CheckContext,
  label: string,
  config: Record<string, unknown> = {},
): Promise<{ hooks: CheckWebhooks; token: string; url: string; configId?: string; problem?: string }> {
  const hooks = await c.webhooks();
  const { token, url } = hooks.newUrl(label);
  const set = await setConfig(c, { url, ...config });
  const configId = set.result?.configId;
  if (typeof configId === 'string') return { hooks, token, url, configId };
  return { hooks, token, url, problem: `agent-level set refused: ${JSON.stringify(refusal(set.ex))}` };
}

export interface AgentConfig {
  hooks: CheckWebhooks;
  token: string;
  url: string;
  secret: string;
  header: readonly [string, string];
  configId?: string;
  problem?: string;
}

/**
 * The file's one agent-level configuration (all events, default retries, a secret and a header),
 * under which every sample and concurrent check of agent-scope.test.ts runs; each reads its own task.
 */
// One agent-level set.
export const agentConfig = sharedSample(
  'the agent-level configuration',
  { requests: 1, turns: 0 },
  async (c): Promise<AgentConfig> => {
    const secret = randomBytes(24).toString('base64url');
    const header = ['X-Conformance-Probe', randomBytes(12).toString('hex')] as const;
    const at = await agentLevelUrl(c, 'agent-level', { secret, headers: { [header[0]]: header[1] } });
    return { ...at, secret, header };
  },
);

export const agentSample = sharedSample(
  'a plain task delivered to the agent-level configuration',
  // One message/send (the configuration is its own sample); the deliveries cost the agent no request.
  { requests: 1, turns: 1 },
  async (c) => {
    const at = await agentConfig(c);
    // This check's own scope: its budget bounds the wait, and the lag it sees is its evidence.
    const hooks = await c.webhooks();
    const sample: AgentSample = {
      finalEvent: 'task.completed',
      token: at.token,
      url: at.url,
      secret: at.secret,
      header: at.header,
      deliveries: [],
    };
    if (at.problem !== undefined) return { ...sample, problem: at.problem };
    const ex = await sendText(c, 'webhook sample');
    const since = sentAt(ex);
    const task = resultOf(ex);
    if (typeof task?.id !== 'string') return { ...sample, problem: 'message/send answered no task id' };
    const state = isObject(task.status) ? task.status.state : undefined;
    const finalEvent = state === 'failed' || state === 'canceled' ? `task.${state}` : 'task.completed';
    // All events are configured: task.submitted is owed as well as the end (task.working is optional).
    const captured = await captureTask(hooks, at.token, task.id, finalEvent, since, ['task.submitted']);
    return { ...sample, ...captured, finalEvent, taskId: task.id, contextId: task.contextId };
  },
);

/** A check that reads the sample's task.completed: not-exercised when the agent ended the task otherwise. */
export function requireCompletedSample(c: CheckContext, s: AgentSample): void {
  if (s.finalEvent !== 'task.completed') {
    c.notExercised(
      `the plain sample task ended with ${s.finalEvent} (an agent may fail a task: spec 3, C-51)`,
    );
  }
}

/** The sample, or the check ends: failed when the target broke it, with the reason. */
export function requireSample<T extends SampleDeliveries>(
  c: CheckContext,
  s: T,
  what: string,
): T & { taskId: string } {
  c.require(`${what}: sample complete`, s.problem, is.absent());
  if (s.late !== undefined) c.notExercised(s.late);
  c.require(`${what}: deliveries received`, s.deliveries.length, is.atLeast(1));
  return s as T & { taskId: string };
}

export interface OutcomeSample {
  scripted: boolean;
  problem?: string;
  failed?: SampleDeliveries & { message: string };
  canceled?: SampleDeliveries & { reason: string; raced: boolean; endedFirst?: string };
}

async function failedTask(
  c: CheckContext,
  hooks: CheckWebhooks,
  token: string,
): Promise<OutcomeSample['failed']> {
  const message = 'conformance failure';
  const ex = await c.rpc('message/send', messageParams([textPart('fail'), directivePart({ fail: message })]));
  const since = sentAt(ex);
  const id = resultOf(ex)?.id;
  if (typeof id !== 'string') return { message, deliveries: [], problem: 'message/send answered no task id' };
  return { taskId: id, message, ...(await captureTask(hooks, token, id, 'task.failed', since)) };
}

/** With directives a task that runs until canceled; without, a plain task raced by the cancel. */
async function canceledTask(
  c: CheckContext,
  hooks: CheckWebhooks,
  token: string,
): Promise<OutcomeSample['canceled']> {
  const reason = 'conformance cancel';
  const task = await startRunningTask(c, { runUntilCanceled: true });
  const ex = await c.rpc('tasks/cancel', { taskId: task.taskId, reason });
  const since = sentAt(ex);
  const base = { taskId: task.taskId, reason, raced: !task.scripted };
  if (resultOf(ex) === undefined) {
    const problem = `tasks/cancel did not cancel the task: ${JSON.stringify(errorOf(ex) ?? ex.response.body)}`;
    const endedFirst = endedBefore(c, task, ex);
    return { ...base, deliveries: [], problem, ...(endedFirst === undefined ? {} : { endedFirst }) };
  }
  return { ...base, ...(await captureTask(hooks, token, task.taskId, 'task.canceled', since)) };
}

export const outcomeSample = sharedSample(
  'failed and canceled tasks under the agent-level configuration',
  // The directive probe (once per file), message/send of a failed task, message/stream of a task
  // running until canceled, its tasks/cancel.
  { requests: 4, turns: 3 },
  async (c) => {
    const at = await agentConfig(c);
    const hooks = await c.webhooks();
    const scripted = await directivesHonoured(c);
    if (at.problem !== undefined) return { scripted, problem: at.problem };
    const [failed, canceled] = await Promise.all([
      scripted ? failedTask(c, hooks, at.token) : undefined,
      canceledTask(c, hooks, at.token),
    ]);
    const sample: OutcomeSample = { scripted };
    if (failed !== undefined) sample.failed = failed;
    if (canceled !== undefined) sample.canceled = canceled;
    return sample;
  },
);

/** The canceled capture; a lost black-box race is not-exercised, any other gap a failure. */
export function requireCanceled(
  c: CheckContext,
  s: OutcomeSample,
): SampleDeliveries & { taskId: string; reason: string } {
  c.require('outcome sample complete', s.problem, is.absent());
  const canceled = s.canceled!;
  // The task met its system timeout while the cancel waited on a slow or rate-limited agent.
  if (canceled.endedFirst !== undefined) c.notExercised(canceled.endedFirst);
  if (canceled.raced && canceled.problem !== undefined) {
    c.notExercised(
      `a black-box cancel race was lost (${canceled.problem}); a running task needs the directive contract`,
    );
  }
  return requireSample(c, canceled, 'canceled task');
}

/** The failed capture; needs the directive contract (nothing else makes a task fail on demand). */
export function requireFailed(
  c: CheckContext,
  s: OutcomeSample,
): SampleDeliveries & { taskId: string; message: string } {
  c.require('outcome sample complete', s.problem, is.absent());
  if (!s.scripted) {
    c.notExercised(
      'a failing task needs the a2a:directive contract (docs/directives.md), which the target does not honour',
    );
  }
  return requireSample(c, s.failed!, 'failed task');
}
