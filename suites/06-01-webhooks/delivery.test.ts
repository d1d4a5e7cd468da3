// Spec 6.5 (delivery and retries), 2.11 (retryPolicy defaults, task scope) and the per-attempt fields
// of 6.2-6.4, with rulings C-17 and C-20. Task-level configurations on running tasks, one capture url
// per check; every check waits on a delivery, a retry schedule or a timeout, so all run concurrently.
// Attempts are counted by X-Webhook-Delivery and delivery.attempt (spec 6.5: duplicates are possible);
// what must not arrive is stated as an expectation, settled at the latest at the end of the run.
import { is, suiteFile, verifies, verifySignature } from '../support/index.ts';
import {
  awaitEvidence,
  checkGaps,
  count,
  distinctDeliveries,
  EARLY_MS,
  headerOf,
  LATE_MS,
  ofTask,
  payloadOf,
  retryGaps,
  scheduledDelayMs,
  summary,
} from '../support/deliveries.ts';
import { READS_A_SAMPLE, sharedSample } from '../support/samples.ts';
import { coveredInTime, requireSet, startRunningTask } from '../support/webhooks.ts';
import { attemptsOf, failing, OWN_RUN, retries, scriptedRun } from './scripted-run.ts';

suiteFile({
  // Most checks read one of the file's two samples and send nothing of their own.
  cost: { requests: 0, turns: 0 },
  span: 'long',
});

const concurrent = { concurrent: true };
const readsASample = { concurrent: true, cost: READS_A_SAMPLE };
const ownRun = { concurrent: true, cost: OWN_RUN };

// First in the file: vitest runs at most a few concurrent checks at once, and this one is the longest.
// The receiver answers after 5.6 s: a sender that waits longer sees a 200 and never retries.
const SLOW_MS = 5_600;
const SENDER_TIMEOUT_MS = 5_000;

verifies(
  '6.5/receiver-timeout-5s',
  'an attempt unanswered after 5 s is failed and retried',
  async (c) => {
    const policy = { initialDelay: 0.1, backoffMultiplier: 2, maxRetries: 1 };
    const run = await scriptedRun(c, { label: 'slow', policy, script: [{ delayMs: SLOW_MS }], count: 2 });
    c.require('attempts (the first unanswered within 5 s)', summary(run.deliveries), count(2));
    // Arrival to arrival: the sender must have waited 5 s (spec 6.5), then about initialDelay more.
    // The retry delay itself is graded by 6.5/retry-backoff; here only the timeout is. When the sender
    // sent the first attempt and when it gave up are not observable: the first attempt may have been
    // on its way (or stamped late by a held-up receiver) for as long as it took to arrive after the
    // task ended, which shortens the gap (run.firstLagMs); a retry stamped late lengthens it.
    const [first, retry] = [run.deliveries[0]!, run.deliveries[1]!];
    const gap = Math.round(retry.receivedAtMs - first.receivedAtMs);
    const lo = SENDER_TIMEOUT_MS - EARLY_MS - Math.max(run.firstLagMs, first.stampLagMs ?? 0);
    const hi =
      SENDER_TIMEOUT_MS +
      scheduledDelayMs(run.policy, 1) +
      LATE_MS +
      run.roundTripMs +
      (retry.stampLagMs ?? 0);
    c.check(
      'ms from the unanswered attempt to its retry',
      gap,
      is.where(`within [${lo}, ${hi}]`, (a) => typeof a === 'number' && a >= lo && a <= hi),
    );
  },
  {
    concurrent: true,
    timeoutMs: 30_000,
    cost: { requests: 4, turns: 1, waits: [{ spec: SENDER_TIMEOUT_MS, why: 'the receiver timeout of 6.5' }] },
  },
);

verifies(
  '6.5/retry-count',
  'a failing event is retried maxRetries times, then dropped',
  async (c) => {
    const run = await retries(c);
    const hooks = await c.webhooks();
    c.check(
      'attempts received (maxRetries 2)',
      summary(distinctDeliveries(hooks.receiver.deliveries({ token: run.token }))),
      count(3),
    );
    // The sample resolves at the last expected attempt; a surplus one may come at any time after.
    hooks.expectNothingMore(
      'attempts beyond maxRetries + 1',
      { token: run.token },
      run.deliveries,
      'attempt',
    );
  },
  readsASample,
);

verifies(
  '6.5/retry-backoff',
  'retries wait initialDelay * multiplier^(n-1)',
  async (c) => {
    const run = await retries(c);
    c.require('attempts received', run.deliveries.length, run.policy.maxRetries + 1);
    checkGaps(c, retryGaps(run.deliveries), run.policy, run.roundTripMs);
  },
  readsASample,
);

