// When and how often an agent delivers a webhook (spec 6.5: no delivery latency is set, "Duplicate
// deliveries are possible"; C-20): an outbox that sends each event a few seconds after its transition,
// and one that sends every attempt twice under the same X-Webhook-Delivery. They prove the freedoms
// `webhook.delivery-latency` and `webhook.duplicate-delivery`.
import { legal } from '../legal-kit.ts';
import type { LegalVariant } from '../types.ts';
import { deliveryOf, type RelayAttempt } from '../webhook-relay.ts';

/** The spec 6.5 receiver timeout: an attempt unanswered this long is failed. */
const SENDER_TIMEOUT_MS = 5_000;

const between = (lo: number, hi: number): number => lo + Math.random() * (hi - lo);

function idOf(a: RelayAttempt): string {
  return a.headers['x-webhook-delivery'] ?? '';
}

/**
 * An outbox: each event waits 2-3 s in a queue before its first attempt (the agent's delivery worker
 * picks it up), and the agent's retries then keep their schedule from the end of the attempt before,
 * as the receiver saw it. The reference server's clock starts when it hands the attempt to the
 * relay, so the relay keeps its 5 s timeout running from the forward instead, and holds a retry until
 * its scheduled time after the attempt the receiver saw end.
 */
function outbox(): LegalVariant {
  /** When each attempt (delivery id and attempt number) reached the receiver, and when it ended there. */
  const forwardedAt = new Map<string, number>();
  const endedAt = new Map<string, number>();
  const key = (a: RelayAttempt, attempt: number): string => `${idOf(a)}#${attempt}`;
  return legal({
    name: 'webhook-delivery-late',
    varies: ['webhook.delivery-latency'],
    description:
      'each event is delivered 2-3 s after its transition (an outbox queue with jitter); retries keep their schedule (proves the freedom webhook.delivery-latency)',
    allowedBy:
      'spec 6.5 (a delivery, its retries and their schedule; no time between a transition and its first attempt)',
    relay: {
      senderTimeoutMs: SENDER_TIMEOUT_MS,
      // A port per route (a full run sets fewer than 256 configurations): the held attempts of a busy
      // configuration must not take the reference server's connections to another (an outbox holds
      // an event before it connects). With 64, a retry check sharing the agent-level configuration's
      // port saw its retries queue (2 retry warnings in a full run).
      origins: 256,
      holdMs(a) {
        const attempt = deliveryOf(a).attempt ?? 1;
        let hold = between(2_000, 3_000);
        if (attempt > 1) {
          // The attempt before ended at the receiver, or ends there at the latest when the relay's
          // sender timeout (running from its forward) gives it up.
          const before = key(a, attempt - 1);
          const forwarded = forwardedAt.get(before);
          const ended =
            endedAt.get(before) ?? (forwarded === undefined ? undefined : forwarded + SENDER_TIMEOUT_MS);
          const { initialDelay, backoffMultiplier } = a.route.retryPolicy;
          const scheduled = initialDelay * backoffMultiplier ** (attempt - 2) * 1000;
          hold = ended === undefined ? 0 : Math.max(0, ended + scheduled - Date.now());
        }
        forwardedAt.set(key(a, attempt), Date.now() + hold);
        return hold;
      },
      ended(a, atMs) {
        endedAt.set(key(a, deliveryOf(a).attempt ?? 1), atMs);
      },
    },
  });
}

const variants: LegalVariant[] = [
  outbox(),
  legal({
    name: 'webhook-delivery-twice',
    varies: ['webhook.duplicate-delivery'],
    description:
      'every attempt is sent again 0.2-0.6 s after it was answered, same X-Webhook-Delivery, body and signature (proves the freedom webhook.duplicate-delivery)',
    allowedBy:
      'spec 6.5 ("Duplicate deliveries are possible"), 6.2 (X-Webhook-Delivery: use for idempotency)',
    relay: {
      after(a, _status, relay) {
        relay.resend(a, between(200, 600));
      },
    },
  }),
];

export default variants;
