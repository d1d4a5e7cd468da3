// Spec 6.2 (headers), 6.3 (payload) and 6.4 (signature), ruling C-20, on every delivery of the
// agent-level sample (a plain task, a secret and one configured header; every attempt answered 200).
// Registered by agent-scope.test.ts; the per-retry fields are checked in delivery.test.ts.
import { WEBHOOK_EVENTS } from '../../schemas/error-codes.ts';
import { isObject } from '../../schemas/json.ts';
import { is, verifies, type CheckContext } from '../support/index.ts';
import type { VerifiesOptions } from '../../harness/index.ts';
import {
  dataOf,
  DEFAULT_POLICY,
  eventOf,
  headerOf,
  isoTimestamp,
  payloadOf,
  deliveryId,
  verifySignature,
  type Delivery,
} from '../support/webhooks-area.ts';
import { agentSample, requireSample, type AgentSample } from './agent-sample.ts';

async function sample(c: CheckContext): Promise<AgentSample & { taskId: string }> {
  return requireSample(c, await agentSample(c), 'agent-level sample');
}

/** One soft assertion per delivery, labelled with its event. */
function each(
  c: CheckContext,
  ds: readonly Delivery[],
  label: string,
  read: (d: Delivery) => unknown,
  expected: unknown | ((d: Delivery) => unknown),
): void {
  for (const d of ds) {
    const want = typeof expected === 'function' ? (expected as (d: Delivery) => unknown)(d) : expected;
    c.check(`${String(eventOf(d))}: ${label}`, read(d), want);
  }
}

