// The deliveries the `receiver` command sends, shaped as spec 6.1 to 6.4 shape them: one payload per
// task event (6.1, 6.3), its exact bytes in several legal JSON forms (C-20, C-73), the headers of
// 6.2 and the signature of 6.4, plus the forgeries of C-70 derived from a correct signature.
import { randomUUID } from 'node:crypto';
import { signatureFor } from '../io/webhooks/webhook-signature.ts';
import { TOOL } from '../runner/tool.ts';

export const TASK_EVENTS = [
  'task.submitted',
  'task.working',
  'task.completed',
  'task.failed',
  'task.canceled',
] as const;

export type TaskEvent = (typeof TASK_EVENTS)[number];

/** What a delivery is on the wire: the headers and the exact bytes (the signed ones, C-20). */
export interface Delivery {
  deliveryId: string;
  event: TaskEvent;
  headers: Record<string, string>;
  body: Buffer;
}

export type Payload = Record<string, unknown> & { delivery: { attempt: number; maxAttempts: number } };

// The default policy of spec 2.11: 3 retries, so 4 attempts in all.
const MAX_ATTEMPTS = 4;
export const AGENT_ID = 'conformance-agent';
const USER_AGENT = `${TOOL.name}-Webhook/${TOOL.version}`;

/** The `data` of one event with the members spec 6.1 lists (durations in ms, C-43). */
function eventData(event: TaskEvent, taskId: string, now: string, text: string): Record<string, unknown> {
  switch (event) {
    case 'task.submitted':
      return { taskId, submittedAt: now, estimatedDuration: 1500 };
    case 'task.working':
      return { taskId, startedAt: now, progress: { current: 1, total: 3, message: 'step 1 of 3' } };
    case 'task.completed': {
      const message = { role: 'agent', messageId: randomUUID(), parts: [{ type: 'text', text }] };
      return {
        taskId,
        status: { state: 'completed', message },
        contextId: randomUUID(),
        duration: 1234,
        completedAt: now,
      };
    }
    case 'task.failed':
      return {
        taskId,
        status: { state: 'failed', error: { code: 'agent_error', message: 'The agent could not finish.' } },
        duration: 987,
        failedAt: now,
      };
    case 'task.canceled':
      return { taskId, reason: 'Canceled by client', canceledAt: now };
  }
}

/** A payload of spec 6.3 for one event of a fresh task, attempt 1 (`text`: the completed reply). */
export function payloadFor(event: TaskEvent, text = 'Done.', now = new Date()): Payload {
  const taskId = randomUUID();
  const at = now.toISOString();
  return {
    event,
    timestamp: at,
    agentId: AGENT_ID,
    taskId,
    data: eventData(event, taskId, at, text),
    delivery: { attempt: 1, maxAttempts: MAX_ATTEMPTS },
  };
}

/** JSON text forms a service may legally send (C-73); every one is signed over its own bytes. */
export type JsonForm = 'compact' | 'indented-reordered' | 'escaped-unicode';

function reorder(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reorder);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([k, v]) => [k, reorder(v)]),
  );
}

export function serialise(payload: Payload, form: JsonForm = 'compact'): Buffer {
  switch (form) {
    case 'compact':
      return Buffer.from(JSON.stringify(payload), 'utf8');
    case 'indented-reordered':
      // CRLF line ends and a tab indent: legal JSON white space that no re-serialiser reproduces.
      return Buffer.from(
        `${JSON.stringify(reorder(payload), null, '\t').replace(/\n/g, '\r\n')}\r\n`,
        'utf8',
      );
    case 'escaped-unicode':
      // Every non-ASCII character as a \u escape, and `/` escaped: the same value, other bytes.
      return Buffer.from(
        JSON.stringify(payload)
          .replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
          .replace(/\//g, '\\/'),
        'utf8',
      );
  }
}

export interface DeliveryOptions {
  secret?: string;
  /** Extra headers of the webhook configuration (spec 2.11 `headers`), sent with each delivery. */
  headers?: Record<string, string>;
  deliveryId?: string;
}

/** The headers of spec 6.2 for these bytes; signed when a secret is given (6.4). */
export function deliveryOf(event: TaskEvent, body: Buffer, opts: DeliveryOptions): Delivery {
  const deliveryId = opts.deliveryId ?? randomUUID();
  const headers: Record<string, string> = {
    ...opts.headers,
    'content-type': 'application/json',
    'x-webhook-event': event,
    'x-webhook-delivery': deliveryId,
    'user-agent': USER_AGENT,
  };
  if (opts.secret !== undefined) headers['x-webhook-signature'] = signatureFor(body, opts.secret);
  return { deliveryId, event, headers, body };
}

/** The payload of a later attempt of the same delivery: new attempt number, new timestamp (6.5). */
export function retryOf(payload: Payload, attempt: number, now = new Date()): Payload {
  return { ...payload, timestamp: now.toISOString(), delivery: { ...payload.delivery, attempt } };
}

/** The forged signature headers of C-70, each derived from the correct one so only a lax parser accepts it. */
export function malformedSignatures(correct: string): Array<{ label: string; value: string }> {
  const hex = correct.slice('sha256='.length);
  return [
    { label: 'the hex digest without the sha256= prefix', value: hex },
    { label: 'sha256= and the first 32 hex digits only', value: `sha256=${hex.slice(0, 32)}` },
    { label: 'the correct signature followed by extra characters', value: `${correct}00` },
    { label: 'another algorithm name (sha1=) before the right digest', value: `sha1=${hex}` },
  ];
}

/** The same bytes with one member's value changed after signing (late in the body, C-70). */
export function tamper(body: Buffer): Buffer {
  const text = body.toString('utf8');
  const at = text.lastIndexOf('"maxAttempts":');
  if (at < 0) throw new Error('tamper: no delivery.maxAttempts member to change');
  return Buffer.from(
    `${text.slice(0, at)}"maxAttempts":9${text.slice(at).replace(/^"maxAttempts":\d+/, '')}`,
    'utf8',
  );
}
