// Webhook delivery on the wire (spec 6.1-6.4; rulings C-17, C-20): headers, signature over the raw
// bytes, payload per event, the events filter, task- versus agent-level scope, lastUsed, ordering.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createWebhookService, type WebhookService } from '../../../reference-server/webhooks/index.ts';
import { eventData } from '../../../reference-server/webhooks/payload.ts';
import { validate } from '../../../schemas/registry.ts';
import { verifySignature } from '../../../reference-server/webhooks/signer.ts';
import type { TaskSnapshot, WebhookEvent } from '../../../reference-server/webhooks/types.ts';
import { startCaptureReceiver, type CaptureReceiver } from './capture-receiver.ts';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const USER_AGENT = 'A2A-Reference-Webhook/9.9.9';

let receiver: CaptureReceiver;
let service: WebhookService;
beforeEach(async () => {
  receiver = await startCaptureReceiver();
  service = createWebhookService({
    userAgent: USER_AGENT,
    allowPrivateTargets: true,
    attemptTimeoutMs: 1000,
  });
});
afterEach(async () => {
  await service.close();
  await receiver.close();
});

const set = async (config: Record<string, unknown>, taskId?: string) => {
  const outcome = await service.setConfig(
    'agent-1',
    { config: { url: `${receiver.origin}/hook`, ...config }, taskId },
    () => true,
  );
  if (!outcome.ok) throw new Error(JSON.stringify(outcome.error));
  return outcome.result;
};

const STATUS: Record<WebhookEvent, TaskSnapshot['status']> = {
  'task.submitted': { state: 'submitted' },
  'task.working': { state: 'working', progress: { current: 1, total: 4, message: 'step 1' } },
  'task.completed': {
    state: 'completed',
    message: { role: 'agent', parts: [{ type: 'text', text: 'héllo' }] },
  },
  'task.failed': { state: 'failed', error: { code: 'agent_error', message: 'boom' } },
  'task.canceled': { state: 'canceled', reason: 'user asked' },
};
const snapshot = (id: string, event: WebhookEvent): TaskSnapshot => ({
  id,
  contextId: `ctx-${id}`,
  status: STATUS[event],
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:02.000Z',
  startedAt: '2025-01-01T00:00:00.500Z',
  finishedAt: '2025-01-01T00:00:02.000Z',
  estimatedDurationMs: 3000,
});
const emit = (taskId: string, event: WebhookEvent) => service.emit('agent-1', snapshot(taskId, event), event);

describe('6.2 headers and 6.4 signature', () => {
  it('sends every header, the configured headers, and a signature over the exact bytes received', async () => {
    await set({ secret: 'top-secret', headers: { Authorization: 'Bearer abc', 'X-Tenant': 't-9' } });
    emit('t1', 'task.completed');
    const [request] = await receiver.waitForRequests(1);
    expect(request!.method).toBe('POST');
    expect(request!.path).toBe('/hook');
    expect(request!.headers).toMatchObject({
      'content-type': 'application/json',
      'x-webhook-event': 'task.completed',
      'x-webhook-delivery': expect.stringMatching(UUID_V4),
      'x-webhook-signature': expect.stringMatching(/^sha256=[0-9a-f]{64}$/),
      'user-agent': USER_AGENT,
      authorization: 'Bearer abc',
      'x-tenant': 't-9',
    });
    expect(validate('webhook-headers', request!.headers)).toEqual({ valid: true });
    expect(
      verifySignature('top-secret', request!.body, request!.headers['x-webhook-signature'] as string),
    ).toBe(true);
    expect(request!.body.toString('utf8')).toContain('héllo'); // raw UTF-8, not \u-escaped
  });

  it('omits X-Webhook-Signature when no secret is configured', async () => {
    await set({});
    emit('t1', 'task.submitted');
    const [request] = await receiver.waitForRequests(1);
    expect(request!.headers['x-webhook-signature']).toBeUndefined();
    expect(request!.headers['x-webhook-event']).toBe('task.submitted');
  });
});

