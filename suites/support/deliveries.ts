// Webhook deliveries and the retry timing of ruling C-20 (spec 6.3, 6.5): payload fields, per-task
// filtering, waits for a delivery (the spec sets no delivery latency: the check's budget bounds them)
// and for a number of attempts (after the first, the retry schedule bounds them), measured retry delays checked against initialDelay * backoffMultiplier^(n-1) within
// C-20's tolerance. Deliveries are counted as attempts (X-Webhook-Delivery and delivery.attempt),
// never as POSTs: spec 6.5 allows duplicates.
import {
  deliveryIsEvent,
  deliveryOfTask,
  distinctDeliveries,
  is,
  LATE_TOLERANCE_MS,
  summarizeDeliveries,
  type CheckContext,
  type CheckWebhooks,
  type Delivery,
  type DeliveryMatch,
  type Exchange,
  type Matcher,
} from '../../harness/check/index.ts';
import { isObject } from '../../schemas/json.ts';
import type { JsonObject } from './rpc.ts';

export { distinctDeliveries };

export const DEFAULT_POLICY = Object.freeze({ maxRetries: 3, backoffMultiplier: 2, initialDelay: 1 });

/** C-20 tolerance of a measured retry delay: [scheduled - 50 ms, scheduled + 1000 ms]. */
export const EARLY_MS = 50;
export const LATE_MS = LATE_TOLERANCE_MS;

export interface RetryPolicy {
  maxRetries?: number;
  backoffMultiplier?: number;
  initialDelay?: number;
}

/** C-20: retry n (attempt n + 1) starts initialDelay * backoffMultiplier^(n-1) seconds after attempt n. */
export function scheduledDelayMs(policy: Required<RetryPolicy>, retry: number): number {
  return policy.initialDelay * policy.backoffMultiplier ** (retry - 1) * 1000;
}

// ---- deliveries --------------------------------------------------------------------------------

export function payloadOf(d: Delivery): JsonObject | undefined {
  return isObject(d.json) ? d.json : undefined;
}

export function eventOf(d: Delivery): unknown {
  return payloadOf(d)?.event;
}

export function dataOf(d: Delivery): JsonObject | undefined {
  const data = payloadOf(d)?.data;
  return isObject(data) ? data : undefined;
}

export function headerOf(d: Delivery, name: string): string | undefined {
  const v = d.headers[name.toLowerCase()];
  return Array.isArray(v) ? v.join(', ') : v;
}

/**
 * The deliveries of one task, in arrival order: by payload taskId, else data.taskId (deliveryOfTask),
 * so one that lacks or garbles its payload taskId is graded rather than missed.
 */
export function ofTask(ds: readonly Delivery[], taskId: string): Delivery[] {
  return ds.filter((d) => deliveryOfTask(d, taskId));
}

/** A short, secret-free view of deliveries for expected-vs-actual records. */
export const summary = summarizeDeliveries;

/**
 * The deliveries of one task at one url, once each (per X-Webhook-Delivery: a copy, or a retry of an
 * event whose acknowledgement the sender did not get, is the same delivery), in arrival order.
 */
export function deliveriesOf(hooks: CheckWebhooks, token: string, taskId: string): Delivery[] {
  return distinctDeliveries(ofTask(hooks.receiver.deliveries({ token }), taskId), 'delivery');
}

/** Why a check is not-exercised when `what` did not arrive in the `waitedMs` it waited, with what did. */
export function notDelivered(what: string, waitedMs: number, received: readonly Delivery[]): string {
  return (
    `${what}: not delivered within the ${waitedMs} ms the check waited (its budget, longer while the URL ` +
    `still received deliveries; the spec sets no delivery latency); received: ${JSON.stringify(summary(received))}`
  );
}

/**
 * The attempts (first copies) matching `match` once `count` of them are in (default 1). The spec
 * sets no delivery latency, so only the check's budget bounds the wait; `since` is when the check
 * caused the event (its lag is recorded: the run's grace period derives from the slowest). Evidence
 * that is not in by then leaves the check not-exercised, with what arrived.
 */
export async function awaitEvidence(
  c: CheckContext,
  hooks: CheckWebhooks,
  match: DeliveryMatch,
  opts: { since: number; count?: number; what: string },
): Promise<Delivery[]> {
  const got = await hooks.awaitDeliveries(match, opts);
  if (got.timedOut) {
    c.notExercised(notDelivered(opts.what, got.waitedMs, got.deliveries));
  }
  return got.deliveries;
}

/** A measured retry delay, and how late the receiver may have stamped the retry's arrival. */
export interface RetryGap {
  ms: number;
  stampLagMs: number;
}

/**
 * Measured delay before each retry: from the receiver's answer to attempt n to the arrival of attempt
 * n + 1 (the sender sees the answer a little later, so this never understates its wait).
 */
