// Reading captured webhook deliveries: which test URL (token) one went to, whether it matches a
// filter, its payload's event, task and attempt, the key that tells a copy of an attempt from a new
// one (spec 6.5: duplicates are possible), and the distinct attempts or deliveries among many.
import type { Delivery } from '../../../core/evidence.ts';

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

/** Memory a stored delivery holds: its kept bytes and their decoded text. */
export function storedSize(d: Delivery): number {
  return d.body.length + d.text.length;
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
