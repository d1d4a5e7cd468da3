// Readers of webhook deliveries and the retry timing of ruling C-20 (spec 6.3, 6.5), for the webhook
// suites: payload fields, per-task filtering, waits for a number of attempts, measured retry delays
// checked against initialDelay * backoffMultiplier^(n-1) within C-20's tolerance.
import {
  is,
  type CheckContext,
  type CheckWebhooks,
  type Matcher,
  type Delivery,
} from '../../harness/check/index.ts';
import { isObject } from '../../schemas/json.ts';
import type { JsonObject } from './messages.ts';

export const DEFAULT_POLICY = Object.freeze({ maxRetries: 3, backoffMultiplier: 2, initialDelay: 1 });

/** C-20 tolerance of a measured retry delay: [scheduled - 50 ms, scheduled + 1000 ms]. */
export const EARLY_MS = 50;
export const LATE_MS = 1000;

/** Deliveries on loopback arrive within milliseconds; this bounds a wait for one that never comes. */
export const DELIVERY_WAIT_MS = 5_000;

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

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

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

/** The deliveries of one task (payload taskId), in arrival order. */
export function ofTask(ds: readonly Delivery[], taskId: string): Delivery[] {
  return ds.filter((d) => payloadOf(d)?.taskId === taskId);
}

/** A short, secret-free view of deliveries for expected-vs-actual records. */
export function summary(ds: readonly Delivery[]): Array<Record<string, unknown>> {
  return ds.map((d) => ({
    seq: d.seq,
    event: eventOf(d) ?? headerOf(d, 'x-webhook-event'),
    taskId: payloadOf(d)?.taskId,
    attempt: (payloadOf(d)?.delivery as JsonObject | undefined)?.attempt,
    deliveryId: headerOf(d, 'x-webhook-delivery'),
  }));
}

/**
 * Measured delay before each retry: from the receiver's answer to attempt n to the arrival of attempt
 * n + 1 (the sender sees the answer a little later, so this never understates its wait).
 */
export function retryGaps(ds: readonly Delivery[]): number[] {
  return ds.slice(1).map((d, i) => {
    const prev = ds[i]!;
    return Math.round(d.receivedAtMs - (prev.response.atMs ?? prev.receivedAtMs));
  });
}

/**
 * Waits for `count` attempts to one url; with `settle`, then long enough for one more to show up if
 * the target (wrongly) sends it: the next scheduled retry delay plus the C-20 late tolerance.
 * `failedAfterMs` stretches the wait for attempts the receiver leaves unanswered (the sender's timeout).
 */
export async function awaitAttempts(
  hooks: CheckWebhooks,
  token: string,
  policy: Required<RetryPolicy>,
  count: number,
  opts: { failedAfterMs?: number; settle?: boolean } = {},
): Promise<Delivery[]> {
  const failedAfterMs = opts.failedAfterMs ?? 0;
  let budget = DELIVERY_WAIT_MS + failedAfterMs;
  for (let n = 1; n < count; n += 1) budget += scheduledDelayMs(policy, n) + LATE_MS + failedAfterMs;
  await hooks.receiver.waitFor({ token }, { timeoutMs: budget, count });
  if (opts.settle === true) await sleep(scheduledDelayMs(policy, count) + LATE_MS);
  return hooks.receiver.deliveries({ token });
}

/** A matcher for a list of `n` deliveries (the summary of what arrived is recorded as actual). */
export function count(n: number): Matcher {
  return is.where(`${n} deliver${n === 1 ? 'y' : 'ies'}`, (a) => Array.isArray(a) && a.length === n);
}

/** Checks each measured retry delay against initialDelay * backoffMultiplier^(n-1) within C-20's tolerance. */
export function checkGaps(
  c: CheckContext,
  gaps: readonly number[],
  policy: Required<RetryPolicy>,
  what = 'retry',
): void {
  gaps.forEach((gap, i) => {
    const scheduled = scheduledDelayMs(policy, i + 1);
    const lo = scheduled - EARLY_MS;
    const hi = scheduled + LATE_MS;
    c.check(
      `${what} ${i + 1}: measured delay in ms (scheduled ${scheduled})`,
      gap,
      is.where(`within [${lo}, ${hi}] (C-20)`, (a) => typeof a === 'number' && a >= lo && a <= hi),
    );
  });
}
