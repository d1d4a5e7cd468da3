// Reading captured webhook deliveries: which test URL (token) one went to, whether it matches a
// filter, its payload's event, task and attempt, the key that tells a copy of an attempt from a new
// one (spec 6.5: duplicates are possible), and the distinct attempts or deliveries among many.
import type { Delivery } from '../../../core/evidence.ts';
import { WEBHOOK_EVENTS } from '../../../schemas/error-codes.ts';
import { decodeUtf8, parseJson } from '../target/body-reader.ts';

export type DeliveryFilter = ((d: Delivery) => boolean) | { token?: string; event?: string; path?: string };

const TOKEN_PATH = /\/hooks\/([^/?#]+)/;

export function tokenOf(path: string): string | undefined {
  const m = TOKEN_PATH.exec(path);
  if (m?.[1] === undefined) return undefined;
  try {
    return decodeURIComponent(m[1]);
  } catch {
    return m[1];
  }
}

function headerText(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

export function matches(d: Delivery, filter: DeliveryFilter | undefined): boolean {
  if (filter === undefined) return true;
  if (typeof filter === 'function') return filter(d);
  if (filter.token !== undefined && d.token !== filter.token) return false;
  if (filter.path !== undefined && d.path !== filter.path) return false;
  if (filter.event !== undefined) {
    const json = d.json as { event?: unknown } | undefined;
    const event = headerText(d.headers['x-webhook-event']) ?? json?.event;
    if (event !== filter.event) return false;
  }
  return true;
}

/**
 * A delivery's payload read from its kept (decoded) bytes: their text, and their JSON or why there is
 * none. `unreadable` is why the bytes could not be decoded at all (a content coding that failed); the
 * receiver reads each delivery this way, and a worker's mirror reads again the bytes the link sent.
 */
export function payloadOf(body: Buffer, unreadable?: string): Pick<Delivery, 'text' | 'json' | 'parseError'> {
  const { text, invalidUtf8 } = decodeUtf8(body);
  const parsed =
    unreadable !== undefined
      ? { parseError: unreadable }
      : invalidUtf8
        ? { parseError: 'body is not valid UTF-8' }
        : parseJson(text);
  return { text, ...parsed };
}

/**
 * Memory a stored delivery holds: its kept bytes, their decoded text and, when they parsed, their
 * JSON (whose strings are copies of the text's, so about its size again: a 256 KiB payload of one
 * long string holds three times 256 KiB).
 */
export function storedSize(d: Delivery): number {
  return d.body.length + d.text.length * (d.json === undefined ? 1 : 2);
}

function payloadField(d: Delivery, key: string): unknown {
  const json = d.json;
  return typeof json === 'object' && json !== null && !Array.isArray(json)
    ? (json as Record<string, unknown>)[key]
    : undefined;
}

/** The event a delivery announces: its payload `event`, else its X-Webhook-Event header. */
export function deliveryEvent(d: Delivery): unknown {
  return payloadField(d, 'event') ?? headerText(d.headers['x-webhook-event']);
}

/** The task a delivery is about: its payload `taskId`. */
export function deliveryTaskId(d: Delivery): unknown {
  return payloadField(d, 'taskId');
}

/** The payload's data.taskId (spec 6.1: every event's data names its task). */
function dataTaskId(d: Delivery): unknown {
  const data = payloadField(d, 'data');
  return typeof data === 'object' && data !== null ? (data as Record<string, unknown>).taskId : undefined;
}

/**
 * Whether a delivery at a check's URL is about task `taskId`: its payload taskId names it, or, when
 * the payload taskId is missing or names another task, its data.taskId does (spec 6.1). A delivery
 * whose payload lacks or garbles taskId is thus still the check's evidence, graded against 6.3,
 * rather than a delivery the check never sees and waits out its budget for.
 */
export function deliveryOfTask(d: Delivery, taskId: string): boolean {
  return deliveryTaskId(d) === taskId || dataTaskId(d) === taskId;
}

/**
 * Whether a delivery is of `event`: its payload event names it, or, when the payload event is missing
 * or is none of the five names (spec 6.3), its X-Webhook-Event header does (spec 6.2). So a delivery
 * whose payload garbles the event is found, and graded against 6.3, by the check that awaits it.
 */
export function deliveryIsEvent(d: Delivery, event: string): boolean {
  const named = payloadField(d, 'event');
  if (named === event) return true;
  if (typeof named === 'string' && (WEBHOOK_EVENTS as readonly string[]).includes(named)) return false;
  return headerText(d.headers['x-webhook-event']) === event;
}

/** The payload's delivery.attempt (spec 6.3). */
export function deliveryAttempt(d: Delivery): unknown {
  const meta = payloadField(d, 'delivery');
  return typeof meta === 'object' && meta !== null ? (meta as Record<string, unknown>).attempt : undefined;
}

/**
 * What a delivery is (spec 6.2, 6.5): its X-Webhook-Delivery, event and task; per attempt, also its
 * delivery.attempt (6.3). Copies (spec 6.5: "Duplicate deliveries are possible") share the key; a
 * POST without a delivery id is a delivery of its own. Per delivery, a retry of an event already
 * received (its acknowledgement lost on the way back) is the same delivery too.
 */
export type DeliveryUnit = 'attempt' | 'delivery';

export function deliveryKey(d: Delivery, per: DeliveryUnit = 'attempt'): string {
  const id = headerText(d.headers['x-webhook-delivery']);
  if (id === undefined || id.trim() === '') return `#${d.seq}`;
  const attempt = per === 'attempt' ? deliveryAttempt(d) : null;
  return JSON.stringify([id, attempt, deliveryEvent(d), deliveryTaskId(d)]);
}

/**
 * The first copy of each attempt (or, per delivery, of each delivery) among `ds`, in arrival order.
 * Counts of deliveries and attempts are made on these, never on POSTs.
 */
export function distinctDeliveries(ds: readonly Delivery[], per: DeliveryUnit = 'attempt'): Delivery[] {
  const seen = new Set<string>();
  return ds.filter((d) => {
    const key = deliveryKey(d, per);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** A short, secret-free view of deliveries for expected-vs-actual records. */
export function summarizeDeliveries(ds: readonly Delivery[]): Array<Record<string, unknown>> {
  return ds.map((d) => ({
    seq: d.seq,
    event: deliveryEvent(d),
    taskId: deliveryTaskId(d),
    attempt: deliveryAttempt(d),
    deliveryId: headerText(d.headers['x-webhook-delivery']),
  }));
}