export function registerRequestChecks(opts: VerifiesOptions = {}): void {
  verifies(
    '6.2/content-type-json',
    'every delivery has Content-Type application/json',
    async (c) => {
      const s = await sample(c);
      const json = is.matching(/^application\/json\s*(;.*)?$/i);
      each(c, s.deliveries, 'Content-Type', (d) => headerOf(d, 'content-type'), json);
    },
    opts,
  );

  verifies(
    '6.2/event-header',
    'X-Webhook-Event names the event of the payload',
    async (c) => {
      const s = await sample(c);
      each(
        c,
        s.deliveries,
        'X-Webhook-Event',
        (d) => headerOf(d, 'x-webhook-event'),
        (d: Delivery) => eventOf(d),
      );
    },
    opts,
  );

  verifies(
    '6.2/signature-header',
    'with a secret every delivery carries X-Webhook-Signature',
    async (c) => {
      const s = await sample(c);
      each(
        c,
        s.deliveries,
        'X-Webhook-Signature',
        (d) => headerOf(d, 'x-webhook-signature'),
        is.nonEmptyString(),
      );
    },
    opts,
  );

  verifies(
    '6.2/delivery-header',
    'every delivery carries a non-blank X-Webhook-Delivery id',
    async (c) => {
      const s = await sample(c);
      each(c, s.deliveries, 'X-Webhook-Delivery', (d) => headerOf(d, 'x-webhook-delivery'), deliveryId);
    },
    opts,
  );

  verifies(
    '6.2/delivery-id-per-event',
    'different events carry different delivery ids',
    async (c) => {
      const s = await sample(c);
      const ids = s.deliveries.map((d) => headerOf(d, 'x-webhook-delivery'));
      c.require('events delivered', ids.length, is.atLeast(2));
      const distinct = is.where('all different', (a) => Array.isArray(a) && new Set(a).size === a.length);
      c.check('X-Webhook-Delivery of the events of one task', ids, distinct);
    },
    opts,
  );

  verifies(
    '6.2/user-agent',
    'User-Agent has the form <product>-Webhook/<version>',
    async (c) => {
      const s = await sample(c);
      each(
        c,
        s.deliveries,
        'User-Agent',
        (d) => headerOf(d, 'user-agent'),
        is.matching(/^\S(.*\S)?-Webhook\/\S+$/),
      );
    },
    opts,
  );

  verifies(
    '6.2/configured-headers-sent',
    'the configured headers are sent with each delivery',
    async (c) => {
      const s = await sample(c);
      const [name, value] = s.header;
      // The value is a per-run random string, not a credential: compared as is.
      each(c, s.deliveries, name, (d) => headerOf(d, name), value);
    },
    opts,
  );

  verifies(
    '6.3/payload-event',
    'the payload event is one of the five names',
    async (c) => {
      const s = await sample(c);
      each(c, s.deliveries, 'payload event', (d) => payloadOf(d)?.event, is.oneOf([...WEBHOOK_EVENTS]));
    },
    opts,
  );

  verifies(
    '6.3/payload-timestamp',
    'the payload timestamp is RFC 3339',
    async (c) => {
      const s = await sample(c);
      each(c, s.deliveries, 'payload timestamp', (d) => payloadOf(d)?.timestamp, isoTimestamp);
    },
    opts,
  );

  verifies(
    '6.3/payload-agent-id',
    'the payload agentId is the agent of the task',
    async (c) => {
      const s = await sample(c);
      each(c, s.deliveries, 'payload agentId', (d) => payloadOf(d)?.agentId, c.target.agentId);
    },
    opts,
  );

  verifies(
    '6.3/payload-task-id',
    'the payload taskId is the task whose status changed',
    async (c) => {
      const s = await sample(c);
      // The sample's events were found by payload taskId: a wrong id would leave them missing.
      const events = s.deliveries.map(eventOf);
      c.check('task.submitted found under the task id', events.includes('task.submitted'), true);
      c.check(`${s.finalEvent} found under the task id`, events.includes(s.finalEvent), true);
      each(c, s.deliveries, 'data.taskId beside payload taskId', (d) => dataOf(d)?.taskId, s.taskId);
    },
    opts,
  );

  verifies(
    '6.3/payload-data',
    'data is an object; status.state matches; duration a number',
    async (c) => {
      const s = await sample(c);
      each(c, s.deliveries, 'payload data', (d) => payloadOf(d)?.data, is.type('object'));
      for (const d of s.deliveries) {
        const data = payloadOf(d)?.data;
        const status = isObject(data) ? data.status : undefined;
        const state = String(eventOf(d)).replace(/^task\./, '');
        if (status !== undefined)
          c.check(
            `${String(eventOf(d))}: data.status.state`,
            isObject(status) ? status.state : status,
            state,
          );
        const duration = isObject(data) ? data.duration : undefined;
        if (duration !== undefined)
          c.check(`${String(eventOf(d))}: data.duration`, duration, is.type('number'));
      }
    },
    opts,
  );

  verifies(
    '6.3/payload-delivery-attempt',
    'a first attempt carries delivery.attempt 1',
    async (c) => {
      const s = await sample(c);
      each(
        c,
        s.deliveries,
        'delivery.attempt',
        (d) => (payloadOf(d)?.delivery as { attempt?: unknown })?.attempt,
        1,
      );
    },
    opts,
  );

  verifies(
    '6.3/payload-delivery-max-attempts',
    'delivery.maxAttempts is 4 with the default policy',
    async (c) => {
      const s = await sample(c);
      const max = DEFAULT_POLICY.maxRetries + 1;
      each(
        c,
        s.deliveries,
        'delivery.maxAttempts',
        (d) => (payloadOf(d)?.delivery as { maxAttempts?: unknown })?.maxAttempts,
        max,
      );
    },
    opts,
  );

  verifies(
    '6.4/signature-hmac-sha256-hex',
    'the signature is the HMAC-SHA256 of the exact body',
    async (c) => {
      const s = await sample(c);
      for (const d of s.deliveries) {
        const sig = verifySignature(d.body, s.secret, d.headers['x-webhook-signature']);
        c.check(`${String(eventOf(d))}: X-Webhook-Signature`, sig.actual, sig.ok ? sig.actual : sig.expected);
      }
    },
    opts,
  );

  verifies(
    '6.4/signature-sha256-prefix',
    'the signature is sha256= and 64 hex digits',
    async (c) => {
      const s = await sample(c);
      each(
        c,
        s.deliveries,
        'X-Webhook-Signature',
        (d) => headerOf(d, 'x-webhook-signature'),
        is.matching(/^sha256=[0-9a-fA-F]{64}$/),
      );
    },
    opts,
  );

  verifies(
    '6.4/signature-verifiable',
    'a receiver verifies each delivery by recomputing the HMAC',
    async (c) => {
      const s = await sample(c);
      for (const d of s.deliveries) {
        const sig = verifySignature(d.body, s.secret, d.headers['x-webhook-signature']);
        c.check(`${String(eventOf(d))}: recomputed HMAC matches`, sig.reason ?? 'match', 'match');
      }
    },
    opts,
  );
}
