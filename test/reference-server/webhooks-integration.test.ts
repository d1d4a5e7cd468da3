// The task engine feeding the webhook service (spec 3, 6.1; C-17, C-20): every transition emits its
// event in order, with the task state of that moment; set/get go through JSON-RPC.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../schemas/error-codes.ts';
import { detach, directive, sendParams, startServer, waitFor, waitForState } from './support.ts';

interface Delivery {
  event: string;
  body: { event: string; taskId: string; data: Record<string, unknown> };
}

const receivers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((close) => close()));
});

async function startReceiver(): Promise<{ url: string; deliveries: Delivery[] }> {
  const deliveries: Delivery[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      deliveries.push({
        event: String(req.headers['x-webhook-event']),
        body: JSON.parse(text) as Delivery['body'],
      });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receivers.push(() => new Promise((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, deliveries };
}

describe('6.1 task events from the engine', () => {
  it('delivers submitted, working and completed of a task to an agent-level config, in order', async () => {
    const receiver = await startReceiver();
    const h = await startServer({ allowPrivateWebhookTargets: true });
    const set = await h.rpc('tasks/pushNotificationConfig/set', { config: { url: receiver.url } });
    expect(set.result).toMatchObject({ configured: true, url: receiver.url });
    await h.rpc('message/send', { ...sendParams('hi'), id: 'w1' });
    await waitFor(() => receiver.deliveries.length === 3);
    expect(receiver.deliveries.map((delivery) => delivery.event)).toEqual([
      'task.submitted',
      'task.working',
      'task.completed',
    ]);
    for (const delivery of receiver.deliveries)
      expect(delivery.body).toMatchObject({ taskId: 'w1', event: delivery.event });
  });

  it('sends task.canceled with the reason to a task-level config, and refuses an unknown task (C-17)', async () => {
    const receiver = await startReceiver();
    const h = await startServer({ allowPrivateWebhookTargets: true });
    const unknown = await h.rpc('tasks/pushNotificationConfig/set', {
      taskId: 'nope',
      config: { url: receiver.url },
    });
    expect(unknown.error).toMatchObject({ code: ERROR_CODES.TASK_NOT_FOUND, data: { taskId: 'nope' } });
    detach(h.rpc('message/send', { ...sendParams(directive({ runUntilCanceled: true })), id: 'w2' }));
    await waitForState(h, 'w2', 'working');
    const set = await h.rpc('tasks/pushNotificationConfig/set', {
      taskId: 'w2',
      config: { url: receiver.url, events: ['task.canceled'] },
    });
    expect(set.result).toMatchObject({ configured: true, events: ['task.canceled'] });
    const get = await h.rpc('tasks/pushNotificationConfig/get', { taskId: 'w2' });
    expect(get.result).toMatchObject({ active: true, config: { url: receiver.url } });
    await h.rpc('tasks/cancel', { taskId: 'w2', reason: 'stop' });
    await waitFor(() => receiver.deliveries.length === 1);
    expect(receiver.deliveries[0]).toMatchObject({
      event: 'task.canceled',
      body: { taskId: 'w2', data: { reason: 'stop' } },
    });
  });

  it('refuses loopback targets unless allowPrivateWebhookTargets is set (C-19)', async () => {
    const h = await startServer();
    const reply = await h.rpc('tasks/pushNotificationConfig/set', {
      config: { url: 'http://127.0.0.1:9/hook' },
    });
    expect(reply.error).toMatchObject({ code: ERROR_CODES.INVALID_PARAMS, data: { field: 'config.url' } });
  });
});
