// Spec 6.1 (task events and their data) and 2.11 (events default to all five), rulings C-20, C-39,
// C-43 and C-45, on the agent-level samples of agent-sample.ts. Registered by agent-scope.test.ts so
// that they run in its fixed order with the other checks that set an agent-level configuration.
import { validate } from '../../schemas/registry.ts';
import { isObject } from '../../schemas/json.ts';
import { is, verifies, type CheckContext, type Delivery } from '../support/index.ts';
import { checkEvent, dataOf, eventOf, payloadOf, summary } from '../support/deliveries.ts';
import { requireDirectives } from '../support/directives.ts';
import { isoTimestamp } from '../support/timestamps.ts';
import { nonNegativeNumber } from '../support/webhooks.ts';
import type { VerifiesOptions } from '../../harness/check/index.ts';
import {
  agentConfig,
  agentSample,
  outcomeSample,
  requireCanceled,
  requireCompletedSample,
  requireFailed,
  requireSample,
} from './agent-sample.ts';

const ORDER = ['task.submitted', 'task.working', 'task.completed'];

/** The data member holding the time of each event's transition (spec 6.1). */
const TIME_OF: Record<string, string> = {
  'task.submitted': 'submittedAt',
  'task.working': 'startedAt',
  'task.completed': 'completedAt',
  'task.failed': 'failedAt',
  'task.canceled': 'canceledAt',
};

/** Sorts events by their place in `order` (unknown ones last), so a set is compared, not an arrival order. */
function byOrder(order: readonly unknown[]): (a: unknown, b: unknown) => number {
  const rank = (x: unknown): number => (order.includes(x) ? order.indexOf(x) : order.length);
  return (a, b) => rank(a) - rank(b);
}

/** An RFC 3339 time as an instant; NaN (never smaller, never larger) when it is not one. */
const instant = (v: unknown): number => (typeof v === 'string' ? Date.parse(v) : NaN);

/** The one delivery of `event` (its first attempt), or the check ends. */
function requireEvent(c: CheckContext, ds: readonly Delivery[], event: string): Record<string, unknown> {
  const d = ds.find((x) => eventOf(x) === event);
  c.require(`a ${event} delivery of the task`, d === undefined ? summary(ds) : event, event);
  const schema = validate('webhook-payload', payloadOf(d!));
  c.check(`${event} payload against schema webhook-payload`, schema.valid ? [] : schema.errors, []);
  c.require(`${event} payload data`, dataOf(d!), is.type('object'));
  return dataOf(d!)!;
}

function path(obj: unknown, ...keys: string[]): unknown {
  return keys.reduce<unknown>((at, k) => (isObject(at) ? at[k] : undefined), obj);
}

