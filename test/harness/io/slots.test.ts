// The governor's cap on agent turns in flight (spec 8 limits.concurrentTasks, C-21) and what counts
// as a turn (spec 4.1, 4.2): a fake agent on 127.0.0.1:0 records how many task-creating requests it
// holds at once; a send holds its slot until answered, a stream until its final event; an abort, an
// error or the end of a worker frees a held slot; a check that overflows on purpose is let through.
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { isAgentTurnBody, isAgentTurnRequest } from '../../../harness/io/target/agent-turn.ts';
import { FileLock, fileLockCalls } from '../../../harness/runner/file-lock.ts';
import { Governor } from '../../../harness/io/traffic/governor.ts';
import { TaskSlotError } from '../../../harness/io/traffic/slots.ts';
import { newTally } from '../../../harness/io/traffic/tallies.ts';
import { RemoteGovernor, serveWorkerLink } from '../../../harness/io/links/worker-link.ts';
import { createTargetClient, type TargetClientOptions } from '../../../harness/io/target/target-client.ts';
import { startFixture, type Fixture } from './fixture-server.ts';

/** What the fake agent does with a well-formed message: its text, e.g. `send 200` or `stream 100 hold 2000`. */
interface Script {
  /** Ms until the final answer (send) or the final event (stream). */
  workMs: number;
  /** Ms the stream stays open after its final event; -1: never ends by itself. */
  holdMs: number;
}

function scriptOf(text: string): Script {
  const [, work, hold] = /(\d+)(?: hold (-?\d+))?/.exec(text) ?? [];
  return { workMs: Number(work ?? 0), holdMs: Number(hold ?? 0) };
}

const agent = { running: 0, maxRunning: 0, tasks: 0 };
let fixture: Fixture;

function taskStarted(): () => void {
  agent.tasks += 1;
  agent.running += 1;
  agent.maxRunning = Math.max(agent.maxRunning, agent.running);
  let ended = false;
  return () => {
    if (!ended) agent.running -= 1;
    ended = true;
  };
}

