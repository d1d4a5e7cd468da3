// The transport fault model on loopback (harness/io/target/faults.ts through the target client): each
// kind of fault a deployed agent's front meets (a 503 window with Retry-After as an HTTP date, a
// reset, an answer cut short, a gateway's HTML 502, a throttle's text/plain 429 below the card's
// pace) is classified, a read is resent where that is safe, a call that may act never is, and each
// fault is counted; none is an answer a check would grade.
import { describe, expect, it } from 'vitest';
import { completeAnswer } from '../../../harness/io/target/faults.ts';
import { Governor } from '../../../harness/io/traffic/governor.ts';
import { newTally, type TrafficTally } from '../../../harness/io/traffic/tallies.ts';
import { fixtureClients } from '../../support/fixture-client.ts';
import type { Handler } from './fixture-server.ts';

const io = fixtureClients((url) => ({ baseUrl: url, agentId: 'agent-1', auth: { apiKey: 'k' } }));

function idOf(body: Buffer): unknown {
  try {
    return (JSON.parse(body.toString()) as { id?: unknown }).id ?? null;
  } catch {
    return null;
  }
}

/** The first `faulty` requests meet `fault`; then the agent answers. */
function faultyThen(faulty: number, fault: Handler): Handler {
  let n = 0;
  return (req, res, body) => {
    n += 1;
    if (n <= faulty) {
      fault(req, res, body);
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({ jsonrpc: '2.0', id: idOf(body), result: { id: 't', status: { state: 'working' } } }),
    );
  };
}

const FAULTS: Record<string, Handler> = {
  gateway: (_req, res) =>
    res
      .writeHead(503, {
        'content-type': 'text/plain',
        'retry-after': new Date(Date.now() + 2_000).toUTCString(),
      })
      .end('no replica answered\n'),
  reset: (req) => req.socket.resetAndDestroy(),
  'cut-short': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '500' });
    res.write('{"jsonrpc":"2.0","id":');
    setImmediate(() => res.socket?.destroy());
  },
  'html 502': (_req, res) =>
    res.writeHead(502, { 'content-type': 'text/html' }).end('<html><body>502 Bad Gateway</body></html>'),
};
const KIND: Record<string, string> = {
  gateway: 'gateway',
  reset: 'reset',
  'cut-short': 'cut-short',
  'html 502': 'gateway',
};

describe('the fault model on loopback', () => {
  for (const [name, fault] of Object.entries(FAULTS)) {
    it(`a read that meets ${name} is resent, answered and counted`, async () => {
      const tally: TrafficTally = newTally();
      const c = await io.setup(faultyThen(1, fault), { tally });
      const ex = await c.rpc('tasks/get', { id: 't' });
      expect(completeAnswer(ex)).toBe(true);
      expect(ex.response?.status).toBe(200);
      expect(io.fixture().seen).toHaveLength(2);
      const first = c.exchanges()[0]!;
      expect(first.error?.kind).toBe(KIND[name]);
      expect(first.error?.message).toMatch(/a read, sent again/);
      expect(tally.faults?.[KIND[name] as 'reset']).toEqual({ count: 1, retried: 1, reRun: 0 });
    });

    it(`a send that meets ${name} is never resent, and is no answer to grade`, async () => {
      const tally: TrafficTally = newTally();
      const c = await io.setup(faultyThen(1, fault), { tally });
      const ex = await c.rpc('message/send', { message: { role: 'user', parts: [] } });
      expect(completeAnswer(ex)).toBe(false);
      expect(ex.error?.kind).toBe(KIND[name]);
      expect(io.fixture().seen).toHaveLength(1);
      expect(tally.faults?.[KIND[name] as 'reset']).toEqual({ count: 1, retried: 0, reRun: 0 });
    });
  }

  it('waits out a 503 window whose Retry-After is an HTTP date before resending a read', async () => {
    const c = await io.setup(faultyThen(1, FAULTS.gateway!));
    await c.rpc('tasks/get', { id: 't' });
    expect(c.exchanges()[0]!.error?.message).toMatch(/sent again after [1-9]\d* ms/);
  });

  it('gives up on a read after three attempts and reports the fault, not an answer', async () => {
    const tally: TrafficTally = newTally();
    const c = await io.setup(FAULTS.reset!, { tally });
    const ex = await c.rpc('tasks/get', { id: 't' });
    expect(completeAnswer(ex)).toBe(false);
    expect(io.fixture().seen).toHaveLength(3);
    // Each resend met a fault too: none was absorbed, all three lost.
    expect(tally.faults?.reset).toEqual({ count: 3, retried: 0, reRun: 0 });
  });

  it("waits out a throttle's text/plain 429 below the card's pace and resends, counted as throttled", async () => {
    const tally: TrafficTally = newTally();
    const governor = new Governor({
      pace: { limit: 600, windowMs: 60_000, source: 'card' },
      concurrency: 4,
      taskCap: null,
    });
    const throttle: Handler = (_req, res) =>
      res
        .writeHead(429, {
          'content-type': 'text/plain',
          'retry-after': new Date(Date.now() + 1_000).toUTCString(),
        })
        .end('Too Many Requests\n');
    const c = await io.setup(faultyThen(1, throttle), { tally, governor });
    const ex = await c.rpc('message/send', { message: { role: 'user', parts: [] } });
    expect(completeAnswer(ex)).toBe(true);
    expect(io.fixture().seen).toHaveLength(2);
    expect(tally.faults?.throttled).toEqual({ count: 1, retried: 1, reRun: 0 });
    expect(c.exchanges()).toHaveLength(1);
  });

  it("keeps an agent's own JSON-RPC 503 (C-42) and 429 (C-04) as answers", async () => {
    const c = await io.setup((_req, res, body) =>
      res
        .writeHead(503, { 'content-type': 'application/json' })
        .end(JSON.stringify({ jsonrpc: '2.0', id: idOf(body), error: { code: -32603, message: 'busy' } })),
    );
    const ex = await c.rpc('tasks/get', { id: 't' });
    expect(completeAnswer(ex)).toBe(true);
    expect(ex.error).toBeUndefined();
    expect(io.fixture().seen).toHaveLength(1);
  });
});
