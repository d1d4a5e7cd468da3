// The checks of `a2a-conformance receiver`, one or more per receiver requirement of the ledger
// (requirements/sections/roles-receiver.ts): what is sent (deliveries.ts) and how the answer is
// graded (spec 6.4, 6.5; rulings C-70 to C-73). Each check posts its own deliveries.
import type { CheckRecorder } from '../check/recorder.ts';
import { is } from '../check/matchers.ts';
import type { Exchange } from '../../core/evidence.ts';
import {
  deliveryOf,
  malformedSignatures,
  payloadFor,
  retryOf,
  serialise,
  tamper,
  TASK_EVENTS,
  type Delivery,
  type JsonForm,
} from './deliveries.ts';

export type Post = (d: Delivery) => Promise<Exchange>;

export interface ReceiverCheckContext {
  post: Post;
  secret?: string;
  headers: Record<string, string>;
}

export interface ReceiverCheckDef {
  requirementId: string;
  title: string;
  /** Sends forgeries: a receiver may refuse them any way (C-70), so their answers are not timed. */
  forges?: true;
  run(ctx: ReceiverCheckContext, rec: CheckRecorder, evidence: Exchange[]): Promise<void>;
}

const isAck = (status: unknown): boolean => typeof status === 'number' && status >= 200 && status < 300;

/** What the service saw: the status, or why there was none. */
export function answerOf(ex: Exchange): number | string {
  if (ex.response !== undefined) return ex.response.status;
  return `no answer (${ex.error?.kind ?? 'unknown'}: ${ex.error?.message ?? ''})`;
}

async function send(ctx: ReceiverCheckContext, evidence: Exchange[], d: Delivery): Promise<Exchange> {
  const ex = await ctx.post(d);
  evidence.push(ex);
  return ex;
}

function expectAck(rec: CheckRecorder, label: string, ex: Exchange): void {
  const answer = answerOf(ex);
  rec.check(label, answer, is.where('a 2xx status (spec 6.5)', isAck));
  if ((answer === 401 || answer === 403) && ex.request.headers['x-webhook-signature'] === undefined) {
    rec.info(
      'the receiver refused an unsigned delivery: give its secret with --secret or A2A_WEBHOOK_SECRET',
    );
  }
}

function expectRefusal(rec: CheckRecorder, label: string, ex: Exchange): void {
  const answer = answerOf(ex);
  rec.check(
    label,
    answer,
    is.where('anything but a 2xx status (C-70)', (a) => !isAck(a)),
  );
  if (typeof answer === 'string') rec.info('no answer counts as not acknowledged (C-70)', answer);
}

function needSecret(ctx: ReceiverCheckContext, rec: CheckRecorder): string {
  if (ctx.secret === undefined)
    rec.notApplicable('run without --secret: the receiver is certified without signatures');
  return ctx.secret;
}

const opts = (ctx: ReceiverCheckContext, extra: { deliveryId?: string } = {}) => ({
  ...(ctx.secret === undefined ? {} : { secret: ctx.secret }),
  headers: ctx.headers,
  ...extra,
});

const ackEvent = (event: (typeof TASK_EVENTS)[number]): ReceiverCheckDef => ({
  requirementId: '6.5/receiver-acknowledges-events',
  title: `a signed ${event} delivery is acknowledged with 2xx`,
  async run(ctx, rec, ev) {
    const body = serialise(payloadFor(event));
    expectAck(rec, `answer to ${event}`, await send(ctx, ev, deliveryOf(event, body, opts(ctx))));
  },
});

// Non-ASCII text that a wrong decoding (Latin-1, a lone surrogate pair split) changes.
const UNUSUAL_TEXT = 'Fertig: Grüße, 世界 🚀 “quoted” / done';

const exactBytes = (form: JsonForm, what: string): ReceiverCheckDef => ({
  requirementId: '6.4/receiver-verifies-exact-bytes',
  title: `a delivery sent as ${what}, signed over those bytes, is acknowledged`,
  async run(ctx, rec, ev) {
    const body = serialise(payloadFor('task.completed', UNUSUAL_TEXT), form);
    expectAck(rec, `answer to ${what}`, await send(ctx, ev, deliveryOf('task.completed', body, opts(ctx))));
  },
});