export function retryGaps(ds: readonly Delivery[]): RetryGap[] {
  return ds.slice(1).map((d, i) => {
    const prev = ds[i]!;
    return {
      ms: Math.round(d.receivedAtMs - (prev.response.atMs ?? prev.receivedAtMs)),
      stampLagMs: d.stampLagMs ?? 0,
    };
  });
}

/**
 * The quickest complete answer among `exchanges`, in ms: the round trip this agent has shown (its
 * network path, processing included). A retry measured at the receiver includes one such trip (the
 * answer's way back to the sender, the retry's way here), which C-20's schedule does not.
 */
export function fastestRoundTripMs(exchanges: readonly Exchange[]): number {
  const times = exchanges.filter((e) => e.response !== undefined).map((e) => e.timings.totalMs);
  return times.length === 0 ? 0 : Math.round(Math.min(...times));
}

/**
 * Waits for `count` attempts of one event to one url: the first for as long as the check's budget
 * allows (awaitEvidence), each further one for its scheduled retry delay plus the C-20 late tolerance
 * after the one before (`failedAfterMs` stretches it for an attempt the receiver answers late or never:
 * the sender's timeout). Returns the attempts in (first copies); a missing retry is the caller's finding.
 */
export async function awaitAttempts(
  c: CheckContext,
  hooks: CheckWebhooks,
  token: string,
  policy: Required<RetryPolicy>,
  count: number,
  opts: { since: number; failedAfterMs?: number; roundTripMs?: number },
): Promise<Delivery[]> {
  const failedAfterMs = opts.failedAfterMs ?? 0;
  await awaitEvidence(c, hooks, { token }, { since: opts.since, what: 'the first attempt of the event' });
  // A retry is on its way here as long as the first attempt was (a relay between the agent and the
  // receiver): the agent has shown that lag, so each wait grows by it.
  const first = distinctDeliveries(hooks.receiver.deliveries({ token }))[0];
  const lagMs = first === undefined ? 0 : Math.max(0, Date.parse(first.timestamp) - opts.since);
  const wayMs = Math.max(opts.roundTripMs ?? 0, lagMs);
  for (let n = 2; n <= count; n += 1) {
    // Beyond what checkGaps() accepts (a late retry is seen and graded on its measured delay, not missed).
    const timeoutMs = failedAfterMs + scheduledDelayMs(policy, n - 1) + 2 * LATE_MS + wayMs;
    const got = await hooks.receiver.waitForResult({ token }, { timeoutMs, count: n, distinct: true });
    if (got.timedOut) break;
  }
  return distinctDeliveries(hooks.receiver.deliveries({ token }));
}

/** A matcher for a list of `n` deliveries (the summary of what arrived is recorded as actual). */
export function count(n: number): Matcher {
  return is.where(`${n} deliver${n === 1 ? 'y' : 'ies'}`, (a) => Array.isArray(a) && a.length === n);
}

/**
 * Checks each measured retry delay against initialDelay * backoffMultiplier^(n-1) within C-20's
 * tolerance (-50 ms, +1000 ms), the late bound grown by what the receiver cannot tell from a late
 * sender: `roundTripMs` (the answer's way back and the retry's way here: fastestRoundTripMs of the
 * run, or the first attempt's lag when longer: scriptedRun) and how late the receiver stamped the
 * arrival (its own event loop held up on a loaded machine).
 */
export function checkGaps(
  c: CheckContext,
  gaps: readonly RetryGap[],
  policy: Required<RetryPolicy>,
  roundTripMs: number,
  what = 'retry',
): void {
  gaps.forEach((gap, i) => {
    const scheduled = scheduledDelayMs(policy, i + 1);
    const lo = scheduled - EARLY_MS;
    const hi = scheduled + LATE_MS + roundTripMs + gap.stampLagMs;
    const why = `C-20; + ${roundTripMs} ms round trip, + ${gap.stampLagMs} ms receiver lag`;
    c.check(
      `${what} ${i + 1}: measured delay in ms (scheduled ${scheduled})`,
      gap.ms,
      is.where(`within [${lo}, ${hi}] (${why})`, (a) => typeof a === 'number' && a >= lo && a <= hi),
    );
  });
}

// ---- one task's events at one url ------------------------------------------------------------

/** One task's deliveries to one url (first copies of each attempt), once `lastEvent` is in. */
export interface Captured {
  hooks: CheckWebhooks;
  token: string;
  taskId: string;
  deliveries: Delivery[];
}

/**
 * The deliveries of one task to one url once `lastEvent` arrived; `since` is when the check caused it.
 * The spec sets no delivery latency: only the check's budget bounds the wait (then not-exercised).
 */
export async function captured(
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

/**
 * Exactly one delivery of `event` for the task (copies of it aside: spec 6.5), however late another
 * would come; its data names the task; `expect` checks the rest.
 */
export function checkEvent(
  c: CheckContext,
  got: Captured,
  event: string,
  expect: Record<string, unknown> = {},
): void {
  const ds = got.deliveries;
  c.info('deliveries of the task, in arrival order', summary(ds));
  const hits = ds.filter((d) => deliveryIsEvent(d, event));
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
