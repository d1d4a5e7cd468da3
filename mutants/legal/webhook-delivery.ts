// When, how often and how an agent delivers a webhook (spec 6.5: no delivery latency is set, "Duplicate
// deliveries are possible"; C-20, C-58): an outbox that sends each event a few seconds after its
// transition, one that sends every attempt twice under the same X-Webhook-Delivery, one whose parallel
// workers let a task's later events arrive before its first, and a relay that gzips every delivery.
// They prove the freedoms `webhook.delivery-latency`, `webhook.duplicate-delivery`,
// `webhook.delivery-order` and `webhook.content-coding`.
import { request } from 'node:http';
import { gzipSync } from 'node:zlib';
import { legal } from '../legal-kit.ts';
import type { LegalVariant } from '../types.ts';
import { deliveryOf, isObject, resign, type RelayAttempt } from '../webhook-relay.ts';

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

/** One POST of an attempt to its receiver: whether it was acknowledged (2xx) within `timeoutMs`. */
function post(a: RelayAttempt, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    let done = false;
    const settle = (ok: boolean): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      out.destroy();
      resolve(ok);
    };
    const out = request(a.route.target, {
      method: 'POST',
      headers: { ...a.headers, 'content-length': String(a.body.length) },
      agent: false,
    });
    // C-20: no answer within 5 s, a connection error, a 3xx (never followed) or any other non-2xx fails it.
    const timer = setTimeout(() => settle(false), timeoutMs);
    timer.unref();
    out.on('response', (r) => {
      const ok = (r.statusCode ?? 0) >= 200 && (r.statusCode ?? 0) < 300;
      r.resume();
      r.on('end', () => settle(ok));
      r.on('error', () => settle(false));
    });
    out.on('error', () => settle(false));
    out.end(a.body);
  });
}

const pause = (ms: number): Promise<void> =>
  new Promise((resolve) => {
    setTimeout(resolve, ms).unref();
  });

/**
 * An outbox whose delivery workers run in parallel: the agent hands each event over as it happens (in
 * transition order), and the first attempts then overtake each other on their way to the receiver:
 * the first event of a task to a configuration takes 0.4-0.9 s, later ones 0-0.15 s, so a short task's
 * task.completed arrives before its task.submitted. Failed attempts are retried per the
 * configuration's retryPolicy (C-20: delay initialDelay * backoffMultiplier^(n-1) after attempt n
 * failed, a 5 s answer timeout, the same X-Webhook-Delivery, the body signed afresh). The relay stands
 * for the outbox: it takes each attempt from the reference server at once and delivers it itself.
 */
function parallelWorkers(): LegalVariant {
  /** Tasks (by configuration target) whose first event was handed over. */
  const seen = new Set<string>();
  async function deliver(a: RelayAttempt): Promise<void> {
    const taskId = isObject(a.json) && typeof a.json.taskId === 'string' ? a.json.taskId : '';
    const first = !seen.has(`${a.route.target} ${taskId}`);
    seen.add(`${a.route.target} ${taskId}`);
    await pause(first ? between(400, 900) : between(0, 150));
    const { maxRetries, backoffMultiplier, initialDelay } = a.route.retryPolicy;
    for (let attempt = 1; ; attempt += 1) {
      if (attempt > 1 && isObject(a.json) && isObject(a.json.delivery)) {
        a.json.delivery.attempt = attempt;
        a.body = Buffer.from(JSON.stringify(a.json));
        resign(a);
      }
      if (await post(a, SENDER_TIMEOUT_MS)) return;
      if (attempt >= maxRetries + 1) return;
      await pause(initialDelay * backoffMultiplier ** (attempt - 1) * 1000);
    }
  }
  return legal({
    name: 'webhook-delivery-out-of-order',
    varies: ['webhook.delivery-order'],
    description:
      "a task's events arrive out of transition order: its first event takes 0.4-0.9 s to arrive, later ones 0-0.15 s (parallel delivery workers), each retried per its retryPolicy (proves the freedom webhook.delivery-order)",
    allowedBy:
      'spec 6.1, 6.5 (no arrival order is set; failed deliveries are retried, so a retried event comes after later ones); C-20 (only the start of first attempts is ordered)',
    relay: {
      rewrite(a) {
        void deliver(a);
        return 'drop';
      },
    },
  });
}

const variants: LegalVariant[] = [
  outbox(),
  parallelWorkers(),
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
  legal({
    name: 'webhook-delivery-gzip',
    varies: ['webhook.content-coding'],
    description:
      'every delivery attempt is gzip-encoded on its way (Content-Encoding: gzip), its signature left as the agent made it, over the payload text (an egress relay that compresses what it sends; proves the freedom webhook.content-coding)',
    allowedBy:
      'C-58 (a coding the receiver accepts; the capture receiver documents gzip, deflate and br and says so in Accept-Encoding), spec 6.4 (the signature is over the payload text), RFC 9110 8.4, 12.5.3',
    relay: {
      rewrite(a) {
        a.body = gzipSync(a.body);
        a.headers['content-encoding'] = 'gzip';
      },
    },
  }),
];

export default variants;
