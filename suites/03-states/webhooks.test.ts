// Spec 3 (the webhook column of the transition table and rule 3) with rulings C-17, C-20, C-21: each
// transition delivers its task.* event. Task-level configurations (C-17: they replace the agent-level
// one for their task) wherever the task exists first; task.submitted needs an agent-level one.
import type { CheckWebhooks } from '../../harness/check/index.ts';
import { is, suiteFile, verifies, type CheckContext, type Delivery } from '../support/index.ts';
import { awaitEvidence, dataOf, deliveriesOf, eventOf, payloadOf, summary } from '../support/deliveries.ts';
import {
  directivesHonoured,
  requireDirectives,
  scriptParts,
  type DirectiveFields,
} from '../support/directives.ts';
import { endedBefore } from '../support/ended-first.ts';
import { cancelTask, fillSlots, openTask, type LiveTask } from '../support/live-tasks.ts';
import { sendText } from '../support/messages.ts';
import { errorOf, resultOf } from '../support/rpc.ts';
import { sharedSample } from '../support/samples.ts';
import { getTask, stateOf } from '../support/tasks.ts';
import { coveredInTime, requireSet, startRunningTask } from '../support/webhooks.ts';
import { isObject } from '../../schemas/json.ts';

suiteFile({
  cost: { requests: 5, turns: 1 },
  samples: {
    // At the card's limit of 4: the slots filled (message/stream, tasks/get until working), two queued
    // tasks opened and given a task-level configuration, the cancel of the first, the slots freed.
    'two tasks queued behind every slot': { requests: 17, turns: 7 },
  },
});

const together = { concurrent: true };

/** One task's deliveries to one url (first copies of each attempt), once `lastEvent` is in. */
interface Captured {
  hooks: CheckWebhooks;
  token: string;
  taskId: string;
  deliveries: Delivery[];
}

/**
 * The deliveries of one task to one url once `lastEvent` arrived; `since` is when the check caused it.
 * The spec sets no delivery latency: only the check's budget bounds the wait (then not-exercised).
 */
async function captured(
  c: CheckContext,
  at: { hooks: CheckWebhooks; token: string },
  taskId: string,
  lastEvent: string,
  since: number,
): Promise<Captured> {
  const { hooks, token } = at;
  const what = `${lastEvent} of task ${taskId}`;
  await awaitEvidence(c, hooks, { token, taskId, event: lastEvent }, { since, what });
  return {
    hooks,
    token,
    taskId,
    deliveries: deliveriesOf(hooks, token, taskId),
  };
}

/** A fresh url of this check, set as the task-level configuration of `taskId` (all events). */
async function taskLevelUrl(c: CheckContext, taskId: string, label: string) {
  const hooks = await c.webhooks();
  const { token, url } = hooks.newUrl(label);
  await requireSet(c, { url }, taskId);
  return { hooks, token };
}

/**
 * Exactly one delivery of `event` for the task (copies of it aside: spec 6.5), however late another
 * would come; its data names the task; `expect` checks the rest.
 */
function checkEvent(
  c: CheckContext,
  got: Captured,
  event: string,
  expect: Record<string, unknown> = {},
): void {
  const ds = got.deliveries;
  c.info('deliveries of the task, in arrival order', summary(ds));
  const hits = ds.filter((d) => eventOf(d) === event);
  c.check(`${event} deliveries of the task`, hits.length, 1);
  const match = { token: got.token, taskId: got.taskId, event };
  got.hooks.expectNothingMore(`${event} deliveries of the task after the first`, match, hits);
  if (hits.length === 0) return;
  const data = dataOf(hits[0]!);
  c.check(`${event} data.taskId`, data?.taskId, payloadOf(hits[0]!)?.taskId);
  for (const [path, value] of Object.entries(expect)) {
    const actual = path.split('.').reduce<unknown>((v, k) => (isObject(v) ? v[k] : undefined), data);
    c.check(`${event} data.${path}`, actual, value);
  }
}

