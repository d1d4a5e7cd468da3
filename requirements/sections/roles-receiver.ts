// Ledger, role `receiver`: what a webhook receiver must do with the deliveries of spec 6.1 to 6.5
// and 8 (acknowledge, verify the signature over the exact bytes, tolerate duplicates and retries).
// Certified by `a2a-conformance receiver`. Data only (shape: requirements/types.ts).
import type { Requirement } from '../types.ts';

export const RECEIVER_REQUIREMENTS: readonly Requirement[] = [
  {
    id: '6.1/receiver-accepts-unknown-fields',
    section: '6.1',
    role: 'receiver',
    level: 'MUST',
    behaviour:
      'A correctly signed delivery whose payload and data carry fields the spec does not list is acknowledged with 2xx.',
    source: { line: 277, quote: '| Event | Sent when | Data includes |' },
    rulings: ['C-73'],
  },
  {
    id: '6.4/receiver-verifies-exact-bytes',
    section: '6.4',
    role: 'receiver',
    level: 'MUST',
    behaviour:
      'A delivery signed over bytes with unusual but valid JSON formatting, member order and non-ASCII text is acknowledged, because the receiver recomputes the HMAC over the bytes received.',
    source: { line: 315, quote: 'The receiver recomputes and compares.' },
    rulings: ['C-20', 'C-73'],
  },
  {
    id: '6.4/receiver-rejects-tampered-body',
    section: '6.4',
    role: 'receiver',
    level: 'MUST',
    behaviour:
      'A delivery whose body was changed after signing (the signature of the original body kept) is not acknowledged.',
    source: { line: 315, quote: 'The receiver recomputes and compares.' },
    rulings: ['C-70'],
  },
  {
    id: '6.4/receiver-rejects-wrong-secret',
    section: '6.4',
    role: 'receiver',
    level: 'MUST',
    behaviour: 'A delivery signed with another secret than the receiver’s is not acknowledged.',
    source: { line: 315, quote: 'The receiver recomputes and compares.' },
    rulings: ['C-70'],
  },
  {
    id: '6.4/receiver-rejects-malformed-signature',
    section: '6.4',
    role: 'receiver',
    level: 'MUST',
    behaviour:
      'A delivery whose `X-Webhook-Signature` is not `sha256=` and 64 hex digits (no prefix, another algorithm, bad hex) is not acknowledged.',
    source: { line: 314, quote: 'It is hex encoded and prefixed with `sha256=`.' },
    rulings: ['C-70'],
  },
  {
    id: '6.4/receiver-rejects-missing-signature',
    section: '6.4',
    role: 'receiver',
    level: 'MUST',
    behaviour: 'A receiver that has a secret does not acknowledge a delivery without `X-Webhook-Signature`.',
    source: { line: 293, quote: '`sha256=<hex HMAC>`; sent when a secret is configured' },
    rulings: ['C-70'],
  },
  {
    id: '6.5/receiver-acknowledges-events',
    section: '6.5',
    role: 'receiver',
    level: 'MUST',
    behaviour:
      'A correctly shaped and signed delivery of each of the five task events is acknowledged with a 2xx status.',
    source: { line: 319, quote: 'Receivers answer with a 2xx status to acknowledge.' },
    rulings: ['C-72'],
  },
  {
    id: '6.5/receiver-answers-within-5s',
    section: '6.5',
    role: 'receiver',
    level: 'SHOULD',
    behaviour: 'Every genuine delivery (not a forgery) is answered within 5 seconds of being sent.',
    source: { line: 320, quote: 'Receivers should answer within 5 seconds to avoid retries.' },
    rulings: ['C-72'],
  },
  {
    id: '6.5/receiver-acknowledges-duplicate',
    section: '6.5',
    role: 'receiver',
    level: 'MUST',
    behaviour:
      'A delivery repeated with the same `X-Webhook-Delivery` and the same bytes is acknowledged with 2xx, not answered as an error.',
    source: { line: 321, quote: 'Duplicate deliveries are possible.' },
    rulings: ['C-71'],
  },
  {
    id: '6.5/receiver-acknowledges-retry',
    section: '6.5',
    role: 'receiver',
    level: 'MUST',
    behaviour:
      'A retry (same `X-Webhook-Delivery`, `delivery.attempt` 2, a new body and a new signature) is acknowledged with 2xx.',
    source: {
      line: 321,
      quote: 'Failed deliveries are retried per retryPolicy (section 2.11).',
    },
    rulings: ['C-71'],
  },
  {
    id: '8/receiver-response-time',
    section: '8',
    role: 'receiver',
    level: 'INFO',
    behaviour: 'The receiver’s response times (median, 95th percentile, maximum) are reported.',
    source: { line: 361, quote: '| Webhook response time | under 5 seconds | webhook receivers |' },
    rulings: ['C-72'],
  },
];
