// Mutants of webhook delivery and retries (spec 2.11 retryPolicy, 6.5; ruling C-20): the relay
// changes what the server's retry logic sees or what reaches the receiver, one rule at a time.
import type { Variant } from '../types.ts';
import { deliveryOf, isObject, setPayload, webhookMutant } from '../webhook-relay.ts';

const SET = 'tasks/pushNotificationConfig/set';

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
    // A copy of the last attempt (same attempt number) would be a duplicate, which spec 6.5 allows:
    // the surplus attempt is numbered as the sender's loop would number it.
    description:
      'after the last allowed attempt fails, the event is sent once more (attempt maxAttempts + 1)',
    relay: {
      after(a, status, relay) {
        const { attempt, maxAttempts } = deliveryOf(a);
        if (status < 300 || attempt === undefined || attempt !== maxAttempts || a.json === undefined) return;
        const extra = { ...a, headers: { ...a.headers } };
        const delivery = isObject(a.json.delivery) ? a.json.delivery : {};
        setPayload(extra, { ...a.json, delivery: { ...delivery, attempt: attempt + 1 } });
        relay.resend(extra, 300);
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
  webhookMutant({
    breaks: '6.5/retry-backoff',
    slug: 'retries-late',
    description: 'every retry starts 1.5 s after its scheduled time (initialDelay * backoffMultiplier^(n-1))',
    relay: {
      holdMs: (a) => ((deliveryOf(a).attempt ?? 1) > 1 ? 1500 : 0),
    },
  }),
  webhookMutant({
    breaks: '6.5/2xx-acknowledges',
    slug: 'only-200-acknowledges',
    description: 'only HTTP 200 counts as an acknowledgement: a 202 (or any other 2xx) is retried',
    relay: {
      answer: (_a, status) => (status >= 200 && status < 300 && status !== 200 ? 500 : status),
    },
  }),
  webhookMutant({
    breaks: '6.5/receiver-timeout-5s',
    slug: 'waits-longer',
    description: 'the sender waits for an answer far longer than 5 s, so a slow receiver is never retried',
    // The server gives up at 5 s; the relay acknowledges it before that while still waiting on the
    // receiver, which from the receiver's side is a sender that never times out.
    relay: { ackAfterMs: 4_500 },
  }),
  webhookMutant({
    breaks: '2.11/max-retries-default',
    slug: 'default-one-retry',
    description: 'a configuration without retryPolicy.maxRetries gets 1 retry instead of 3',
    hooks: {
      request(call) {
        const config = call.params?.config;
        if (call.method !== SET || !isObject(config)) return undefined;
        const policy = isObject(config.retryPolicy) ? config.retryPolicy : {};
        if (policy.maxRetries !== undefined) return undefined;
        config.retryPolicy = { ...policy, maxRetries: 1 };
        return call.json;
      },
    },
  }),
];

/** Caught too; left out of the detection test to keep it within its time budget (`npm run mutants -- --extended`). */
const EXTENDED = new Set([
  '6-5-retry-backoff--retries-late',
  '6-5-2xx-acknowledges--only-200-acknowledges',
  '6-5-receiver-timeout-5s--waits-longer',
  '2-11-max-retries-default--default-one-retry',
]);

export const extended = variants.filter((v) => EXTENDED.has(v.name));
export default variants.filter((v) => !EXTENDED.has(v.name));
