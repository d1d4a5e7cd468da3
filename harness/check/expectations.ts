// Webhook verdicts that do not race the agent (spec 6.5: no delivery latency is set, duplicates are
// possible). A check states what must not arrive ("nothing more of this task at this URL than the
// deliveries I graded"); the verdict is settled when the evidence is in: at once when a violating
// delivery has already arrived, otherwise at the end of the run (the run's receiver listens until
// then, harness/io/links/webhook-link.ts), and never before a grace period derived from the slowest delivery
// lag the agent has shown. Deliveries are told apart by X-Webhook-Delivery and attempt
// (deliveryKey), never counted by POSTs.
import type { Assertion, CheckResult } from '../../core/types.ts';
import type { Delivery } from '../../core/evidence.ts';
import {
  deliveryIsEvent,
  deliveryKey,
  deliveryOfTask,
  distinctDeliveries,
  summarizeDeliveries,
  type DeliveryUnit,
} from '../io/webhooks/webhook-receiver.ts';
import { describeValue } from '../../core/describe.ts';

/** Which deliveries an expectation is about; every field given must match. */
export interface DeliveryMatch {
  /** The check URL's token (CheckWebhooks.newUrl); absent: any URL of the run's receiver. */
  token?: string;
  /** The task (payload taskId, else data.taskId: deliveryOfTask). */
  taskId?: string;
  /** The event (payload `event`, else X-Webhook-Event: deliveryIsEvent). */
  event?: string;
}

/**
 * "Nothing more": no delivery matching `match` other than the deliveries (or attempts) the check
 * already graded (`allowed`, their deliveryKey()s), and their copies.
 */
export interface NothingMore {
  label: string;
  match: DeliveryMatch;
  /** What `allowed` names: deliveries (any attempt or copy of them is allowed) or single attempts. */
  per: DeliveryUnit;
  allowed: string[];
  /** Epoch ms when the check stated it; the grace period runs from here. */
  since: number;
}

/** An expectation whose verdict is recorded as the check's assertion number `assertion`. */
export interface PendingExpectation extends NothingMore {
  assertion: number;
}

/** What a check leaves to the end of the run: its open expectations and the delivery lags it saw. */
export interface WebhookSettlement {
  expectations: PendingExpectation[];
  /** Each lag seen: ms from the moment the check caused an event to its delivery's arrival. */
  lagsMs: number[];
}

/**
 * C-20's late tolerance for a scheduled attempt, the slack a delivery gets beyond twice the slowest
 * lag the agent has shown (the harness's own scheduling on a loaded machine included).
 */
export const LATE_TOLERANCE_MS = 1_000;

/** The rule of graceMs(), as notes state it. */
export const GRACE_RULE = `grace: twice the slowest delivery lag the agent showed, plus ${LATE_TOLERANCE_MS} ms (C-20's late tolerance)`;

/**
 * How long after an expectation was stated a violating delivery is still awaited: twice the slowest
 * delivery lag the agent has shown in this run, plus C-20's late tolerance.
 */
export function graceMs(lagsMs: readonly number[]): number {
  const slowest = lagsMs.reduce((a, b) => Math.max(a, b), 0);
  return 2 * slowest + LATE_TOLERANCE_MS;
}

export function matchesDelivery(d: Delivery, m: DeliveryMatch): boolean {
  if (m.token !== undefined && d.token !== m.token) return false;
  if (m.taskId !== undefined && !deliveryOfTask(d, m.taskId)) return false;
  if (m.event !== undefined && !deliveryIsEvent(d, m.event)) return false;
  return true;
}

/** The attempts (first copies) that break the expectation, in arrival order. */
export function violations(e: NothingMore, ds: readonly Delivery[]): Delivery[] {
  const allowed = new Set(e.allowed);
  return distinctDeliveries(
    ds.filter((d) => matchesDelivery(d, e.match)),
    e.per,
  ).filter((d) => !allowed.has(deliveryKey(d, e.per)));
}

/** The assertion an expectation records: expected no delivery, actual the violating ones. */
export function expectationAssertion(e: NothingMore, ds: readonly Delivery[]): Assertion {
  const bad = summarizeDeliveries(violations(e, ds));
  return { label: e.label, expected: [], actual: bad, pass: bad.length === 0 };
}

/** Epoch ms at which an expectation may be settled: its statement plus the grace period. */
export function settleAt(e: Pick<NothingMore, 'since'>, grace: number): number {
  return e.since + grace;
}

/**
 * Re-evaluates a check's open expectations on every delivery the run received, in place: each
 * assertion gets its final actual; a violation turns the result into a fail citing it (a recorded
 * failure outranks a stop or a harness error, as in CheckRecorder.finish). Returns the deliveries
 * that broke an expectation, for the evidence.
 */
export function settleResult(
  result: CheckResult,
  pending: readonly PendingExpectation[],
  ds: readonly Delivery[],
  note: string,
): Delivery[] {
  const broken: Delivery[] = [];
  for (const e of pending) {
    const a = expectationAssertion(e, ds);
    const slot = result.assertions[e.assertion];
    if (slot === undefined || slot.label !== e.label) continue;
    slot.actual = a.actual;
    slot.pass = a.pass;
    broken.push(...violations(e, ds));
  }
  if (pending.length > 0) result.notes.push(note);
  const failed = result.assertions.filter((a) => !a.pass);
  const first = failed[0];
  // A failure the check recorded itself keeps its message; a late one becomes the check's verdict.
  if (first !== undefined && result.status !== 'fail') {
    const more = failed.length > 1 ? ` (+${failed.length - 1} more failed assertion(s))` : '';
    result.status = 'fail';
    result.message = `${first.label}: expected ${describeValue(first.expected)}, actual ${describeValue(first.actual)}${more}`;
    result.expected = first.expected;
    result.actual = first.actual;
  }
  return broken;
}
