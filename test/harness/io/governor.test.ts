// The traffic governor: the pace over a sliding window, a rate-limited answer (HTTP 429 or -32012)
// waited out and resent without reaching the caller, the run's budget, and the counts it keeps.
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Governor,
  isRateLimitedAnswer,
  newTally,
  PaceBudgetError,
  paceCap,
  RateLimitedError,
  retryAfterMs,
} from '../../../harness/io/governor.ts';
import { RemoteGovernor, serveGovernor } from '../../../harness/io/governor-link.ts';
import { createTargetClient } from '../../../harness/io/target-client.ts';

/** A server that refuses the first `refuse` requests (429, Retry-After 1, -32012), then answers. */
function limitedServer(state: { refuse: number; seen: number; retryAfter: boolean }): Server {
  return createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      state.seen += 1;
      if (state.seen <= state.refuse) {
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        if (state.retryAfter) headers['retry-after'] = '1';
        res.writeHead(429, headers);
        res.end(
          JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: -32012, message: 'Rate limit exceeded' } }),
        );
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: 1, result: { ok: true } }));
    });
  });
}

const state = { refuse: 0, seen: 0, retryAfter: true };
let server: Server;
let baseUrl: string;

beforeAll(async () => {
  server = limitedServer(state);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe('pace', () => {
  it('keeps at most the cap in a window and waits for the oldest to leave it', async () => {
    // 20 a second: the cap is 19, so the 20th request waits for the window (plus its slack).
    const g = new Governor({ pace: { limit: 20, windowMs: 1000, source: 'option' }, concurrency: 64 });
    expect(paceCap({ limit: 20, windowMs: 1000, source: 'option' })).toBe(19);
    const t0 = Date.now();
    const sent: number[] = [];
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        const release = await g.admit({ turn: false });
        sent.push(Date.now() - t0);
        release();
      }),
    );
    sent.sort((a, b) => a - b);
    expect(sent[18]!).toBeLessThan(900);
    expect(sent[19]!).toBeGreaterThanOrEqual(1900);
    expect(g.total.requests).toBe(20);
    expect(g.heldBackMs()).toBeGreaterThanOrEqual(1900);
  });

  it('refuses a wait that would end after the run deadline', async () => {
    const g = new Governor({
      pace: { limit: 1, windowMs: 60_000, source: 'card' },
      concurrency: 4,
      deadlineAt: Date.now() + 5_000,
    });
    (await g.admit({ turn: true }))();
    await expect(g.admit({ turn: false })).rejects.toBeInstanceOf(PaceBudgetError);
    expect(g.total.agentTurns).toBe(1);
  });

  it('a bypassing request goes out at once but counts in the window', async () => {
    const g = new Governor({
      pace: { limit: 1, windowMs: 60_000, source: 'card' },
      concurrency: 4,
      deadlineAt: Date.now() + 1000,
    });
    (await g.admit({ turn: false, bypass: true }))();
    (await g.admit({ turn: false, bypass: true }))();
    await expect(g.admit({ turn: false })).rejects.toBeInstanceOf(PaceBudgetError);
  });

  it('caps requests in flight', async () => {
    const g = new Governor({ pace: null, concurrency: 2 });
    const a = await g.admit({ turn: false });
    const b = await g.admit({ turn: false });
    let third = false;
    const c = g.admit({ turn: false }).then((r) => {
      third = true;
      return r;
    });
    await new Promise((r) => setTimeout(r, 50));
    expect(third).toBe(false);
    a();
    (await c)();
    b();
    expect(third).toBe(true);
    expect(g.total.maxInFlight).toBe(2);
  });
});

