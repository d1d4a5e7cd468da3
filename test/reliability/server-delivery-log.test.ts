// The `deliveryLogSize` server option (reference-server README): how many webhook deliveries
// deliveryLog() keeps, so a long run can account for every event (RELIABILITY.md, soak).
import { afterEach, describe, expect, it } from 'vitest';
import {
  ConfigError,
  parseConfigText,
  startReferenceServer,
  type ReferenceServer,
} from '../../reference-server/index.ts';
import { createDeliveryLog } from '../../reference-server/webhooks/delivery-log.ts';
import type { DeliveryRecord } from '../../reference-server/webhooks/types.ts';

let server: ReferenceServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function rpc(method: string, params: unknown): Promise<void> {
  await fetch(`${server?.baseUrl}/api/v1/a2a/a`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': 'k' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
}

describe('deliveryLogSize', () => {
  it('keeps only the configured number of most recent deliveries', async () => {
    server = await startReferenceServer({ agents: [{ id: 'a', apiKeys: ['k'] }], deliveryLogSize: 2 });
    // A refused target (loopback, private targets not allowed) settles every delivery at once.
    await rpc('tasks/pushNotificationConfig/set', { config: { url: 'http://localhost:9/h' } });
    const message = { role: 'user', messageId: crypto.randomUUID(), parts: [{ type: 'text', text: 'x' }] };
    await rpc('message/send', { message });
    const log = server.deliveryLog();
    expect(log.map((record) => record.event)).toEqual(['task.working', 'task.completed']);
  });

  it('drops events beyond maxPendingDeliveries and records them dropped (C-50)', async () => {
    // One pending delivery at most: the first event waits on a target that never answers.
    const hang = (await import('node:net')).createServer(() => undefined);
    await new Promise<void>((resolve) => hang.listen(0, '127.0.0.1', resolve));
    const port = (hang.address() as { port: number }).port;
    server = await startReferenceServer({
      agents: [{ id: 'a', apiKeys: ['k'] }],
      allowPrivateWebhookTargets: true,
      maxPendingDeliveries: 1,
    });
    await rpc('tasks/pushNotificationConfig/set', { config: { url: `http://127.0.0.1:${port}/h` } });
    const message = { role: 'user', messageId: crypto.randomUUID(), parts: [{ type: 'text', text: 'x' }] };
    await rpc('message/send', { message });
    const statuses = server.deliveryLog().map((record) => [record.event, record.status]);
    await server.close();
    server = undefined;
    hang.close();
    expect(statuses).toEqual([
      ['task.submitted', 'pending'],
      ['task.working', 'dropped'],
      ['task.completed', 'dropped'],
    ]);
  });

  it('refuses a size out of range in a config file', () => {
    const config = (size: unknown): string =>
      JSON.stringify({ agents: [{ id: 'a', apiKeys: ['k'] }], deliveryLogSize: size });
    for (const value of [0, 1.5, '10', 1_000_001]) {
      expect(() => parseConfigText(config(value), 'c.json')).toThrow(ConfigError);
    }
    expect(parseConfigText(config(50_000), 'c.json').deliveryLogSize).toBe(50_000);
    const pending = (value: unknown): string =>
      JSON.stringify({ agents: [{ id: 'a', apiKeys: ['k'] }], maxPendingDeliveries: value });
    expect(() => parseConfigText(pending(0), 'c.json')).toThrow(ConfigError);
    expect(parseConfigText(pending(20), 'c.json').maxPendingDeliveries).toBe(20);
  });
});

describe('delivery log ring', () => {
  it('keeps the last `capacity` records in order, oldest first, as copies', () => {
    for (const capacity of [1, 3, 1000]) {
      const log = createDeliveryLog(capacity);
      const added: DeliveryRecord[] = [];
      for (let i = 0; i < 2500; i += 1) {
        const record = { deliveryId: `d${i}` } as DeliveryRecord;
        added.push(record);
        log.add(record);
        if (i === 1 || i === 2499) {
          const snapshot = log.snapshot();
          expect(snapshot.map((r) => r.deliveryId)).toEqual(added.slice(-capacity).map((r) => r.deliveryId));
          expect(snapshot[0]).not.toBe(added.at(-snapshot.length));
        }
      }
    }
    expect(createDeliveryLog(0).snapshot()).toEqual([]);
  });
});
