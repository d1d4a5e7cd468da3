// Mutants of webhook delivery and retries (spec 2.11 retryPolicy, 6.5; ruling C-20): the relay
// changes what the server's retry logic sees or what reaches the receiver, one rule at a time.
import type { Variant } from '../types.ts';
import { deliveryOf, webhookMutant } from '../webhook-relay.ts';

const variants: Variant[] = [
  webhookMutant({
    breaks: '6.5/failed-attempt-retried',
    slug: 'never-retried',
    description: 'a failed attempt (500, 302, connection reset) is never retried: only attempt 1 goes out',
    relay: {
      rewrite: (a) => ((deliveryOf(a).attempt ?? 1) > 1 ? 'drop' : undefined),
    },
  }),
  webhookMutant({
    breaks: '6.5/retry-count',
    slug: 'one-retry-too-many',
    description: 'after the last allowed attempt fails, the event is sent once more',
    relay: {
      after(a, status, relay) {
        const { attempt, maxAttempts } = deliveryOf(a);
        if (status >= 300 && attempt !== undefined && attempt === maxAttempts) relay.resend(a, 300);
      },
    },
  }),
  webhookMutant({
    breaks: '6.5/retry-backoff',
    slug: 'exponent-off-by-one',
    description:
      'retry n waits initialDelay * backoffMultiplier^n instead of ^(n-1): the first retry already waits initialDelay * multiplier',
    relay: {
      // The server waited initialDelay * m^(n-1); holding the attempt m^(n-1) * (m - 1) more makes m^n.
      holdMs(a) {
        const retry = (deliveryOf(a).attempt ?? 1) - 1;
        const { initialDelay, backoffMultiplier: m } = a.route.retryPolicy;
        return retry < 1 ? 0 : initialDelay * 1000 * m ** (retry - 1) * (m - 1);
      },
    },
  }),
];

export default variants;
