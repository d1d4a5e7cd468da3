// Mutants of the webhook signature (spec 6.2, 6.4; ruling C-20): each delivery goes through the relay,
// which spoils X-Webhook-Signature in one way while leaving the rest of the request as sent.
import { createHmac } from 'node:crypto';
import type { Variant } from '../types.ts';
import { deliveryOf, webhookMutant } from '../webhook-relay.ts';

const variants: Variant[] = [
  webhookMutant({
    breaks: '6.4/signature-hmac-sha256-hex',
    slug: 'signed-with-empty-key',
    description: 'X-Webhook-Signature is the HMAC-SHA256 of the body keyed with an empty key, not the secret',
    relay: {
      rewrite(a) {
        if (a.headers['x-webhook-signature'] === undefined) return;
        a.headers['x-webhook-signature'] = 'sha256=' + createHmac('sha256', '').update(a.body).digest('hex');
      },
    },
  }),
  webhookMutant({
    breaks: '6.4/signature-hmac-sha256-hex',
    slug: 'signs-compact-sends-pretty',
    description:
      'the signature is computed over the compact JSON payload, but the body sent is the same payload re-serialised with indentation',
    relay: {
      rewrite(a) {
        if (a.json !== undefined) a.body = Buffer.from(JSON.stringify(a.json, null, 2));
      },
    },
  }),
  webhookMutant({
    breaks: '6.2/signature-header',
    slug: 'never-sent',
    description: 'deliveries to a configuration with a secret carry no X-Webhook-Signature',
    relay: {
      rewrite(a) {
        delete a.headers['x-webhook-signature'];
      },
    },
  }),
  (() => {
    const first = new Map<string, string>();
    return webhookMutant({
      breaks: '6.4/signature-hmac-sha256-hex',
      slug: 'first-attempt-signature-reused',
      description:
        'retries carry the signature of the first attempt, although their body (delivery.attempt) differs',
      relay: {
        rewrite(a) {
          const id = a.headers['x-webhook-delivery'];
          const sig = a.headers['x-webhook-signature'];
          if (id === undefined || sig === undefined) return;
          if ((deliveryOf(a).attempt ?? 1) === 1) first.set(id, sig);
          else if (first.has(id)) a.headers['x-webhook-signature'] = first.get(id)!;
        },
      },
    });
  })(),
  webhookMutant({
    breaks: '6.4/signature-sha256-prefix',
    slug: 'bare-hex',
    description: 'X-Webhook-Signature carries the hex HMAC without the sha256= prefix',
    relay: {
      rewrite(a) {
        const sig = a.headers['x-webhook-signature'];
        if (sig !== undefined) a.headers['x-webhook-signature'] = sig.replace(/^sha256=/, '');
      },
    },
  }),
];

/** Caught too; left out of the detection test to keep it within its time budget (`npm run mutants -- --extended`). */
const EXTENDED = new Set([
  '6-4-signature-sha256-prefix--bare-hex',
  '6-4-signature-hmac-sha256-hex--first-attempt-signature-reused',
]);

export const extended = variants.filter((v) => EXTENDED.has(v.name));
export default variants.filter((v) => !EXTENDED.has(v.name));
