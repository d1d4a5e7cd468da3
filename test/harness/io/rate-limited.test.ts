// Rate-limited answers (HTTP 429 or -32012): recognised, their Retry-After read, and waited out and
// resent by the one loop every request of a client goes through (resendWhileRateLimited), so the
// caller sees only the agent's real answer; the run's budget and the backoff end the retries.
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Governor } from '../../../harness/io/traffic/governor.ts';
import {
  isRateLimitedAnswer,
  RateLimitedError,
  resendWhileRateLimited,
  retryAfterMs,
  type AnswerHead,
} from '../../../harness/io/traffic/rate-limited.ts';
import { newTally } from '../../../harness/io/traffic/tallies.ts';
import { createTargetClient } from '../../../harness/io/target/target-client.ts';

/**
 * A server that refuses the first `refuse` requests, then answers (an event stream when asked for
 * one). `how`: 'http' refuses with HTTP 429 (Retry-After: 1 when `retryAfter`) and -32012 in the
 * body; 'jsonrpc' with HTTP 200 and -32012 alone (error.data.retryAfterSeconds: 1 when `retryAfter`).
 */
function limitedServer(state: State): Server {
  return createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      state.seen += 1;
      if (state.seen <= state.refuse) {
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        const error: Record<string, unknown> = { code: -32012, message: 'Rate limit exceeded' };
        if (state.how === 'http' && state.retryAfter) headers['retry-after'] = '1';
        if (state.how === 'jsonrpc' && state.retryAfter) error.data = { retryAfterSeconds: 1 };
        res.writeHead(state.how === 'http' ? 429 : 200, headers);
        res.end(JSON.stringify({ jsonrpc: '2.0', id: 1, error }));
        return;
      }
      const result = { kind: 'task', id: 't', contextId: 'c', status: { state: 'completed' }, final: true };
      if (req.headers.accept === 'text/event-stream') {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(`data: ${JSON.stringify({ jsonrpc: '2.0', id: 1, result })}\n\n`);
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: 1, result: { ok: true } }));
    });
  });
}

interface State {
  refuse: number;
  seen: number;
  retryAfter: boolean;
  how: 'http' | 'jsonrpc';
}

const state: State = { refuse: 0, seen: 0, retryAfter: true, how: 'http' };
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
    Object.assign(state, { refuse: 1, seen: 0, retryAfter: true, how: 'http' });
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
    Object.assign(state, { refuse: 1_000, seen: 0, retryAfter: false, how: 'http' });
    // A deadline inside the backoff schedule ends the retries early, so the test stays short: the
    // first refusal also halves the pace (one request a second: the resend leaves 2 s after the
    // first), then the backoff's 2 s, then its 4 s would end beyond the deadline.
    const g = new Governor({ pace: null, concurrency: 4, deadlineAt: Date.now() + 5_000 });
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
    Object.assign(state, { refuse: 1, seen: 0, retryAfter: true, how: 'http' });
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

describe('the one resend loop', () => {
  const message = () => ({
    message: { role: 'user', messageId: randomUUID(), parts: [{ type: 'text', text: 'hi' }] },
  });

  it.each<[string, AnswerHead]>([
    ['an HTTP 429 with Retry-After', { status: 429, headers: { 'retry-after': '1' }, json: {} }],
    [
      'a JSON-RPC -32012 (HTTP 200) with error.data.retryAfterSeconds',
      {
        status: 200,
        json: { jsonrpc: '2.0', id: 1, error: { code: -32012, data: { retryAfterSeconds: 1 } } },
      },
    ],
  ])('waits out %s once, then hands over the next answer', async (_, refusal) => {
    const g = new Governor({ pace: null, concurrency: 4 });
    const waits: Array<number | undefined> = [];
    const governor = {
      onRateLimited: (
        ms: number | undefined,
        attempt: number,
        o: Parameters<Governor['onRateLimited']>[2],
      ) => {
        waits.push(ms);
        return g.onRateLimited(ms, attempt, o);
      },
    };
    const tally = newTally();
    const refused: string[] = [];
    let attempts = 0;
    const t0 = Date.now();
    const result = await resendWhileRateLimited(
      governor,
      { tally },
      async () => {
        attempts += 1;
        return attempts === 1
          ? { result: 'refused', answer: refusal }
          : { result: 'answered', answer: { status: 200, json: { jsonrpc: '2.0', id: 1, result: {} } } };
      },
      (r) => refused.push(r),
    );
    expect(result).toBe('answered');
    expect(attempts).toBe(2);
    expect(waits).toEqual([1000]);
    expect(refused).toEqual(['refused']);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(950);
    expect(tally.rateLimitedAnswers).toBe(1);
    expect(tally.waitedMs).toBeGreaterThanOrEqual(950);
  });

  it("without a governor, or with no answer to read (a stream under way), the first attempt is the caller's", async () => {
    let attempts = 0;
    const once = async () => ((attempts += 1), { result: attempts, answer: { status: 429, json: {} } });
    expect(await resendWhileRateLimited(undefined, {}, once)).toBe(1);
    const g = new Governor({ pace: null, concurrency: 4 });
    expect(await resendWhileRateLimited(g, {}, async () => ({ result: 'stream', answer: undefined }))).toBe(
      'stream',
    );
    expect(g.total.rateLimitedAnswers).toBe(0);
  });

  for (const how of ['http', 'jsonrpc'] as const) {
    it(`a client's sends and streams both go through it (${how === 'http' ? 'HTTP 429' : 'JSON-RPC -32012'})`, async () => {
      const g = new Governor({ pace: null, concurrency: 4 });
      const tally = newTally();
      const client = createTargetClient({
        baseUrl,
        agentId: 'a',
        auth: { apiKey: 'key-3f9a' },
        governor: g,
        tally,
      });
      try {
        Object.assign(state, { refuse: 1, seen: 0, retryAfter: true, how });
        let t0 = Date.now();
        const ex = await client.rpc('message/send', message());
        expect(Date.now() - t0).toBeGreaterThanOrEqual(950);
        expect(ex.response?.json).toMatchObject({ result: { ok: true } });
        Object.assign(state, { refuse: 1, seen: 0 });
        t0 = Date.now();
        const s = await client.stream('message/stream', message());
        await s.done;
        expect(Date.now() - t0).toBeGreaterThanOrEqual(950);
        expect(s.transcript.isEventStream).toBe(true);
        // Each refused attempt is counted and waited out once; the caller sees only the answers.
        expect(tally).toMatchObject({ requests: 4, agentTurns: 2, rateLimitedAnswers: 2 });
        expect(client.exchanges()).toHaveLength(2);
      } finally {
        await client.close();
      }
    });
  }
});