export function registerEventChecks(opts: VerifiesOptions = {}): void {
  verifies(
    '6.1/http-post-to-url',
    'each notification is an HTTP POST to the configured url',
    async (c) => {
      const s = requireSample(c, await agentSample(c), 'agent-level sample');
      const hookPath = `/hooks/${encodeURIComponent(s.token)}`;
      const seen = s.deliveries.map(
        (d) => `${d.method} ${d.path.endsWith(hookPath) ? 'configured url' : d.path}`,
      );
      c.check(
        'method and target of each delivery',
        seen,
        seen.map(() => 'POST configured url'),
      );
    },
    opts,
  );

  verifies(
    '6.1/submitted-data',
    'task.submitted data: taskId, submittedAt, estimatedDuration',
    async (c) => {
      const s = requireSample(c, await agentSample(c), 'agent-level sample');
      const data = requireEvent(c, s.deliveries, 'task.submitted');
      c.check('data.taskId', data.taskId, s.taskId);
      c.check('data.submittedAt', data.submittedAt, isoTimestamp);
      c.check('data.estimatedDuration', data.estimatedDuration, nonNegativeNumber);
    },
    opts,
  );

  verifies(
    '6.1/working-data',
    'task.working data, when sent: taskId, startedAt, progress',
    async (c) => {
      const s = requireSample(c, await agentSample(c), 'agent-level sample');
      if (!s.deliveries.some((d) => eventOf(d) === 'task.working'))
        c.notExercised('the agent sent no task.working event (optional per agent, spec 3)');
      const data = requireEvent(c, s.deliveries, 'task.working');
      c.check('data.taskId', data.taskId, s.taskId);
      c.check('data.startedAt', data.startedAt, isoTimestamp);
      c.check('data.progress', data.progress, is.type('object'));
    },
    opts,
  );

  verifies(
    '6.1/completed-data',
    'task.completed data: taskId, status.message, contextId, duration, completedAt',
    async (c) => {
      const s = requireSample(c, await agentSample(c), 'agent-level sample');
      requireCompletedSample(c, s);
      const data = requireEvent(c, s.deliveries, 'task.completed');
      c.check('data.taskId', data.taskId, s.taskId);
      c.check(
        'data.status.message',
        path(data, 'status', 'message'),
        is.objectContaining({ role: 'agent', parts: is.type('array') }),
      );
      c.check(
        'data.contextId (the message/send result contextId)',
        data.contextId,
        s.contextId ?? is.nonEmptyString(),
      );
      c.check('data.duration', data.duration, nonNegativeNumber);
      c.check('data.completedAt', data.completedAt, isoTimestamp);
    },
    opts,
  );

  verifies(
    '6.1/failed-data',
    'task.failed data: taskId, status.error, duration, failedAt',
    async (c) => {
      const failed = requireFailed(c, await outcomeSample(c));
      const data = requireEvent(c, failed.deliveries, 'task.failed');
      c.check('data.taskId', data.taskId, failed.taskId);
      c.check(
        'data.status.error',
        path(data, 'status', 'error'),
        is.objectContaining({ message: is.type('string') }),
      );
      c.check('data.duration', data.duration, nonNegativeNumber);
      c.check('data.failedAt', data.failedAt, isoTimestamp);
    },
    opts,
  );

  verifies(
    '6.1/canceled-data',
    'task.canceled data: taskId, reason, canceledAt',
    async (c) => {
      const canceled = requireCanceled(c, await outcomeSample(c));
      const data = requireEvent(c, canceled.deliveries, 'task.canceled');
      c.check('data.taskId', data.taskId, canceled.taskId);
      c.check('data.reason (the reason given to tasks/cancel)', data.reason, canceled.reason);
      c.check('data.canceledAt', data.canceledAt, isoTimestamp);
    },
    opts,
  );

  verifies(
    '6.1/data-timestamps-iso8601',
    'every event timestamp in data is RFC 3339',
    async (c) => {
      const s = requireSample(c, await agentSample(c), 'agent-level sample');
      const outcomes = await outcomeSample(c);
      const all = [
        ...s.deliveries,
        ...(outcomes.failed?.deliveries ?? []),
        ...(outcomes.canceled?.deliveries ?? []),
      ];
      const keys = ['submittedAt', 'startedAt', 'completedAt', 'failedAt', 'canceledAt'];
      for (const d of all) {
        for (const key of keys) {
          const value = dataOf(d)?.[key];
          if (value !== undefined) c.check(`${String(eventOf(d))} data.${key}`, value, isoTimestamp);
        }
      }
    },
    opts,
  );

  verifies(
    '6.1/durations-milliseconds',
    'duration and estimatedDuration are non-negative numbers',
    async (c) => {
      const s = requireSample(c, await agentSample(c), 'agent-level sample');
      const failed = (await outcomeSample(c)).failed?.deliveries ?? [];
      const submitted = requireEvent(c, s.deliveries, 'task.submitted');
      c.check('task.submitted data.estimatedDuration', submitted.estimatedDuration, nonNegativeNumber);
      if (s.finalEvent !== 'task.canceled') {
        const end = requireEvent(c, s.deliveries, s.finalEvent);
        c.check(`${s.finalEvent} data.duration`, end.duration, nonNegativeNumber);
      }
      const failure = failed.find((d) => eventOf(d) === 'task.failed');
      if (failure) c.check('task.failed data.duration', dataOf(failure)?.duration, nonNegativeNumber);
    },
    opts,
  );

  verifies(
    '6.1/transition-order',
    'the events of one task come once each, in transition order by their own times',
    async (c) => {
      const s = requireSample(c, await agentSample(c), 'agent-level sample');
      const events = s.deliveries.map(eventOf);
      // A receiver sees arrivals, not the starts C-20 orders: parallel attempts overtake each other in
      // flight and a retried event comes after later ones (freedom webhook.delivery-order). The order
      // graded is the one the agent's own event times give; arrival order is told.
      c.info('events of the task in arrival order (not graded: webhook.delivery-order)', events);
      const order = ORDER.map((e) => (e === 'task.completed' ? s.finalEvent : e));
      const expected = order.filter((e) => e !== 'task.working' || events.includes(e));
      c.check(
        'events of the task, once each (put in transition order)',
        [...events].sort(byOrder(expected)),
        expected,
      );
      const times = expected.map((e) => {
        const d = s.deliveries.find((x) => eventOf(x) === e);
        return { event: e, at: d === undefined ? undefined : dataOf(d)?.[TIME_OF[e] ?? ''] };
      });
      c.check(
        'event times (data.submittedAt, startedAt, then the end) in transition order',
        times,
        is.where('not decreasing as instants (equal times are legal: C-39)', (a) =>
          (a as typeof times).every((t, i, all) => i === 0 || !(instant(t.at) < instant(all[i - 1]!.at))),
        ),
      );
    },
    opts,
  );

  verifies(
    '2.11/events-default-all',
    'without events: submitted and completed of a plain task',
    async (c) => {
      const s = requireSample(c, await agentSample(c), 'agent-level sample');
      const events = s.deliveries.map(eventOf);
      c.check('task.submitted delivered', events.includes('task.submitted'), true);
      c.check(`${s.finalEvent} (the end of the task) delivered`, events.includes(s.finalEvent), true);
      c.info('task.working delivered (optional per agent, spec 3)', events.includes('task.working'));
    },
    { ...opts, crossSection: 'observable only through deliveries' },
  );

  verifies(
    '2.11/events-default-all',
    'without events: task.failed and task.canceled too',
    async (c) => {
      await requireDirectives(c, 'a task that fails');
      const s = await outcomeSample(c);
      const failed = requireFailed(c, s);
      c.check('task.failed delivered', failed.deliveries.map(eventOf).includes('task.failed'), true);
      const canceled = requireCanceled(c, s);
      c.check('task.canceled delivered', canceled.deliveries.map(eventOf).includes('task.canceled'), true);
    },
    { ...opts, crossSection: 'observable only through deliveries' },
  );

  // Spec 3's webhook column read on the same samples (03-states/webhooks.test.ts shows each under a
  // task-level configuration, with a task of its own): an agent-level configuration of every event
  // gets the plain task's task.submitted and task.completed and the failing task's task.failed, once
  // each. What follows the first delivery is this check's to expect (its own webhook scope).
  verifies(
    '3/task-submitted-announced',
    'the plain task is announced with task.submitted to the agent-level configuration',
    async (c) => {
      const s = requireSample(c, await agentSample(c), 'agent-level sample');
      checkEvent(c, { ...s, hooks: await c.webhooks() }, 'task.submitted');
    },
    { ...opts, crossSection: 'read on the agent-level delivery samples: no requests of their own' },
  );

  verifies(
    '3/completed-webhook',
    'the plain task completing delivers task.completed to the agent-level configuration',
    async (c) => {
      const s = requireSample(c, await agentSample(c), 'agent-level sample');
      requireCompletedSample(c, s);
      checkEvent(c, { ...s, hooks: await c.webhooks() }, 'task.completed', { 'status.state': 'completed' });
    },
    { ...opts, crossSection: 'read on the agent-level delivery samples: no requests of their own' },
  );

  verifies(
    '3/failed-webhook',
    'the failing task delivers task.failed to the agent-level configuration',
    async (c) => {
      await requireDirectives(c, 'a task that fails');
      const failed = requireFailed(c, await outcomeSample(c));
      const { token } = await agentConfig(c);
      checkEvent(c, { ...failed, token, hooks: await c.webhooks() }, 'task.failed', {
        'status.state': 'failed',
        'status.error.message': failed.message,
      });
    },
    { ...opts, crossSection: 'read on the agent-level delivery samples: no requests of their own' },
  );
}
