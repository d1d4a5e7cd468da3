// The Redis store (`serve --store redis://...`) with a real redis-server (never a mock): replicas
// share tasks, conversations, webhook configs, rate windows, the concurrentTasks slots and task
// updates (spec 2.7, 2.11, 3, 4.3-4.7, 8; C-04, C-17, C-21), and a webhook retry pending in a replica
// killed with SIGKILL is sent from another replica, once, with the same delivery id (C-20).
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { createInterface } from 'node:readline';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen } from '../../harness/kit/loopback.ts';
import { startRedisServer, type RedisServer } from '../../bench/field/redis-server.ts';
import {
  AGENT_A,
  directive,
  sendParams,
  sseResults,
  startServer,
  stateOf,
  waitFor,
  type Harness,
} from './support.ts';

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await redis?.stop();
});

/** Two replicas of agent-a on the test's Redis (a fresh key space per test: FLUSHALL first). */
async function twoReplicas(agent: Record<string, unknown> = {}): Promise<[Harness, Harness]> {
  const client = new Redis(redis.url);
  await client.flushall();
  client.disconnect();
  const options = { store: redis.url, agents: [{ ...AGENT_A, ...agent }], allowPrivateWebhookTargets: true };
  return [await startServer(options), await startServer(options)];
}

/** The task's state as one replica answers it now; undefined while it does not know the task. */
async function stateNow(h: Harness, taskId: string): Promise<string | undefined> {
  const reply = await h.rpc('tasks/get', { taskId });
  return reply.error === undefined ? stateOf(reply.result) : undefined;
}

describe('Redis store: replicas share what a client made through any of them', () => {
  it('a task and its conversation made through one replica are read, continued and canceled through the other', async () => {
    const [a, b] = await twoReplicas();
    const first = await a.rpc('message/send', sendParams('hello'));
    const { id, contextId } = first.result as { id: string; contextId: string };
    expect((await b.rpc('tasks/get', { taskId: id })).result).toMatchObject({
      id,
      status: { state: 'completed' },
    });
    // The second turn, sent to the other replica, sees the first (turn 2 of the same conversation).
    const second = await b.rpc('message/send', {
      ...sendParams('again', directive({ turn: true })),
      contextId,
    });
    expect(second.error).toBeUndefined();
    expect(JSON.stringify(second.result)).toContain('turn 2\\nhistory [\\"hello\\"]');
    // A task running in replica a is canceled through replica b.
    const running = a.rpc('message/send', {
      ...sendParams(directive({ runUntilCanceled: true })),
      id: 'long-1',
    });
    await waitFor(async () => (await stateNow(b, 'long-1')) === 'working');
    const cancel = await b.rpc('tasks/cancel', { taskId: 'long-1', reason: 'from b' });
    expect(cancel.result).toMatchObject({
      id: 'long-1',
      canceled: true,
      status: { state: 'canceled', reason: 'from b' },
    });
    expect((await running).result).toMatchObject({ final: true, status: { state: 'canceled' } });
    expect((await b.rpc('tasks/cancel', { taskId: 'long-1' })).error?.code).toBe(-32002);
  });

  it('tasks/resubscribe on another replica streams the task to its final status', async () => {
    const [a, b] = await twoReplicas();
    const send = a.rpc('message/send', {
      ...sendParams(directive({ delayMs: 600, progressSteps: 3 })),
      id: 'sub-1',
    });
    await waitFor(async () => (await stateNow(b, 'sub-1')) === 'working');
    const stream = await b.post({
      jsonrpc: '2.0',
      id: 'r1',
      method: 'tasks/resubscribe',
      params: { taskId: 'sub-1', includeHistory: true },
    });
    await send;
    const events = sseResults(stream.text);
    expect(events[0]).toMatchObject({ id: 'sub-1', status: { state: 'submitted' } });
    expect(events.at(-1)).toMatchObject({ status: { state: 'completed' }, final: true });
  });

  it("webhook configs and the concurrentTasks slots are the agent's, not a replica's (C-17, C-21)", async () => {
    const [a, b] = await twoReplicas({ limits: { requestsPerMinute: 6000, concurrentTasks: 1 } });
    const set = await a.rpc('tasks/pushNotificationConfig/set', {
      config: { url: 'http://127.0.0.1:9/hook' },
    });
    expect((await b.rpc('tasks/pushNotificationConfig/get')).result).toMatchObject({
      configId: (set.result as { configId: string }).configId,
      active: true,
    });
    // One slot for the agent: a task sent through b waits while a's task works.
    const slow = a.rpc('message/send', { ...sendParams(directive({ delayMs: 500 })), id: 'slot-1' });
    await waitFor(async () => (await stateNow(a, 'slot-1')) === 'working');
    const queued = b.rpc('message/send', { ...sendParams('next'), id: 'slot-2' });
    await waitFor(async () => (await stateNow(a, 'slot-2')) !== undefined);
    expect(await stateNow(b, 'slot-2')).toBe('submitted');
    expect(await stateNow(a, 'slot-1')).toBe('working');
    expect((await Promise.all([slow, queued])).map((r) => stateOf(r.result))).toEqual([
      'completed',
      'completed',
    ]);
  });

  it("the rate window is the agent's: its limit holds across replicas (C-04)", async () => {
    const [a, b] = await twoReplicas({ limits: { requestsPerMinute: 3 } });
    expect((await a.rpc('tasks/pushNotificationConfig/get')).status).toBe(200);
    expect((await b.rpc('tasks/pushNotificationConfig/get')).status).toBe(200);
    expect((await a.rpc('tasks/pushNotificationConfig/get')).status).toBe(200);
    const refused = await b.rpc('tasks/pushNotificationConfig/get');
    expect(refused.status).toBe(429);
    expect(refused.error).toMatchObject({ code: -32012, data: { limit: 3 } });
  });
});

