// Webhook retries and failure modes (spec 6.5, 2.11 retryPolicy; rulings C-19, C-20): retry count,
// backoff timing, constant delivery id, timeouts, resets, redirects not followed, SSRF refusal at
// delivery, cancellation on replace and close, and the bounds on the log and on pending deliveries.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { createWebhookService, type WebhookService } from '../../../reference-server/webhooks/index.ts';
import type { TaskSnapshot } from '../../../reference-server/webhooks/types.ts';
import { failFirst, startCaptureReceiver, type CaptureReceiver } from './capture-receiver.ts';

let receiver: CaptureReceiver;
let service: WebhookService;
afterEach(async () => {
  await service?.close();
  await receiver?.close();
});

async function setup(
  opts: { allowPrivateTargets?: boolean; attemptTimeoutMs?: number; log?: number; pending?: number } = {},
) {
  receiver = await startCaptureReceiver();
  service = createWebhookService({
    userAgent: 'A2A-Reference-Webhook/test',
    allowPrivateTargets: opts.allowPrivateTargets ?? true,
    attemptTimeoutMs: opts.attemptTimeoutMs ?? 1000,
    deliveryLogSize: opts.log,
    maxPendingDeliveries: opts.pending,
  });
}
const set = async (config: Record<string, unknown>) => {
  const outcome = await service.setConfig(
    'agent-1',
    { config: { url: `${receiver.origin}/hook`, ...config } },
    () => true,
  );
  if (!outcome.ok) throw new Error(JSON.stringify(outcome.error));
  return outcome.result;
};
const task = (id: string): TaskSnapshot => ({
  id,
  contextId: 'ctx',
  status: { state: 'submitted' },
  createdAt: new Date().toISOString(),
  updatedAt: new Date().toISOString(),
});
const emit = (taskId = 't1') => service.emit('agent-1', task(taskId), 'task.submitted');
const lastRecord = () => service.deliveryLog().at(-1)!;
const fast = (maxRetries: number, initialDelay = 0.05) => ({
  retryPolicy: { maxRetries, initialDelay, backoffMultiplier: 2 },
});

describe('C-20 retries and backoff', () => {
  it('retries maxRetries times with delays initialDelay * multiplier^(n-1), one delivery id', async () => {
    await setup();
    receiver.plan = () => ({ kind: 'status', status: 500 });
    await set({ secret: 's', ...fast(3) });
    emit();
    const requests = await receiver.waitForRequests(4);
    await sleep(400); // a fifth request would arrive by now (next delay would be 400 ms)
    expect(receiver.requests).toHaveLength(4);
    expect(new Set(requests.map((r) => r.headers['x-webhook-delivery'])).size).toBe(1);
    expect(requests.map((r) => r.json().delivery)).toEqual(
      [1, 2, 3, 4].map((attempt) => ({ attempt, maxAttempts: 4 })),
    );
    const scheduled = [50, 100, 200];
    for (const [i, delay] of scheduled.entries()) {
      const measured = requests[i + 1]!.receivedAt - requests[i]!.respondedAt!;
      expect(measured).toBeGreaterThanOrEqual(delay - 5);
      expect(measured).toBeLessThanOrEqual(delay + 250);
    }
    const record = lastRecord();
    expect(record.status).toBe('failed');
    expect(record.attempts.map((a) => [a.statusCode, a.scheduledDelayMs])).toEqual([
      [500, undefined],
      [500, 50],
      [500, 100],
      [500, 200],
    ]);
    for (const a of record.attempts.slice(1))
      expect(a.actualDelayMs).toBeGreaterThanOrEqual(a.scheduledDelayMs! - 1);
  });

  it('stops at the first 2xx (answer 2xx after two failures)', async () => {
    await setup();
    receiver.plan = failFirst(2, 503);
    await set(fast(5));
    emit();
    await receiver.waitForRequests(3);
    await sleep(300);
    expect(receiver.requests).toHaveLength(3);
    expect(lastRecord()).toMatchObject({ status: 'delivered', maxAttempts: 6 });
  });

  it('maxRetries 0 means exactly one attempt', async () => {
    await setup();
    receiver.plan = () => ({ kind: 'status', status: 500 });
    await set(fast(0));
    emit();
    await receiver.waitForRequests(1);
    await sleep(200);
    expect(receiver.requests).toHaveLength(1);
    expect(receiver.requests[0]!.json().delivery).toEqual({ attempt: 1, maxAttempts: 1 });
  });
});

