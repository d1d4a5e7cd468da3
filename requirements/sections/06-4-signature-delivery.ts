// Ledger, sections 6.4 (signature), 6.5 (delivery and retries) and 6.6 (streaming events).
// Data only (shape: requirements/types.ts).
import type { Requirement } from '../types.ts';

export const SECTION_6_4_TO_6_6: readonly Requirement[] = [
  {
    id: '6.4/signature-hmac-sha256-hex',
    section: '6.4',
    level: 'MUST',
    behaviour:
      'The signature is the hex HMAC-SHA256, keyed with the secret, of the exact body bytes sent in that attempt.',
    source: {
      line: 313,
      quote:
        'With a secret set, the signature is HMAC-SHA256 of the payload text, UTF-8, keyed with the secret.',
    },
    rulings: ['C-20'],
    capabilities: ['webhooks'],
  },
  {
    id: '6.4/signature-sha256-prefix',
    section: '6.4',
    level: 'MUST',
    behaviour: '`X-Webhook-Signature` is `sha256=` followed by 64 hex digits.',
    source: { line: 314, quote: 'It is hex encoded and prefixed with `sha256=`.' },
    rulings: ['C-20'],
    capabilities: ['webhooks'],
  },
  {
    id: '6.4/signature-verifiable',
    section: '6.4',
    level: 'INFO',
    behaviour: 'A receiver verifies a delivery by recomputing the HMAC over the received body and comparing.',
    source: { line: 315, quote: 'The receiver recomputes and compares.' },
    capabilities: ['webhooks'],
  },
  {
    id: '6.5/2xx-acknowledges',
    section: '6.5',
    level: 'MUST',
    behaviour: 'A delivery answered with any 2xx status is not retried.',
    source: { line: 319, quote: 'Receivers answer with a 2xx status to acknowledge.' },
    capabilities: ['webhooks'],
  },
  {
    id: '6.5/receiver-timeout-5s',
    section: '6.5',
    level: 'SHOULD',
    behaviour: 'An attempt that gets no answer within 5 seconds counts as failed and is retried.',
    source: { line: 320, quote: 'Receivers should answer within 5 seconds to avoid retries.' },
    rulings: ['C-20'],
    capabilities: ['webhooks'],
  },
  {
    id: '6.5/failed-attempt-retried',
    section: '6.5',
    level: 'SHOULD',
    behaviour:
      'An attempt answered with a non-2xx status, a redirect included, or ended by a connection error counts as failed and is retried.',
    source: { line: 321, quote: 'Failed deliveries are retried per retryPolicy (section 2.11).' },
    rulings: ['C-20'],
    capabilities: ['webhooks'],
  },
  {
    id: '6.5/retry-count',
    section: '6.5',
    level: 'SHOULD',
    behaviour:
      'A delivery that keeps failing is retried exactly retryPolicy.maxRetries times and then dropped.',
    source: { line: 321, quote: 'retried per retryPolicy' },
    rulings: ['C-20'],
    capabilities: ['webhooks'],
  },
  {
    id: '6.5/retry-backoff',
    section: '6.5',
    level: 'SHOULD',
    behaviour:
      'Retry n starts initialDelay times backoffMultiplier to the power n-1 seconds after the failed attempt, within 50 ms early and 1 s late.',
    source: { line: 321, quote: 'Failed deliveries are retried' },
    rulings: ['C-20'],
    capabilities: ['webhooks'],
  },
  {
    id: '6.5/delivery-id-stable',
    section: '6.5',
    level: 'MUST',
    behaviour: 'Every attempt of one event to one configuration carries the same `X-Webhook-Delivery` id.',
    source: { line: 321, quote: 'Duplicate deliveries are possible.' },
    rulings: ['C-20'],
    capabilities: ['webhooks'],
  },
  {
    id: '6.6/stream-events-as-4-2',
    section: '6.6',
    level: 'MUST',
    behaviour: 'The SSE events of tasks/resubscribe follow the message/stream rules of section 4.2.',
    source: { line: 325, quote: 'SSE events of message/stream and tasks/resubscribe: section 4.2.' },
    rulings: ['C-31'],
    capabilities: ['streaming'],
  },
  {
    id: '6.6/stream-event-id',
    section: '6.6',
    level: 'MUST',
    behaviour: 'Every SSE event of message/stream and tasks/resubscribe carries the request id.',
    source: { line: 325, quote: 'SSE events of message/stream and tasks/resubscribe' },
    rulings: ['C-31', 'C-13'],
    capabilities: ['streaming'],
  },
];
