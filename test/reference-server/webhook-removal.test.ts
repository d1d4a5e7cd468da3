// C-54: no removal of a webhook configuration; `set` replaces, never clears. C-55: a task-level
// configuration needs an existing task (-32000, nothing stored); the patterns a client uses instead.
import { afterEach, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../schemas/error-codes.ts';
import { directive, openStream, sendParams, startServer, waitForState } from './support.ts';
import { startCaptureReceiver, type CaptureReceiver } from './webhooks/capture-receiver.ts';

const SET = 'tasks/pushNotificationConfig/set';
const GET = 'tasks/pushNotificationConfig/get';
const receivers: CaptureReceiver[] = [];

afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

async function receiver(): Promise<CaptureReceiver> {
  const r = await startCaptureReceiver();
  receivers.push(r);
  return r;
}

const eventsOf = (r: CaptureReceiver) =>
  r.requests.map((q) => `${String(q.json().taskId)} ${q.headers['x-webhook-event']}`);

describe('C-54 removing a webhook configuration', () => {
  it('a null config or an empty events list is -32602 and leaves the stored configuration', async () => {
    const h = await startServer({ allowPrivateWebhookTargets: true });
    const set = await h.rpc(SET, { config: { url: 'http://127.0.0.1:9/hook' } });
    for (const [config, field] of [
      [null, 'config'],
      [{ url: 'http://127.0.0.1:9/hook', events: [] }, 'config.events'],
    ] as const) {
      const refused = await h.rpc(SET, { config });
      expect(refused.error).toMatchObject({ code: ERROR_CODES.INVALID_PARAMS, data: { field } });
    }
    const got = await h.rpc(GET);
    expect(got.result).toMatchObject({ configId: set.result.configId, active: true });
    expect(h.server.agents[0]!.capabilities.supportedMethods).not.toContain(
      'tasks/pushNotificationConfig/delete',
    );
  });

  it('a replacement takes the next events: the old receiver gets none', async () => {
    const [old, replacement] = [await receiver(), await receiver()];
    const h = await startServer({ allowPrivateWebhookTargets: true });
    await h.rpc(SET, { config: { url: `${old.origin}/hook` } });
    await h.rpc(SET, { config: { url: `${replacement.origin}/hook`, events: ['task.completed'] } });
    await h.rpc('message/send', { ...sendParams('after the replacement'), id: 'r1' });
    await replacement.waitForRequests(1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(eventsOf(replacement)).toEqual(['r1 task.completed']);
    expect(old.requests).toEqual([]);
  });
});

describe('C-55 task-level configuration before the task', () => {
  it('refuses an unknown taskId with -32000, stores nothing, and the later task gets no delivery from it', async () => {
    const [refused, agentLevel] = [await receiver(), await receiver()];
    const h = await startServer({ allowPrivateWebhookTargets: true });
    const early = await h.rpc(SET, { taskId: 'future-1', config: { url: `${refused.origin}/hook` } });
    expect(early.error).toMatchObject({ code: ERROR_CODES.TASK_NOT_FOUND, data: { taskId: 'future-1' } });
    const empty = { config: null, configId: null, active: false };
    expect((await h.rpc(GET, { taskId: 'future-1' })).result).toEqual(empty);
    await h.rpc(SET, { config: { url: `${agentLevel.origin}/hook` } });
    await h.rpc('message/send', { ...sendParams('configured too early'), id: 'future-1' });
    await agentLevel.waitForRequests(3);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(eventsOf(agentLevel)).toEqual([
      'future-1 task.submitted',
      'future-1 task.working',
      'future-1 task.completed',
    ]);
    expect((await h.rpc(GET, { taskId: 'future-1' })).result).toEqual({
      config: null,
      configId: null,
      active: false,
    });
    expect(refused.requests).toEqual([]);
  });

  it('a stream gives the id at submitted; closed, its task runs on and a task-level config gets the end', async () => {
    const hook = await receiver();
    const h = await startServer({ allowPrivateWebhookTargets: true });
    const stream = await openStream(
      h,
      'message/stream',
      // Long enough for the cancel and the set to reach the server before the task ends on a loaded
      // runner (at 300 ms the set came after the end at a load average of 12: no delivery).
      sendParams('one task only', directive({ delayMs: 2_000 })),
    );
    const first = (await stream.nextEvent()).result as { id: string; status: { state: string } };
    expect(first.status.state).toBe('submitted');
    await stream.cancel();
    const set = await h.rpc(SET, {
      taskId: first.id,
      config: { url: `${hook.origin}/hook`, events: ['task.completed'] },
    });
    expect(set.result).toMatchObject({ configured: true });
    await waitForState(h, first.id, 'completed');
    await hook.waitForRequests(1);
    expect(eventsOf(hook)).toEqual([`${first.id} task.completed`]);
  });
});
