// Webhook attempts waiting for a connection (spec 6.5; C-20): at most 16 attempts are in flight per
// receiver origin and the 5 s limit (here shortened) starts when an attempt gets its connection, so
// a burst larger than the connection cap is delivered in waves instead of failing unsent.
import { afterEach, describe, expect, it } from 'vitest';
import { CONNECTIONS_PER_ORIGIN } from '../../reference-server/webhooks/attempt.ts';
import { createWebhookService, type WebhookService } from '../../reference-server/webhooks/index.ts';
import { startCaptureReceiver, type CaptureReceiver } from '../reference-server/webhooks/capture-receiver.ts';

let receiver: CaptureReceiver | undefined;
let service: WebhookService | undefined;
afterEach(async () => {
  await service?.close();
  await receiver?.close();
});

async function settled(): Promise<void> {
  for (let i = 0; i < 400; i++) {
    const log = service?.deliveryLog() ?? [];
    if (log.length > 0 && log.every((record) => record.status !== 'pending')) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('C-20 attempts queued for a connection', () => {
  it('delivers a burst of 16x the connection cap to a slow receiver, the wait not counted in the limit', async () => {
    receiver = await startCaptureReceiver();
    let inFlight = 0;
    let peak = 0;
    receiver.plan = () => {
      inFlight += 1;
      peak = Math.max(peak, inFlight);
      setTimeout(() => (inFlight -= 1), 200);
      return { kind: 'status', status: 200, delayMs: 200 };
    };
    // Sixteen waves of 200 ms: the last attempts wait about 3 s for a connection, twice the limit,
    // while each attempt itself takes 200 ms of its 1500.
    service = createWebhookService({ userAgent: 'ua', allowPrivateTargets: true, attemptTimeoutMs: 1500 });
    const url = `${receiver.origin}/hook`;
    const set = await service.setConfig('a', { config: { url, retryPolicy: { maxRetries: 0 } } }, () => true);
    expect(set.ok).toBe(true);
    const burst = CONNECTIONS_PER_ORIGIN * 16;
    const now = new Date().toISOString();
    for (let i = 0; i < burst; i++) {
      const task = {
        id: `t${i}`,
        contextId: 'c',
        status: { state: 'submitted' as const },
        createdAt: now,
        updatedAt: now,
      };
      service.emit('a', task, 'task.submitted');
    }
    await settled();
    const log = service.deliveryLog();
    expect(log).toHaveLength(burst);
    expect(
      log.filter((record) => record.status !== 'delivered').map((record) => record.attempts[0]?.error),
    ).toEqual([]);
    expect(receiver.requests).toHaveLength(burst);
    expect(peak).toBeLessThanOrEqual(CONNECTIONS_PER_ORIGIN);
  }, 30_000);
});