// ---- a queued task: canceled while submitted, and one dequeued once the slots free (C-21) --------

const CANCEL_QUEUED = 'conformance: cancel while submitted';

interface QueueSample {
  canceled: Captured & { cancel: unknown };
  dequeued: Captured;
}

async function queueScenario(c: CheckContext): Promise<QueueSample> {
  const slots = await fillSlots(c);
  // The slots are freed once, to dequeue the second task; the clean-up does not cancel them again.
  let released = false;
  const release = async (): Promise<void> => {
    if (released) return;
    released = true;
    await slots.release();
  };
  const queued: LiveTask[] = [];
  try {
    queued.push(await openTask(c, scriptParts('queued, to be canceled')));
    queued.push(await openTask(c, scriptParts('queued, to be dequeued')));
    const [a, b] = await Promise.all(queued.map((t, i) => taskLevelUrl(c, t.taskId, `queued-${i}`)));
    const canceledSince = Date.now();
    const cancel = await cancelTask(c, queued[0]!.taskId, CANCEL_QUEUED);
    // A refused cancel of a task no longer queued is a finding only while every slot is still held.
    const refused = resultOf(cancel)?.canceled !== true;
    if (refused && stateOf(await getTask(c, queued[0]!.taskId)) !== 'submitted') {
      await slots.requireHeld('when the queued task was canceled');
    }
    const canceled = await captured(c, a!, queued[0]!.taskId, 'task.canceled', canceledSince);
    const dequeuedSince = Date.now();
    await release();
    const dequeued = await captured(c, b!, queued[1]!.taskId, 'task.completed', dequeuedSince);
    return { canceled: { ...canceled, cancel: resultOf(cancel) ?? errorOf(cancel) }, dequeued };
  } finally {
    await release();
    await Promise.allSettled(queued.map((t) => t.stream?.close()));
  }
}

const queueSample = sharedSample('two tasks queued behind every slot', queueScenario);

verifies(
  '3/cancel-from-submitted-webhook',
  'canceling a queued task delivers task.canceled',
  async (c) => {
    await requireDirectives(c, 'holding a task in submitted (every slot filled)');
    const { canceled } = await queueSample(c);
    c.require(
      'tasks/cancel of the submitted task succeeded',
      canceled.cancel,
      is.objectContaining({ canceled: true }),
    );
    checkEvent(c, { ...canceled, hooks: await c.webhooks() }, 'task.canceled', { reason: CANCEL_QUEUED });
    const events = canceled.deliveries.map(eventOf);
    c.check('no task.working for a task canceled before it ran', events.includes('task.working'), false);
    const working = { token: canceled.token, taskId: canceled.taskId, event: 'task.working' };
    (await c.webhooks()).expectNothingMore('task.working of the task canceled before it ran', working);
  },
  { overflowsTasks: true, cost: { requests: 0, turns: 0 } },
);

verifies(
  '3/working-webhook-optional',
  'a dequeued task may announce task.working',
  async (c) => {
    await requireDirectives(c, 'holding a task in submitted (every slot filled)');
    const { dequeued } = await queueSample(c);
    const events = dequeued.deliveries.map(eventOf);
    c.require('task.completed of the dequeued task delivered', events.includes('task.completed'), true);
    const working = events.indexOf('task.working');
    c.info('task.working delivered (optional per agent)', working !== -1);
    if (working === -1) return;
    // Events may arrive in any order (freedom webhook.delivery-order): a task.working that has not
    // arrived yet may still come once. One seen, any other (another delivery id) is a second one.
    const hits = dequeued.deliveries.filter((d) => eventOf(d) === 'task.working');
    const match = { token: dequeued.token, taskId: dequeued.taskId, event: 'task.working' };
    (await c.webhooks()).expectNothingMore('task.working deliveries beyond the first', match, hits);
    c.check('at most one task.working', hits.length, 1);
    const completed = dequeued.deliveries.find((d) => eventOf(d) === 'task.completed');
    const at = (d: Delivery | undefined, key: string): number => Date.parse(String(dataOf(d!)?.[key]));
    c.check(
      "task.working data.startedAt not after task.completed data.completedAt (the agent's own times)",
      at(hits[0], 'startedAt') <= at(completed, 'completedAt'),
      true,
    );
    c.check('task.working data.taskId', dataOf(hits[0]!)?.taskId, dequeued.taskId);
  },
  { overflowsTasks: true, cost: { requests: 0, turns: 0 } },
);

