// Webhook delivery (spec 6.1-6.5, C-20): signed deliveries per second from the reference server to a
// receiver in another process, and the accuracy of retry timing while that load runs: attempts to a
// failing URL are timed at the receiver and compared with initialDelay * backoffMultiplier^(n-1).
import { directive, postJson, rpcBody, serviceBody } from '../lib/bodies.ts';
import { startChild } from '../lib/child.ts';
import { runLoad } from '../lib/load.ts';
import type { BenchSettings } from '../lib/settings.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import { ascending, percentile, round } from '../lib/stats.ts';
import { agentUrl, profileFlags, startReference } from '../lib/targets.ts';

const SECRET = 'bench-webhook-secret';
/** Tasks sent through message/send; each yields 3 deliveries (submitted, working, completed). */
export const DELIVERY_TASKS = 2000;
const EVENTS_PER_TASK = 3;
export const RETRY_POLICY = Object.freeze({ maxRetries: 3, initialDelay: 0.2, backoffMultiplier: 2 });
/** Tasks whose single completed event is delivered to the failing URL. */
const RETRY_TASKS = 20;

export interface WebhookResult {
  tasks: number;
  signedDeliveries: number;
  badSignatures: number;
  deliveriesPerSecond: number;
  retries: number;
  /** measured - scheduled delay of each retry (ms). */
  retryErrorP50Ms: number;
  retryErrorP99Ms: number;
  retryErrorMaxMs: number;
  retryErrorMinMs: number;
}

interface ReceiverStats {
  signed: number;
  badSignature: number;
  firstMs: number;
  lastMs: number;
  attempts: number[][];
}

export async function benchWebhooks(
  settings: BenchSettings,
  log: (line: string) => void,
): Promise<WebhookResult> {
  // Two receivers, so the retried attempts have their own origin: otherwise they wait behind the
  // flood in the sender's per-origin connection pool and the figure measures that queue, not the timer.
  const receiver = await startChild<{ url: string }>('receiver', { args: [SECRET] });
  const failing = await startChild<{ url: string }>('receiver', { args: [SECRET] });
  const server = await startReference('webhooks', profileFlags(settings.cpuProf, 'reference-webhooks'));
  try {
    const headers = { 'x-api-key': server.info.apiKey };
    const bench = agentUrl(server.info, 'bench');
    const retry = agentUrl(server.info, 'retry');
    const set = (url: string, config: object): Promise<unknown> =>
      postJson(url, headers, rpcBody('tasks/pushNotificationConfig/set', { config }));
    await set(bench, { url: `${receiver.info.url}/ok/bench`, secret: SECRET });
    await set(retry, {
      url: `${failing.info.url}/fail/retry`,
      secret: SECRET,
      events: ['task.completed'],
      retryPolicy: RETRY_POLICY,
    });
    // The retry tasks run while the delivery load runs, spread over its first second.
    const retries = (async () => {
      for (let i = 0; i < RETRY_TASKS; i += 1) {
        await postJson(retry, headers, serviceBody('message/send', [directive({ delayMs: 0 })]));
        await sleep(50);
      }
    })();
    const load = await runLoad({
      url: bench,
      headers,
      body: serviceBody(),
      connections: settings.connections,
      amount: DELIVERY_TASKS,
    });
    await retries;
    const expected = load.ok * EVENTS_PER_TASK;
    const stats = await waitForDeliveries(receiver.ask.bind(receiver), failing.ask.bind(failing), expected);
    const errors = stats.attempts.flatMap((times) =>
      times
        .slice(1)
        .map(
          (at, i) =>
            at -
            (times[i] as number) -
            RETRY_POLICY.initialDelay * RETRY_POLICY.backoffMultiplier ** i * 1000,
        ),
    );
    const sorted = ascending(errors);
    const spanS = (stats.lastMs - stats.firstMs) / 1000;
    const result: WebhookResult = {
      tasks: load.ok,
      signedDeliveries: stats.signed,
      badSignatures: stats.badSignature,
      deliveriesPerSecond: Math.round(stats.signed / spanS),
      retries: errors.length,
      retryErrorP50Ms: round(percentile(sorted, 50)),
      retryErrorP99Ms: round(percentile(sorted, 99)),
      retryErrorMaxMs: round(sorted[sorted.length - 1] ?? Number.NaN),
      retryErrorMinMs: round(sorted[0] ?? Number.NaN),
    };
    log(
      `  webhooks: ${result.deliveriesPerSecond} signed deliveries/s, retry error p99 ${result.retryErrorP99Ms} ms`,
    );
    return result;
  } finally {
    await Promise.all([server.stop(), receiver.stop(), failing.stop()]);
  }
}

/** Polls the receiver until every expected delivery and every retry arrived (or 30 s passed). */
type Ask = <T>(message: Record<string, unknown>) => Promise<T>;

async function waitForDeliveries(ask: Ask, askFailing: Ask, expected: number): Promise<ReceiverStats> {
  const retryChain = RETRY_POLICY.initialDelay * (2 ** RETRY_POLICY.maxRetries - 1) * 1000;
  const deadline = performance.now() + 30_000 + retryChain;
  for (;;) {
    const stats = await ask<ReceiverStats>({ type: 'stats' });
    stats.attempts = (await askFailing<ReceiverStats>({ type: 'stats' })).attempts;
    const retriesDone =
      stats.attempts.length >= RETRY_TASKS &&
      stats.attempts.every((a) => a.length === RETRY_POLICY.maxRetries + 1);
    if ((stats.signed + stats.badSignature >= expected && retriesDone) || performance.now() > deadline)
      return stats;
    await sleep(100);
  }
}