// With the shared sample's 0.1 s initial delay, a sender that waits initialDelay * multiplier^n (an
// exponent off by one) stays within C-20's 1 s late tolerance. A 0.5 s delay and a multiplier of 4
// put the first retry at 0.5 s, and the off-by-one sender's at 2 s, well beyond 0.5 + 1 s.
verifies(
  '6.5/retry-backoff',
  'the first retry waits initialDelay, not initialDelay * multiplier',
  async (c) => {
    const policy = { initialDelay: 0.5, backoffMultiplier: 4, maxRetries: 1 };
    const run = await scriptedRun(c, { label: 'first-retry', policy, script: failing(1), count: 2 });
    c.require('attempts received', run.deliveries.length, 2);
    checkGaps(c, retryGaps(run.deliveries), run.policy, run.roundTripMs);
  },
  ownRun,
);

verifies(
  '6.5/delivery-id-stable',
  'every attempt of one event carries the same delivery id',
  async (c) => {
    const run = await retries(c);
    c.require('attempts received', run.deliveries.length, run.policy.maxRetries + 1);
    const ids = run.deliveries.map((d) => headerOf(d, 'x-webhook-delivery'));
    c.check(
      'X-Webhook-Delivery of each attempt',
      ids,
      ids.map(() => ids[0] ?? 'a delivery id'),
    );
  },
  readsASample,
);

verifies(
  '6.3/payload-delivery-attempt',
  'delivery.attempt counts 1, 2, 3 across retries',
  async (c) => {
    const run = await retries(c);
    c.require('attempts received', run.deliveries.length, run.policy.maxRetries + 1);
    c.check('delivery.attempt of each attempt', attemptsOf(run.deliveries), [1, 2, 3]);
  },
  readsASample,
);

verifies(
  '6.3/payload-delivery-max-attempts',
  'delivery.maxAttempts is maxRetries + 1',
  async (c) => {
    const run = await retries(c);
    c.require('attempts received', run.deliveries.length, run.policy.maxRetries + 1);
    const max = run.deliveries.map(
      (d) => (payloadOf(d)?.delivery as { maxAttempts?: unknown } | undefined)?.maxAttempts,
    );
    c.check('delivery.maxAttempts of each attempt (maxRetries 2)', max, [3, 3, 3]);
  },
  readsASample,
);

verifies(
  '6.4/signature-hmac-sha256-hex',
  'each attempt is signed over its own exact bytes',
  async (c) => {
    const run = await retries(c);
    c.require('attempts received', run.deliveries.length, run.policy.maxRetries + 1);
    for (const d of run.deliveries) {
      const sig = verifySignature(d.body, run.secret!, d.headers['x-webhook-signature']);
      c.check(
        `attempt ${String(attemptsOf([d])[0])}: X-Webhook-Signature`,
        sig.actual,
        sig.ok ? sig.actual : sig.expected,
      );
    }
  },
  readsASample,
);

verifies(
  '6.5/failed-attempt-retried',
  'an attempt answered 500 is retried',
  async (c) => {
    const run = await retries(c);
    c.check('attempts after a 500', summary(run.deliveries), count(run.policy.maxRetries + 1));
  },
  readsASample,
);

// Other failures than a 5xx: a redirect first (a sender that follows it would count it delivered).
const OTHER_FAILURES = [
  { what: 'answered 302 (redirects are never followed)', first: { status: 302, body: '' } },
  { what: 'ended by a connection reset', first: { reset: true } },
] as const;

verifies(
  '6.5/failed-attempt-retried',
  'an attempt answered 302, or ended by a connection reset, is retried',
  async (c) => {
    await c.each('failed attempts other than a 5xx', OTHER_FAILURES, async ({ what, first }) => {
      const policy = { initialDelay: 0.1, backoffMultiplier: 2, maxRetries: 1 };
      const run = await scriptedRun(c, { label: 'retried', policy, script: [first], count: 2 });
      c.check(
        `an attempt ${what}: attempts (first failed, the retry answered 200)`,
        summary(ofTask(run.deliveries, run.taskId)),
        count(2),
      );
    });
  },
  { ...concurrent, cost: OWN_RUN, property: { requests: 5, turns: 1, cases: OTHER_FAILURES.length } },
);

// One event answered 202, with no secret configured: the acknowledgement check and the unsigned
// delivery check read it.
const acknowledged = sharedSample('one event answered 202, without a secret', OWN_RUN, (c) =>
  scriptedRun(c, {
    label: 'acknowledged',
    policy: { initialDelay: 0.1, backoffMultiplier: 2, maxRetries: 2 },
    script: [{ status: 202 }],
    count: 1,
    settle: true,
  }),
);

