// Spec 6.2 (headers), 6.3 (payload) and 6.4 (signature), ruling C-20, on every delivery of the
// agent-level sample (a plain task, a secret and one configured header; every attempt answered 200).
// Registered by agent-scope.test.ts; the per-retry fields are checked in delivery.test.ts.
import { WEBHOOK_EVENTS } from '../../schemas/error-codes.ts';
import { isObject } from '../../schemas/json.ts';
import { is, verifies, verifySignature, type CheckContext, type Delivery } from '../support/index.ts';
import { dataOf, DEFAULT_POLICY, eventOf, headerOf, payloadOf } from '../support/deliveries.ts';
import { isoTimestamp } from '../support/timestamps.ts';
import { deliveryId } from '../support/webhooks.ts';
import type { VerifiesOptions } from '../../harness/check/index.ts';
import { agentSample, requireSample, type AgentSample } from './agent-sample.ts';

async function sample(c: CheckContext): Promise<Sample> {
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

type Sample = AgentSample & { taskId: string };

/** A requirement graded on one field of every delivery of the sample, as data. */
interface EachDelivery {
  id: string;
  title: string;
  /** The field as the report labels it (the configured header's name comes from the sample). */
  label: string | ((s: Sample) => string);
  read: (d: Delivery, s: Sample) => unknown;
  /** A value or matcher, or what this delivery (of this sample and run) must carry. */
  expected: (d: Delivery, s: Sample, c: CheckContext) => unknown;
}

const deliveryField = (d: Delivery, name: 'attempt' | 'maxAttempts'): unknown =>
  (payloadOf(d)?.delivery as Record<string, unknown> | undefined)?.[name];

const EACH_DELIVERY: readonly EachDelivery[] = [
  {
    id: '6.2/content-type-json',
    title: 'every delivery has Content-Type application/json',
    label: 'Content-Type',
    read: (d) => headerOf(d, 'content-type'),
    expected: () => is.matching(/^application\/json\s*(;.*)?$/i),
  },
  {
    id: '6.2/event-header',
    title: 'X-Webhook-Event names the event of the payload',
    label: 'X-Webhook-Event',
    read: (d) => headerOf(d, 'x-webhook-event'),
    expected: (d) => eventOf(d),
  },
  {
    id: '6.2/signature-header',
    title: 'with a secret every delivery carries X-Webhook-Signature',
    label: 'X-Webhook-Signature',
    read: (d) => headerOf(d, 'x-webhook-signature'),
    expected: () => is.nonEmptyString(),
  },
  {
    id: '6.2/delivery-header',
    title: 'every delivery carries a non-blank X-Webhook-Delivery id',
    label: 'X-Webhook-Delivery',
    read: (d) => headerOf(d, 'x-webhook-delivery'),
    expected: () => deliveryId,
  },
  {
    id: '6.2/user-agent',
    title: 'User-Agent has the form <product>-Webhook/<version>',
    label: 'User-Agent',
    read: (d) => headerOf(d, 'user-agent'),
    expected: () => is.matching(/^\S(.*\S)?-Webhook\/\S+$/),
  },
  {
    id: '6.2/configured-headers-sent',
    title: 'the configured headers are sent with each delivery',
    label: (s) => s.header[0],
    read: (d, s) => headerOf(d, s.header[0]),
    // The value is a per-run random string, not a credential: compared as is.
    expected: (_d, s) => s.header[1],
  },
  {
    id: '6.3/payload-event',
    title: 'the payload event is one of the five names',
    label: 'payload event',
    read: (d) => payloadOf(d)?.event,
    expected: () => is.oneOf([...WEBHOOK_EVENTS]),
  },
  {
    id: '6.3/payload-timestamp',
    title: 'the payload timestamp is RFC 3339',
    label: 'payload timestamp',
    read: (d) => payloadOf(d)?.timestamp,
    expected: () => isoTimestamp,
  },
  {
    id: '6.3/payload-agent-id',
    title: 'the payload agentId is the agent of the task',
    label: 'payload agentId',
    read: (d) => payloadOf(d)?.agentId,
    expected: (_d, _s, c) => c.target.agentId,
  },
  {
    id: '6.3/payload-delivery-attempt',
    title: 'a first attempt carries delivery.attempt 1',
    label: 'delivery.attempt',
    read: (d) => deliveryField(d, 'attempt'),
    expected: () => 1,
  },
  {
    id: '6.3/payload-delivery-max-attempts',
    title: 'delivery.maxAttempts is 4 with the default policy',
    label: 'delivery.maxAttempts',
    read: (d) => deliveryField(d, 'maxAttempts'),
    expected: () => DEFAULT_POLICY.maxRetries + 1,
  },
  {
    id: '6.4/signature-sha256-prefix',
    title: 'the signature is sha256= and 64 hex digits',
    label: 'X-Webhook-Signature',
    read: (d) => headerOf(d, 'x-webhook-signature'),
    expected: () => is.matching(/^sha256=[0-9a-fA-F]{64}$/),
  },
];

export function registerRequestChecks(opts: VerifiesOptions = {}): void {
  for (const k of EACH_DELIVERY) {
    verifies(
      k.id,
      k.title,
      async (c) => {
        const s = await sample(c);
        const label = typeof k.label === 'string' ? k.label : k.label(s);
        each(
          c,
          s.deliveries,
          label,
          (d) => k.read(d, s),
          (d: Delivery) => k.expected(d, s, c),
        );
      },
      opts,
    );
  }

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
    '6.3/payload-task-id',
    'the payload taskId is the task whose status changed',
    async (c) => {
      const s = await sample(c);
      // The sample's deliveries were found at its URL by payload taskId or data.taskId (deliveryOfTask):
      // each one's payload taskId is graded here, so a missing or garbled one fails this requirement.
      const events = s.deliveries.map(eventOf);
      c.check('task.submitted found under the task id', events.includes('task.submitted'), true);
      c.check(`${s.finalEvent} found under the task id`, events.includes(s.finalEvent), true);
      each(c, s.deliveries, 'payload taskId', (d) => payloadOf(d)?.taskId, s.taskId);
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