describe('C-20 failed attempts', () => {
  it('no response within attemptTimeoutMs is a failed attempt, then retried', async () => {
    await setup({ attemptTimeoutMs: 150 });
    receiver.plan = (r) => (r.index === 0 ? { kind: 'hang' } : { kind: 'status', status: 204 });
    await set(fast(1));
    emit();
    await receiver.waitForRequests(2);
    await sleep(50);
    const [first, second] = lastRecord().attempts;
    expect(first!.error).toMatch(/no response within 150 ms/);
    expect(first!.durationMs).toBeGreaterThanOrEqual(140);
    expect(first!.durationMs).toBeLessThan(600);
    expect(second).toMatchObject({ attempt: 2, statusCode: 204 });
    expect(lastRecord().status).toBe('delivered');
  });

  it('a connection reset is a failed attempt, then retried', async () => {
    await setup();
    receiver.plan = (r) => (r.index === 0 ? { kind: 'reset' } : { kind: 'status', status: 200 });
    await set(fast(1));
    emit();
    await receiver.waitForRequests(2);
    await sleep(50);
    expect(lastRecord().attempts[0]!.error).toBeTruthy();
    expect(lastRecord().status).toBe('delivered');
  });

  it('a redirect is never followed and counts as a failed attempt', async () => {
    await setup();
    receiver.plan = (r) =>
      r.path === '/hook'
        ? { kind: 'status', status: 302, location: '/elsewhere' }
        : { kind: 'status', status: 200 };
    await set(fast(1));
    emit();
    await receiver.waitForRequests(2);
    await sleep(150);
    expect(receiver.requests.map((r) => r.path)).toEqual(['/hook', '/hook']);
    expect(lastRecord()).toMatchObject({
      status: 'failed',
      attempts: [{ statusCode: 302 }, { statusCode: 302 }],
    });
    expect(lastRecord().attempts[0]!.error).toMatch(/redirect not followed/);
  });

  it('a refused connection is a failed attempt with the error recorded', async () => {
    await setup();
    const deadPort = receiver.port;
    await receiver.close();
    const outcome = await service.setConfig(
      'agent-1',
      { config: { url: `http://127.0.0.1:${deadPort}/h`, ...fast(1) } },
      () => true,
    );
    expect(outcome.ok).toBe(true);
    emit();
    await sleep(300);
    expect(lastRecord()).toMatchObject({ status: 'failed', attempts: [{ attempt: 1 }, { attempt: 2 }] });
    expect(lastRecord().attempts[0]!.error).toMatch(/ECONNREFUSED/);
  });
});

describe('C-19 SSRF guard at delivery time', () => {
  it('refuses a name resolving to loopback: one refused attempt, never retried, nothing sent', async () => {
    await setup({ allowPrivateTargets: false });
    const outcome = await service.setConfig(
      'agent-1',
      { config: { url: `http://localhost:${receiver.port}/hook`, ...fast(3) } },
      () => true,
    );
    expect(outcome.ok).toBe(true);
    emit();
    await sleep(400);
    expect(receiver.requests).toHaveLength(0);
    expect(lastRecord()).toMatchObject({ status: 'refused', attempts: [{ attempt: 1 }] });
    expect(lastRecord().attempts[0]!.error).toMatch(/non-public|not public/);
  });

  it('delivers to the same name when private targets are allowed', async () => {
    await setup({ allowPrivateTargets: true });
    await service.setConfig(
      'agent-1',
      { config: { url: `http://localhost:${receiver.port}/hook` } },
      () => true,
    );
    emit();
    await receiver.waitForRequests(1);
  });
});

describe('cancellation and bounds', () => {
  it('replacing a config cancels the pending retries of the old one', async () => {
    await setup();
    receiver.plan = (r) =>
      r.path === '/hook' ? { kind: 'status', status: 500 } : { kind: 'status', status: 200 };
    await set(fast(3, 0.2));
    emit();
    await receiver.waitForRequests(1);
    await set({ url: `${receiver.origin}/new` });
    await sleep(400);
    expect(receiver.requests.map((r) => r.path)).toEqual(['/hook']);
    expect(service.deliveryLog()[0]!.status).toBe('canceled');
  });

  it('close() cancels in-flight attempts and pending retries promptly', async () => {
    await setup({ attemptTimeoutMs: 5000 });
    receiver.plan = () => ({ kind: 'hang' });
    await set(fast(3));
    emit();
    await receiver.waitForRequests(1);
    const started = Date.now();
    await service.close();
    expect(Date.now() - started).toBeLessThan(1000);
    await sleep(200);
    expect(receiver.requests).toHaveLength(1);
    expect(lastRecord().status).toBe('canceled');
  });

  it('keeps only the most recent deliveries in the log', async () => {
    await setup({ log: 3 });
    await set({});
    for (const id of ['t1', 't2', 't3', 't4', 't5']) emit(id);
    await receiver.waitForRequests(5);
    expect(service.deliveryLog().map((r) => r.taskId)).toEqual(['t3', 't4', 't5']);
  });

  it('drops events beyond maxPendingDeliveries instead of queueing without bound', async () => {
    await setup({ pending: 1, attemptTimeoutMs: 5000 });
    receiver.plan = () => ({ kind: 'hang' });
    await set({});
    emit('t1');
    emit('t2');
    await receiver.waitForRequests(1);
    expect(service.deliveryLog().map((r) => [r.taskId, r.status])).toEqual([
      ['t1', 'pending'],
      ['t2', 'dropped'],
    ]);
  });

  it('emit never throws, even for a task that cannot be serialised', async () => {
    await setup();
    await set({});
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    const bad = { ...task('t1'), status: { state: 'completed' as const, message: circular } };
    expect(() => service.emit('agent-1', bad, 'task.completed')).not.toThrow();
  });
});
