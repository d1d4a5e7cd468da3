// A delivery at a check's URL is the check's evidence whatever its body says (spec 6.1-6.3;
// harness/io/webhooks/webhook-receiver.ts deliveryOfTask, deliveryIsEvent): one that lacks or garbles its
// payload taskId is found by its data.taskId, one that lacks or garbles its payload event by its
// X-Webhook-Event, so the check that awaits it grades it at once instead of waiting out its budget.
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { matchesDelivery } from '../../harness/check/expectations.ts';
import { closeSharedReceiver, WebhookScope } from '../../harness/check/webhooks.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../harness/io/webhooks/webhook-receiver.ts';

async function post(url: string, payload: Record<string, unknown>, event?: string): Promise<void> {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'x-webhook-delivery': 'd1' };
  if (event !== undefined) headers['x-webhook-event'] = event;
  const res = await request(url, { method: 'POST', body: JSON.stringify(payload), headers });
  await res.body.text();
}

let receiver: WebhookReceiver | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
  await closeSharedReceiver(true);
});

/** One delivery posted to a fresh receiver, as the receiver recorded it. */
async function one(payload: Record<string, unknown>, event?: string) {
  receiver = await startWebhookReceiver();
  await post(receiver.urlFor('t'), payload, event);
  return receiver.deliveries()[0]!;
}

const match = { token: 't', taskId: 'task-1', event: 'task.completed' };

describe('a delivery is attributed to the task and event it is about', () => {
  it('by its payload taskId and event, as sent', async () => {
    const d = await one({ event: 'task.completed', taskId: 'task-1', data: { taskId: 'task-1' } });
    expect(matchesDelivery(d, match)).toBe(true);
  });

  it('by data.taskId when the payload taskId is missing or names no task of the URL', async () => {
    const missing = await one({ event: 'task.completed', data: { taskId: 'task-1' } });
    expect(matchesDelivery(missing, match)).toBe(true);
    await receiver?.close();
    const garbled = await one({ event: 'task.completed', taskId: 'task-1-x', data: { taskId: 'task-1' } });
    expect(matchesDelivery(garbled, match)).toBe(true);
  });

  it("never by another task's ids: a delivery of task-2 at a shared URL is not task-1's", async () => {
    const other = await one({ event: 'task.completed', taskId: 'task-2', data: { taskId: 'task-2' } });
    expect(matchesDelivery(other, match)).toBe(false);
  });

  it('by X-Webhook-Event when the payload event is missing or none of the five names', async () => {
    const missing = await one({ taskId: 'task-1' }, 'task.completed');
    expect(matchesDelivery(missing, match)).toBe(true);
    await receiver?.close();
    const garbled = await one({ event: 'completed', taskId: 'task-1' }, 'task.completed');
    expect(matchesDelivery(garbled, match)).toBe(true);
  });

  it('a payload event that is one of the five names is what the delivery is, whatever its header says', async () => {
    const d = await one({ event: 'task.submitted', taskId: 'task-1' }, 'task.completed');
    expect(matchesDelivery(d, match)).toBe(false);
  });
});

describe("a check's wait ends on its own delivery, however garbled its ids", () => {
  it('when the delivery arrives, not at the end of the budget', async () => {
    const scope = new WebhookScope(
      { webhookListen: { host: '127.0.0.1', port: 0 } },
      { waitBoundMs: () => 30_000 },
    );
    const hooks = await scope.open();
    const { token, url } = hooks.newUrl('garbled');
    const since = Date.now();
    setTimeout(
      () => void post(url, { event: 'completed', data: { taskId: 'task-1' } }, 'task.completed'),
      50,
    );
    const got = await hooks.awaitDeliveries({ token, taskId: 'task-1', event: 'task.completed' }, { since });
    expect(got.timedOut).toBe(false);
    expect(got.deliveries.map((d) => (d.json as { event?: unknown }).event)).toEqual(['completed']);
  });
});