describe('rate-limited answers', () => {
  it('are recognised by status or by code, and their Retry-After read from header or data', () => {
    expect(isRateLimitedAnswer(429, undefined)).toBe(true);
    expect(isRateLimitedAnswer(200, { error: { code: -32012 } })).toBe(true);
    expect(isRateLimitedAnswer(200, { error: { code: -32600 } })).toBe(false);
    expect(retryAfterMs({ 'retry-after': '3' }, undefined)).toBe(3000);
    expect(retryAfterMs({}, { error: { code: -32012, data: { retryAfterSeconds: 2 } } })).toBe(2000);
    expect(retryAfterMs({}, {})).toBeUndefined();
  });

  it('are waited out and resent: the caller sees only the answer, the tally counts both requests', async () => {
    Object.assign(state, { refuse: 1, seen: 0, retryAfter: true });
    const g = new Governor({ pace: null, concurrency: 4 });
    const tally = newTally();
    const client = createTargetClient({ baseUrl, agentId: 'a', auth: { apiKey: 'k' }, governor: g, tally });
    const t0 = Date.now();
    const message = { role: 'user', messageId: randomUUID(), parts: [{ type: 'text', text: 'hi' }] };
    const ex = await client.rpc('message/send', { message });
    await client.close();
    expect(ex.response?.status).toBe(200);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(950);
    expect(client.exchanges()).toHaveLength(1);
    // The refused attempt made no task: one turn, one turn latency.
    expect(tally).toMatchObject({ requests: 2, agentTurns: 1, rateLimitedAnswers: 1 });
    expect(tally.turnLatencyMs).toHaveLength(1);
  });

  it('without Retry-After back off, and give up as "rate limited" after the last backoff', async () => {
    Object.assign(state, { refuse: 1_000, seen: 0, retryAfter: false });
    // A deadline inside the backoff schedule ends the retries early, so the test stays short.
    const g = new Governor({ pace: null, concurrency: 4, deadlineAt: Date.now() + 4_000 });
    const client = createTargetClient({ baseUrl, agentId: 'a', auth: { apiKey: 'k' }, governor: g });
    const err = await client.rpc('tasks/get', { id: 't' }).catch((e: unknown) => e);
    await client.close();
    expect(err).toBeInstanceOf(RateLimitedError);
    expect((err as Error).message).toMatch(/^rate limited: 3 rate-limited answers/);
  });

  it('a refused request that no one awaited is no unhandled rejection of the run', async () => {
    const g = new Governor({
      pace: { limit: 1, windowMs: 60_000, source: 'card' },
      concurrency: 4,
      deadlineAt: Date.now() + 500,
    });
    (await g.admit({ turn: false }))();
    const client = createTargetClient({ baseUrl, agentId: 'a', auth: { apiKey: 'k' }, governor: g });
    // vitest fails the file on an unhandled rejection.
    void client.rpc('tasks/get', { id: 't' });
    void client.stream('message/stream', {});
    await new Promise((resolve) => setTimeout(resolve, 50));
    await client.close();
  });

  it('reach a client that bypasses pacing (the rate-limit checks)', async () => {
    Object.assign(state, { refuse: 1, seen: 0, retryAfter: true });
    const g = new Governor({ pace: null, concurrency: 4 });
    const client = createTargetClient({
      baseUrl,
      agentId: 'a',
      auth: { apiKey: 'k' },
      governor: g,
      bypassPacing: true,
    });
    const ex = await client.rpc('tasks/get', { id: 't' });
    await client.close();
    expect(ex.response?.status).toBe(429);
  });
});

describe('the link to the runner (suite files in several workers)', () => {
  it('keeps one pace and one count for every worker, and rebuilds its refusals', async () => {
    const g = new Governor({
      pace: { limit: 1, windowMs: 60_000, source: 'card' },
      concurrency: 4,
      deadlineAt: Date.now() + 2_000,
    });
    const link = await serveGovernor(g);
    try {
      const a = new RemoteGovernor(link.url);
      const b = new RemoteGovernor(link.url);
      const tally = newTally();
      (await a.admit({ turn: true, tally }))();
      await expect(b.admit({ turn: false })).rejects.toBeInstanceOf(PaceBudgetError);
      expect(tally).toMatchObject({ requests: 1, agentTurns: 1 });
      expect(g.total.requests).toBe(1);
    } finally {
      await link.close();
    }
  });

  it('a long shared check yields between its steps to a file that runs alone, then holds again', async () => {
    const link = await serveGovernor(new Governor({ pace: null, concurrency: 4 }));
    try {
      const r = new RemoteGovernor(link.url);
      const order: string[] = [];
      const property = await r.lock(null);
      // Nobody waits: a yield keeps the hold (an exclusive file asking later still waits for it).
      await new Promise((resolve) => setTimeout(resolve, 250));
      await property.yield();
      const exclusive = r.lock('/suites/08-limits/a.test.ts').then(async (hold) => {
        order.push('exclusive ran');
        await hold.release();
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(order).toEqual([]);
      // One asks soon after its last yield: it keeps going (yields are spaced, not per case).
      await property.yield();
      expect(order).toEqual([]);
      // Later, the waiting file runs before the yield returns; a shared check asking meanwhile waits too.
      await new Promise((resolve) => setTimeout(resolve, 250));
      const yielded = property.yield().then(() => order.push('property resumed'));
      await exclusive;
      await yielded;
      expect(order).toEqual(['exclusive ran', 'property resumed']);
      // Its release waits for nothing and frees the lock: another exclusive file gets it at once.
      await property.release();
      await (await r.lock('/suites/08-limits/b.test.ts')).release();
    } finally {
      await link.close();
    }
  });

  it('an exclusive file runs alone; its own tests share the lock', async () => {
    const link = await serveGovernor(new Governor({ pace: null, concurrency: 4 }));
    try {
      const r = new RemoteGovernor(link.url);
      const order: string[] = [];
      const shared = await r.lock(null);
      const exclusive = r.lock('/suites/03-states/a.test.ts').then((hold) => {
        order.push('exclusive');
        return hold;
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(order).toEqual([]);
      await shared.release();
      const holdA = await exclusive;
      const sameFile = await r.lock('/suites/03-states/a.test.ts');
      const other = r.lock(null).then((hold) => {
        order.push('shared');
        return hold;
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(order).toEqual(['exclusive']);
      await holdA.release();
      await sameFile.release();
      await (await other).release();
      expect(order).toEqual(['exclusive', 'shared']);
    } finally {
      await link.close();
    }
  });
});