verifies(
  '6.5/2xx-acknowledges',
  'an attempt answered 202 is not retried',
  async (c) => {
    const run = await acknowledged(c);
    c.check('attempts after a 202', summary(run.deliveries), count(1));
  },
  readsASample,
);

verifies(
  '2.11/initial-delay-default',
  'without initialDelay the first retry waits 1 s',
  async (c) => {
    const policy = { maxRetries: 1, backoffMultiplier: 2 };
    const run = await scriptedRun(c, { label: 'initial-delay', policy, script: failing(1), count: 2 });
    c.require('attempts received', run.deliveries.length, 2);
    checkGaps(c, retryGaps(run.deliveries), { ...run.policy, initialDelay: 1 }, run.roundTripMs);
  },
  { ...ownRun, crossSection: 'observable only through delivery retries' },
);

verifies(
  '2.11/backoff-multiplier-default',
  'without backoffMultiplier each retry waits twice as long',
  async (c) => {
    const policy = { initialDelay: 0.1, maxRetries: 2 };
    const run = await scriptedRun(c, { label: 'multiplier', policy, script: failing(3), count: 3 });
    c.require('attempts received', run.deliveries.length, 3);
    const gaps = retryGaps(run.deliveries);
    checkGaps(c, gaps, { ...run.policy, backoffMultiplier: 2 }, run.roundTripMs);
    c.info('ratio of the second retry delay to the first', gaps[0] ? gaps[1]!.ms / gaps[0].ms : undefined);
  },
  { ...ownRun, crossSection: 'observable only through delivery retries' },
);

verifies(
  '2.11/max-retries-default',
  'without maxRetries a failing event gets 4 attempts',
  async (c) => {
    const policy = { initialDelay: 0.1, backoffMultiplier: 1 };
    const run = await scriptedRun(c, {
      label: 'max-retries',
      policy,
      script: failing(6),
      count: 4,
      settle: true,
    });
    c.check('attempts received', summary(run.deliveries), count(4));
    const max = run.deliveries.map(
      (d) => (payloadOf(d)?.delivery as { maxAttempts?: unknown } | undefined)?.maxAttempts,
    );
    c.check(
      'delivery.maxAttempts of each attempt',
      max,
      max.map(() => 4),
    );
  },
  { ...ownRun, crossSection: 'observable only through delivery retries' },
);

verifies(
  '2.11/task-scoped-config',
  'a task-level configuration gets the events of its task only',
  async (c) => {
    const hooks = await c.webhooks();
    const { token, url } = hooks.newUrl('task-scoped');
    const task = await startRunningTask(c);
    const other = await startRunningTask(c);
    await requireSet(c, { url }, task.taskId);
    await coveredInTime(c, task);
    const [since] = await Promise.all([task.finish(), other.finish()]);
    const match = { token, taskId: task.taskId, event: 'task.completed' };
    await awaitEvidence(c, hooks, match, { since, what: 'task.completed of the configured task' });
    await other.ended;
    const got = ofTask(hooks.receiver.deliveries({ token }), task.taskId);
    c.check(
      'task.completed of the configured task delivered',
      got.some((d) => payloadOf(d)?.event === 'task.completed'),
      true,
    );
    // Anything else at this url (the other task's events) is a violation, however late it comes.
    hooks.expectNothingMore('deliveries of other tasks', { token }, got);
  },
  // Two running tasks: two message/stream, the set, per task tasks/get until working, tasks/cancel and
  // tasks/get.
  { ...concurrent, cost: { requests: 9, turns: 2 }, crossSection: 'observable only through deliveries' },
);

// The agent-level filter checks (agent-scope.test.ts) say nothing of task-level configurations,
// whose events lists the other checks here never narrow below what happens after the set.
verifies(
  '6.1/events-filter',
  'a task-level configuration of task.canceled gets nothing when its task completes',
  async (c) => {
    const hooks = await c.webhooks();
    const { token, url } = hooks.newUrl('task-filter');
    const task = await startRunningTask(c);
    await requireSet(c, { url, events: ['task.canceled'] }, task.taskId);
    await coveredInTime(c, task);
    await task.finish();
    await task.ended;
    // Settled at once if a delivery is already in, else at the end of the run (after the grace period).
    hooks.expectNothingMore('deliveries (task.completed is not subscribed)', { token });
  },
  ownRun,
);

verifies(
  '6.2/no-signature-without-secret',
  'without a secret no X-Webhook-Signature is sent',
  async (c) => {
    const run = await acknowledged(c);
    c.require('task.completed delivered', run.deliveries.length, 1);
    c.check('X-Webhook-Signature', headerOf(run.deliveries[0]!, 'x-webhook-signature'), undefined);
  },
  readsASample,
);