const forgery = (
  requirementId: string,
  title: string,
  forge: (signed: Delivery, secret: string) => Delivery[],
): ReceiverCheckDef => ({
  requirementId,
  title,
  forges: true,
  async run(ctx, rec, ev) {
    const secret = needSecret(ctx, rec);
    const signed = deliveryOf('task.completed', serialise(payloadFor('task.completed')), opts(ctx));
    for (const d of forge(signed, secret)) {
      expectRefusal(
        rec,
        `answer to ${d.headers['x-webhook-signature'] ?? 'no signature'}`,
        await send(ctx, ev, d),
      );
    }
  },
});

/** Every receiver check, in ledger order of their requirements. */
export const RECEIVER_CHECKS: readonly ReceiverCheckDef[] = [
  {
    requirementId: '6.1/receiver-accepts-unknown-fields',
    title: 'a signed delivery with unknown payload and data members is acknowledged',
    async run(ctx, rec, ev) {
      const p = payloadFor('task.completed');
      const payload = {
        ...p,
        priority: 'high',
        trace: { id: 'x-1', spans: [1, 2] },
        data: { ...(p.data as object), region: 'eu-west', attempts: [] },
      };
      const d = deliveryOf('task.completed', serialise(payload), opts(ctx));
      expectAck(rec, 'answer to a payload with unknown members', await send(ctx, ev, d));
    },
  },
  exactBytes('compact', 'compact JSON with literal non-ASCII text'),
  exactBytes('indented-reordered', 'tab-indented JSON with CRLF line ends and reversed member order'),
  exactBytes('escaped-unicode', 'JSON with every non-ASCII character and / escaped'),
  {
    requirementId: '6.4/receiver-rejects-tampered-body',
    title: 'a delivery replayed with its body changed (same delivery id and signature) is not acknowledged',
    forges: true,
    async run(ctx, rec, ev) {
      needSecret(ctx, rec);
      // As an attacker would: capture a genuine delivery, change its body, send it again.
      const genuine = deliveryOf('task.completed', serialise(payloadFor('task.completed')), opts(ctx));
      rec.info('the genuine delivery was answered', answerOf(await send(ctx, ev, genuine)));
      expectRefusal(
        rec,
        'answer to the tampered copy',
        await send(ctx, ev, { ...genuine, body: tamper(genuine.body) }),
      );
    },
  },
  forgery(
    '6.4/receiver-rejects-wrong-secret',
    'a delivery signed with another secret is not acknowledged',
    (d, s) => [
      deliveryOf(d.event, d.body, { secret: `${s}-not-the-receivers`, headers: withoutSignature(d.headers) }),
    ],
  ),
  forgery(
    '6.4/receiver-rejects-malformed-signature',
    'deliveries with malformed X-Webhook-Signature headers are not acknowledged',
    (d) =>
      malformedSignatures(d.headers['x-webhook-signature']!).map((m) =>
        deliveryOf(d.event, d.body, {
          headers: { ...withoutSignature(d.headers), 'x-webhook-signature': m.value },
        }),
      ),
  ),
  forgery(
    '6.4/receiver-rejects-missing-signature',
    'a delivery without X-Webhook-Signature is not acknowledged by a receiver with a secret',
    (d) => [deliveryOf(d.event, d.body, { headers: withoutSignature(d.headers) })],
  ),
  ...TASK_EVENTS.map(ackEvent),
  {
    requirementId: '6.5/receiver-acknowledges-duplicate',
    title: 'the same delivery sent twice is acknowledged both times',
    async run(ctx, rec, ev) {
      const d = deliveryOf('task.completed', serialise(payloadFor('task.completed')), opts(ctx));
      expectAck(rec, 'answer to the first delivery', await send(ctx, ev, d));
      expectAck(rec, 'answer to the duplicate (same X-Webhook-Delivery, same bytes)', await send(ctx, ev, d));
    },
  },
  {
    requirementId: '6.5/receiver-acknowledges-retry',
    title: 'attempt 2 of a delivery (new body and signature, same delivery id) is acknowledged',
    async run(ctx, rec, ev) {
      const p = payloadFor('task.failed');
      const first = deliveryOf('task.failed', serialise(p), opts(ctx));
      rec.info('attempt 1 answered', answerOf(await send(ctx, ev, first)));
      const retry = deliveryOf(
        'task.failed',
        serialise(retryOf(p, 2)),
        opts(ctx, { deliveryId: first.deliveryId }),
      );
      expectAck(rec, 'answer to attempt 2', await send(ctx, ev, retry));
    },
  },
];

/** The configuration's headers and the 6.2 headers of a delivery, without its signature. */
function withoutSignature(headers: Record<string, string>): Record<string, string> {
  const { 'x-webhook-signature': _dropped, ...rest } = headers;
  return rest;
}