describe('6.1 / 6.3 payload per event', () => {
  const events: WebhookEvent[] = [
    'task.submitted',
    'task.working',
    'task.completed',
    'task.failed',
    'task.canceled',
  ];
  it.each(events)(
    '%s carries event, timestamp, agentId, taskId, its data and delivery 1/4',
    async (event) => {
      await set({ retryPolicy: { maxRetries: 3 } });
      emit('t1', event);
      const [request] = await receiver.waitForRequests(1);
      expect(request!.json()).toEqual({
        event,
        timestamp: expect.stringMatching(ISO),
        agentId: 'agent-1',
        taskId: 't1',
        data: eventData(event, snapshot('t1', event)),
        delivery: { attempt: 1, maxAttempts: 4 },
      });
      expect(request!.headers['x-webhook-event']).toBe(event);
      expect(validate('webhook-payload', request!.json())).toEqual({ valid: true });
    },
  );
});

describe('C-17 events filter and scope', () => {
  it('sends only the subscribed events', async () => {
    await set({ events: ['task.completed', 'task.canceled'] });
    emit('t1', 'task.submitted');
    emit('t1', 'task.working');
    emit('t1', 'task.completed');
    await receiver.waitForRequests(1);
    await sleep(150);
    expect(receiver.requests.map((r) => r.headers['x-webhook-event'])).toEqual(['task.completed']);
  });

  it('a task-level config replaces the agent-level one for that task only (no duplicate delivery)', async () => {
    await set({ url: `${receiver.origin}/agent` });
    await set({ url: `${receiver.origin}/task` }, 't1');
    emit('t1', 'task.completed');
    emit('t2', 'task.completed');
    await receiver.waitForRequests(2);
    await sleep(150);
    const seen = receiver.requests.map((r) => `${r.path} ${r.json().taskId as string}`).sort();
    expect(seen).toEqual(['/agent t2', '/task t1']);
  });

  it('emits nothing when the agent has no config', async () => {
    service.emit('agent-2', snapshot('t1', 'task.completed'), 'task.completed');
    await sleep(150);
    expect(receiver.requests).toHaveLength(0);
    expect(service.deliveryLog()).toHaveLength(0);
  });
});

describe('C-20 lastUsed and ordering', () => {
  it('lastUsed is null until the first attempt, then an ISO timestamp', async () => {
    await set({});
    const before = await service.getConfig('agent-1', undefined);
    expect(before.ok && before.result.config?.lastUsed).toBeNull();
    emit('t1', 'task.submitted');
    await receiver.waitForRequests(1);
    const after = await service.getConfig('agent-1', undefined);
    expect(after.ok && after.result.config?.lastUsed).toMatch(ISO);
  });

  it('starts the deliveries of one task in transition order, each after the previous answer', async () => {
    receiver.plan = () => ({ kind: 'status', status: 200, delayMs: 60 });
    await set({});
    emit('t1', 'task.submitted');
    emit('t1', 'task.working');
    emit('t1', 'task.completed');
    const requests = await receiver.waitForRequests(3);
    expect(requests.map((r) => r.headers['x-webhook-event'])).toEqual([
      'task.submitted',
      'task.working',
      'task.completed',
    ]);
    for (let i = 1; i < requests.length; i++) {
      expect(requests[i]!.receivedAt).toBeGreaterThanOrEqual(requests[i - 1]!.respondedAt!);
    }
  });

  it('does not serialise different tasks behind each other', async () => {
    receiver.plan = (r) =>
      r.index === 0 ? { kind: 'status', status: 200, delayMs: 300 } : { kind: 'status', status: 200 };
    await set({});
    emit('t1', 'task.submitted');
    await receiver.waitForRequests(1);
    emit('t2', 'task.submitted');
    const requests = await receiver.waitForRequests(2);
    expect(requests[1]!.receivedAt - requests[0]!.receivedAt).toBeLessThan(250);
  });

  it('records each delivery in deliveryLog()', async () => {
    const { configId } = await set({});
    emit('t1', 'task.completed');
    const [request] = await receiver.waitForRequests(1);
    await sleep(50);
    expect(service.deliveryLog()).toEqual([
      {
        deliveryId: request!.headers['x-webhook-delivery'],
        agentId: 'agent-1',
        taskId: 't1',
        configId,
        event: 'task.completed',
        url: `${receiver.origin}/hook`,
        maxAttempts: 4,
        status: 'delivered',
        attempts: [
          {
            attempt: 1,
            startedAt: expect.stringMatching(ISO),
            durationMs: expect.any(Number),
            statusCode: 200,
          },
        ],
      },
    ]);
  });
});