function answer(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

beforeAll(async () => {
  fixture = await startFixture((req, res, body) => {
    const json = JSON.parse(body.toString()) as { id: string; method: string; params?: unknown };
    if (req.headers['x-api-key'] !== 'k') {
      answer(res, 401, { jsonrpc: '2.0', id: json.id, error: { code: -32001, message: 'Unauthorized' } });
      return;
    }
    if (!isAgentTurnRequest(json)) {
      answer(res, 200, { jsonrpc: '2.0', id: json.id, error: { code: -32602, message: 'Invalid params' } });
      return;
    }
    const text = (json.params as { message: { parts: Array<{ text: string }> } }).message.parts[0]!.text;
    const { workMs, holdMs } = scriptOf(text);
    const end = taskStarted();
    const task = (state: string, final: boolean) => ({ id: 't', status: { state }, final });
    res.on('close', end);
    if (json.method === 'message/send') {
      setTimeout(() => {
        end();
        answer(res, 200, { jsonrpc: '2.0', id: json.id, result: task('completed', true) });
      }, workMs);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(`data: ${JSON.stringify({ jsonrpc: '2.0', id: json.id, result: task('working', false) })}\n\n`);
    setTimeout(() => {
      end();
      if (res.destroyed) return;
      res.write(
        `data: ${JSON.stringify({ jsonrpc: '2.0', id: json.id, result: task('completed', true) })}\n\n`,
      );
      if (holdMs >= 0) setTimeout(() => res.end(), holdMs);
    }, workMs);
  });
});
afterAll(async () => {
  await fixture.close();
});
beforeEach(() => Object.assign(agent, { running: 0, maxRunning: 0, tasks: 0 }));

const message = (text: string) => ({
  message: { role: 'user', messageId: randomUUID(), parts: [{ type: 'text', text }] },
});

function client(governor: Governor | RemoteGovernor, more: Partial<TargetClientOptions> = {}) {
  return createTargetClient({ baseUrl: fixture.url, agentId: 'a', auth: { apiKey: 'k' }, governor, ...more });
}

describe('what an agent turn is', () => {
  it('a well-formed message/send or message/stream, never a malformed one or another method', () => {
    const envelope = (method: string, params: unknown) => ({ jsonrpc: '2.0', id: '1', method, params });
    expect(isAgentTurnRequest(envelope('message/send', message('hi')))).toBe(true);
    expect(isAgentTurnRequest(envelope('message/stream', message('hi')))).toBe(true);
    expect(isAgentTurnRequest(envelope('message/send', { message: {} }))).toBe(false);
    expect(
      isAgentTurnRequest(envelope('message/send', { message: { ...message('x').message, parts: [] } })),
    ).toBe(false);
    expect(isAgentTurnRequest({ ...envelope('message/send', message('hi')), jsonrpc: '1.0' })).toBe(false);
    expect(isAgentTurnRequest(envelope('tasks/get', { taskId: 't' }))).toBe(false);
    expect(isAgentTurnBody(JSON.stringify(envelope('message/send', message('hi'))))).toBe(true);
    expect(isAgentTurnBody('{"jsonrpc":"2.0","method":"message/send",')).toBe(false);
  });

  it('only requests that made a task count as turns: malformed, refused and rate-limited ones do not', async () => {
    const g = new Governor({ pace: null, concurrency: 8 });
    const tally = newTally();
    const c = client(g, { tally });
    await c.rpc('message/send', { message: {} });
    await c.rpc('message/send', message('0'));
    await c.rpc('', undefined, {
      rawBody: JSON.stringify({ jsonrpc: '2.0', id: 'r', method: 'message/send', params: message('0') }),
    });
    await c.rpc('message/send', message('0'), { headers: { 'x-api-key': null } });
    await (
      await c.stream('message/stream', message('0'))
    ).done;
    await (
      await c.stream('message/stream', { message: { role: 'user' } })
    ).done;
    await c.close();
    expect(agent.tasks).toBe(3);
    expect(tally).toMatchObject({ requests: 6, agentTurns: 3 });
    expect(tally.turnLatencyMs).toHaveLength(3);
    expect(g.total.agentTurns).toBe(3);
  });
});

describe('task slots (limits.concurrentTasks)', () => {
  it('never more turns in flight than the cap; the other requests are not held', async () => {
    const g = new Governor({ pace: null, concurrency: 32, taskCap: 2 });
    const tally = newTally();
    const c = client(g, { tally });
    const gets = Promise.all(Array.from({ length: 4 }, () => c.rpc('tasks/get', { taskId: 't' })));
    await Promise.all([
      ...Array.from({ length: 4 }, () => c.rpc('message/send', message('100'))),
      ...Array.from({ length: 2 }, async () => (await c.stream('message/stream', message('100'))).done),
      gets,
    ]);
    await c.close();
    expect(agent.tasks).toBe(6);
    expect(agent.maxRunning).toBe(2);
    expect(g.maxTasksInFlight).toBe(2);
    expect(tally.maxTasksInFlight).toBe(2);
    expect(g.tasksNow).toBe(0);
  });

  it("a stream's slot is free at its final event, while the stream stays open", async () => {
    const g = new Governor({ pace: null, concurrency: 32, taskCap: 1 });
    const c = client(g);
    const s = await c.stream('message/stream', message('50 hold 3000'));
    const t0 = Date.now();
    const send = await c.rpc('message/send', message('0'));
    expect(send.response?.status).toBe(200);
    expect(Date.now() - t0).toBeLessThan(2_000);
    expect(s.transcript.finalIndex).toBe(1);
    expect(s.transcript.closedAtMs).toBeUndefined();
    await c.close();
  });

  it('a slot held by a stream that never ends is freed when the stream is closed or errs', async () => {
    const g = new Governor({ pace: null, concurrency: 32, taskCap: 1 });
    const c = client(g);
    const hung = await c.stream('message/stream', message('60000'));
    let sent = false;
    const next = c.rpc('message/send', message('0')).then((ex) => ((sent = true), ex));
    await new Promise((r) => setTimeout(r, 200));
    expect(sent).toBe(false);
    await hung.close();
    expect((await next).response?.status).toBe(200);
    // A send that ends in a deadline (no answer) frees its slot too.
    const late = await c.rpc('message/send', message('60000'), { timeoutMs: 100 });
    expect(late.error?.kind).toBeDefined();
    expect(g.tasksNow).toBe(0);
    await c.close();
  });

  it('a waiter whose check is aborted leaves the queue without taking a slot', async () => {
    const g = new Governor({ pace: null, concurrency: 32, taskCap: 1 });
    const holder = await g.holdTask({});
    const aborted = new AbortController();
    const waiting = g.holdTask({ signal: aborted.signal });
    aborted.abort(new Error('check budget spent'));
    await expect(waiting).rejects.toThrow('check budget spent');
    const next = g.holdTask({});
    holder();
    (await next)();
    expect(g.tasksNow).toBe(0);
  });

  it('first come, first served: a released slot goes to the oldest waiter', async () => {
    const g = new Governor({ pace: null, concurrency: 32, taskCap: 1 });
    const order: number[] = [];
    const first = await g.holdTask({});
    const waiters = [1, 2, 3].map((n) => g.holdTask({}).then((release) => (order.push(n), release)));
    first();
    for (const w of waiters) (await w)();
    expect(order).toEqual([1, 2, 3]);
  });

  it('a check holding a live task is served first: for a task slot, and its follow-ups for a request slot', async () => {
    const g = new Governor({ pace: null, concurrency: 1, taskCap: 2 });
    const held = newTally();
    const other = newTally();
    const order: string[] = [];
    // `held` made a task (its turn left) and holds it; `other` holds the other slot, its turn not sent.
    const heldSlot = await g.holdTask({ tally: held });
    (await g.admit({ turn: true, tally: held }))();
    const otherSlot = await g.holdTask({ tally: other });
    const queued = [
      g.holdTask({ tally: newTally() }).then((r) => (order.push('newcomer slot'), r)),
      g.holdTask({ tally: held }).then((r) => (order.push('held slot'), r)),
    ];
    otherSlot();
    (await queued[1]!)();
    (await queued[0]!)();
    // The one request slot: the follow-up on the held task goes ahead of a request queued before it.
    const inFlight = await g.admit({ turn: false, tally: other });
    const requests = [
      g.admit({ turn: false, tally: newTally() }).then((r) => (order.push('newcomer request'), r)),
      g.admit({ turn: false, tally: held }).then((r) => (order.push('follow-up'), r)),
    ];
    await vi.waitFor(() => expect(g.slotWaiters).toBe(2), { timeout: 10_000 });
    inFlight();
    (await requests[1]!)();
    (await requests[0]!)();
    heldSlot();
    expect(order).toEqual(['held slot', 'newcomer slot', 'follow-up', 'newcomer request']);
    expect(g.tasksNow).toBe(0);
  });

  it('a wait longer than the slot wait ends the check as an error (TaskSlotError), never a hang', async () => {
    const g = new Governor({ pace: null, concurrency: 32, taskCap: 1, taskWaitMs: 200 });
    const holder = await g.holdTask({});
    await expect(g.holdTask({})).rejects.toBeInstanceOf(TaskSlotError);
    holder();
    expect(g.tasksNow).toBe(0);
  });

  it('a check waits on slots only it holds for a while, then goes past the cap; another check waits', async () => {
    const g = new Governor({ pace: null, concurrency: 32, taskCap: 1, taskWaitMs: 5_000, ownWaitMs: 200 });
    const mine = newTally();
    const first = await g.holdTask({ tally: mine });
    const t0 = Date.now();
    const second = await g.holdTask({ tally: mine });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(150);
    expect(g.tasksNow).toBe(2);
    let other = false;
    const theirs = g.holdTask({ tally: newTally() }).then((release) => ((other = true), release));
    first();
    await new Promise((r) => setTimeout(r, 50));
    expect(other).toBe(false);
    second();
    (await theirs)();
    expect(g.tasksNow).toBe(0);
  });

  it('a check that overflows on purpose neither waits for a slot nor holds one', async () => {
    const g = new Governor({ pace: null, concurrency: 32, taskCap: 1 });
    const over = client(g, { overflowTasks: true });
    await Promise.all(Array.from({ length: 3 }, () => over.rpc('message/send', message('100'))));
    await over.close();
    expect(agent.maxRunning).toBe(3);
    expect(g.maxTasksInFlight).toBe(0);
  });

  it('across workers: one cap, and a worker that goes away frees its slots', async () => {
    // ca's two tasks are one check's: past ownWaitMs, its second would go past the cap while its first
    // still runs. A loaded machine can stretch a 100 ms task that long, so the wait is long until the
    // last part, which shortens it (the governor reads its settings when a request waits).
    const g = new Governor({ pace: null, concurrency: 32, taskCap: 1, ownWaitMs: 10_000 });
    const link = await serveWorkerLink(g, fileLockCalls(new FileLock()));
    try {
      const a = new RemoteGovernor(link.url);
      const b = new RemoteGovernor(link.url);
      const tally = newTally();
      const ca = client(a, { tally });
      const cb = client(b);
      await Promise.all([
        ...Array.from({ length: 2 }, () => ca.rpc('message/send', message('100'))),
        ...Array.from({ length: 2 }, () => cb.rpc('message/send', message('100'))),
      ]);
      expect(agent.maxRunning).toBe(1);
      expect(g.maxTasksInFlight).toBe(1);
      expect(tally.maxTasksInFlight).toBe(1);
      // A worker's check aborted while it held a slot: the runner's slot is free again.
      const gone = new AbortController();
      await a.holdTask({ signal: gone.signal });
      expect(g.tasksNow).toBe(1);
      gone.abort(new Error('worker ended'));
      const release = await b.holdTask({});
      expect(g.tasksNow).toBe(1);
      release();
      // A check's follow-up on a task it holds goes first through the link too (its run-wide name).
      g.settings.concurrency = 1;
      const holder = newTally();
      const heldSlot = await a.holdTask({ tally: holder });
      (await a.admit({ turn: true, tally: holder }))();
      const inFlight = await g.admit({ turn: false });
      const order: string[] = [];
      const requests = [
        b.admit({ turn: false, tally: newTally() }).then((r) => (order.push('newcomer'), r)),
        a.admit({ turn: false, tally: holder }).then((r) => (order.push('follow-up'), r)),
      ];
      await vi.waitFor(() => expect(g.slotWaiters).toBe(2), { timeout: 10_000 });
      inFlight();
      (await requests[1]!)();
      (await requests[0]!)();
      heldSlot();
      expect(order).toEqual(['follow-up', 'newcomer']);
      g.settings.concurrency = 32;
      // A check's own slots, held through the link, make it wait only for a while.
      g.settings.ownWaitMs = 200;
      const check = newTally();
      const own = [await a.holdTask({ tally: check }), await a.holdTask({ tally: check })];
      expect(g.tasksNow).toBe(2);
      for (const r of own) r();
      await ca.close();
      await cb.close();
    } finally {
      await link.close();
    }
  });
});