// ---- running tasks given a task-level configuration ---------------------------------------------

/** A task running when its task-level configuration is set; `finish` drives it to its outcome. */
async function runWithConfig(c: CheckContext, label: string, directive?: DirectiveFields) {
  const task = await startRunningTask(c, directive);
  const at = await taskLevelUrl(c, task.taskId, label);
  await coveredInTime(c, task);
  return { task, ...at };
}

verifies(
  '3/completed-webhook',
  'completing a task delivers task.completed',
  async (c) => {
    const { task, ...at } = await runWithConfig(c, 'completed');
    const since = Date.now();
    await task.finish();
    checkEvent(c, await captured(c, at, task.taskId, 'task.completed', since), 'task.completed', {
      'status.state': 'completed',
    });
  },
  together,
);

verifies(
  '3/failed-webhook',
  'a failing task delivers task.failed',
  async (c) => {
    await requireDirectives(c, 'a failing task (fail)');
    // finishOnCancel: the task fails the moment finish() cancels it, long before delayMs.
    const directive = { delayMs: 1_500, fail: 'conformance failure', finishOnCancel: true };
    const { task, ...at } = await runWithConfig(c, 'failed', directive);
    const since = Date.now();
    await task.finish();
    checkEvent(c, await captured(c, at, task.taskId, 'task.failed', since), 'task.failed', {
      'status.state': 'failed',
      'status.error.message': 'conformance failure',
    });
  },
  // message/stream, the set, tasks/get (and the stored configuration's createdAt when the task already
  // ended), tasks/get until working, tasks/cancel (finishOnCancel), tasks/get.
  { ...together, cost: { requests: 7, turns: 1 } },
);

verifies(
  '3/cancel-from-working-webhook',
  'canceling a working task delivers task.canceled',
  async (c) => {
    const { task, ...at } = await runWithConfig(c, 'canceled', { runUntilCanceled: true });
    const reason = 'conformance: cancel while working';
    const since = Date.now();
    const ex = await cancelTask(c, task.taskId, reason);
    const ended = resultOf(ex) === undefined ? endedBefore(c, task, ex) : undefined;
    if (ended !== undefined) c.notExercised(ended);
    if (resultOf(ex) === undefined && !(await directivesHonoured(c))) {
      c.notExercised('the plain task ended before the cancel reached it (no directive contract to hold it)');
    }
    c.require(
      'tasks/cancel of the working task succeeded',
      resultOf(ex),
      is.objectContaining({ canceled: true }),
    );
    const got = await captured(c, at, task.taskId, 'task.canceled', since);
    checkEvent(c, got, 'task.canceled', { reason });
  },
  // message/stream of a held task, the set, tasks/cancel.
  { ...together, cost: { requests: 3, turns: 1 } },
);

// Replaces the agent-level configuration an earlier file left (C-17) with one as narrow: task.submitted.
verifies(
  '3/task-submitted-announced',
  'a new task is announced with task.submitted',
  async (c) => {
    const hooks = await c.webhooks();
    const { token, url } = hooks.newUrl('agent-level submitted');
    await requireSet(c, { url, events: ['task.submitted'] });
    const since = Date.now();
    const ex = await sendText(c, 'announce me');
    const taskId = resultOf(ex)?.id;
    c.require('message/send result.id', taskId, is.nonEmptyString());
    checkEvent(
      c,
      await captured(c, { hooks, token }, taskId as string, 'task.submitted', since),
      'task.submitted',
    );
  },
  // The agent-level set, message/send.
  { ...together, cost: { requests: 2, turns: 1 } },
);