interface Hit {
  delivery: string;
  attempt: number;
}

/** `serve --store` in its own process, so it can be killed with SIGKILL. */
async function serveProcess(url: string, key: string): Promise<{ child: ChildProcess; baseUrl: string }> {
  const args = ['--import', 'tsx', 'harness/cli/main.ts', 'serve', '--store', url, '--agent-id', 'agent-a'];
  const child = spawn(process.execPath, [...args, '--api-key', key], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  const baseUrl = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`serve exited (${code})`)));
  });
  return { child, baseUrl };
}

describe('Redis store: the webhook outbox survives a replica', () => {
  it('a retry pending in a replica killed with SIGKILL is sent by another, once, with the same delivery id', async () => {
    const client = new Redis(redis.url);
    await client.flushall();
    const hits: Hit[] = [];
    const receiver = await listen(
      createServer((req, res) => {
        const headers: IncomingHttpHeaders = req.headers;
        req.resume();
        req.on('end', () => {
          hits.push({ delivery: String(headers['x-webhook-delivery']), attempt: hits.length + 1 });
          res.writeHead(hits.length === 1 ? 500 : 200).end();
        });
      }),
    );
    const { child, baseUrl } = await serveProcess(redis.url, AGENT_A.apiKeys![0]!);
    try {
      const b = await startServer({ store: redis.url, agents: [AGENT_A], allowPrivateWebhookTargets: true });
      const post = (method: string, params: unknown) =>
        fetch(`${baseUrl}/api/v1/a2a/agent-a`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': AGENT_A.apiKeys![0]! },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
        });
      const retryPolicy = { maxRetries: 3, initialDelay: 2, backoffMultiplier: 1 };
      const config = { url: `${receiver.baseUrl}/hook`, events: ['task.completed'], retryPolicy };
      expect((await post('tasks/pushNotificationConfig/set', { config })).status).toBe(200);
      expect((await post('message/send', sendParams('hello'))).status).toBe(200);
      // The first attempt failed (500) and its retry waits in the outbox: now the replica dies.
      await waitFor(async () => hits.length === 1 && (await client.zcard('a2a:outbox:due')) === 1, 10_000);
      child.kill('SIGKILL');
      await waitFor(() => hits.length === 2, 15_000);
      expect(hits[1]!.delivery).toBe(hits[0]!.delivery);
      // Delivered from replica b, and the outbox holds nothing more to send.
      await waitFor(() => b.server.deliveryLog().some((r) => r.status === 'delivered'), 5000);
      expect(b.server.deliveryLog()).toMatchObject([{ deliveryId: hits[0]!.delivery, status: 'delivered' }]);
      expect(await client.zcard('a2a:outbox:due')).toBe(0);
      expect(hits).toHaveLength(2);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      client.disconnect();
      await receiver.close();
    }
  }, 40_000);
});
