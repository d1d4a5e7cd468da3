// One webhook event under a scripted receiver (spec 6.5, ruling C-20): a running task, a task-level
// configuration of task.completed with a small retry policy, and the attempts collected (first copies:
// spec 6.5 allows duplicates); plus the file's shared sample of three failing attempts. Used by
// delivery.test.ts.
import { randomBytes } from 'node:crypto';
import type { ScriptedResponse } from '../../harness/check/index.ts';
import type { CheckContext, Delivery } from '../support/index.ts';
import { awaitAttempts, fastestRoundTripMs, payloadOf, type RetryPolicy } from '../support/deliveries.ts';
import { sharedSample } from '../support/samples.ts';
import { coveredInTime, setWithPolicy, startRunningTask } from '../support/webhooks.ts';

const COMPLETED = ['task.completed'];

export interface Run {
  token: string;
  taskId: string;
  policy: Required<RetryPolicy>;
  deliveries: Delivery[];
  /**
   * The retry delays' allowance for the answer's way back and the retry's way here: the quickest
   * answer of the run's own requests (fastestRoundTripMs), or the first attempt's lag when longer
   * (a relay between the agent and the receiver: each attempt spends that long on its way).
   */
  roundTripMs: number;
  /**
   * Wall ms from the request that ended the task to the first attempt's arrival (stamp lag included):
   * the longest the first attempt can have been on its way here, which the receiver cannot see.
   */
  firstLagMs: number;
  secret?: string;
}

/** One task.completed event to a fresh url answered as `script`, collected until `count` attempts. */
export async function scriptedRun(
  c: CheckContext,
  opts: {
    label: string;
    policy: RetryPolicy;
    script: ScriptedResponse[];
    count: number;
    secret?: string;
    /** Also expect no attempt beyond `count` (settled when the evidence is in, at the latest at the run's end). */
    settle?: boolean;
  },
): Promise<Run> {
  const hooks = await c.webhooks();
  const sent = c.exchanges().length;
  const { token, url } = hooks.newUrl(opts.label);
  await hooks.receiver.script(token, opts.script);
  const task = await startRunningTask(c);
  const config = { url, events: COMPLETED, ...(opts.secret === undefined ? {} : { secret: opts.secret }) };
  const { policy } = await setWithPolicy(c, task.taskId, config, opts.policy);
  await coveredInTime(c, task);
  const since = await task.finish();
  const failedAfterMs = opts.script[0]?.delayMs ?? 0;
  const roundTripMs = fastestRoundTripMs(c.exchanges().slice(sent));
  const deliveries = await awaitAttempts(c, hooks, token, policy, opts.count, {
    since,
    failedAfterMs,
    roundTripMs,
  });
  if (opts.settle === true) {
    hooks.expectNothingMore(`attempts beyond the ${opts.count} expected`, { token }, deliveries, 'attempt');
  }
  const first = deliveries[0];
  const firstLagMs = first === undefined ? 0 : Math.max(0, Date.parse(first.timestamp) - since);
  const run: Run = {
    token,
    taskId: task.taskId,
    policy,
    deliveries,
    roundTripMs: Math.max(roundTripMs, firstLagMs),
    firstLagMs,
  };
  if (opts.secret !== undefined) run.secret = opts.secret;
  return run;
}

export const failing = (n: number): ScriptedResponse[] => Array.from({ length: n }, () => ({ status: 500 }));

/**
 * What one scripted event costs (scriptedRun): message/stream of a held task, the set, tasks/get until working,
 * tasks/cancel (finishOnCancel), tasks/get; then the retry schedule the check configured.
 */
export const OWN_RUN = {
  requests: 5,
  turns: 1,
  waits: [{ spec: 3_000, why: 'the retry schedule the check configures (initialDelay x multiplier^(n-1))' }],
};

// Three attempts, all answered 500: initialDelay 0.1 s, multiplier 2, two retries (C-20 within 1 s).
export const retries = sharedSample('three failing attempts of one event', OWN_RUN, (c) =>
  scriptedRun(c, {
    label: 'retries',
    policy: { initialDelay: 0.1, backoffMultiplier: 2, maxRetries: 2 },
    script: failing(4),
    count: 3,
    secret: randomBytes(18).toString('base64url'),
  }),
);

export function attemptsOf(ds: readonly Delivery[]): unknown[] {
  return ds.map((d) => (payloadOf(d)?.delivery as { attempt?: unknown } | undefined)?.attempt);
}
