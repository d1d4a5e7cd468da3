// SSE budgets: a stream that never sends a first event, goes silent, pings forever without a final
// event, or floods bytes is cut off within its budget and the spent budget is recorded.
import { describe, expect, it } from 'vitest';
import { fixtureClients } from '../../support/fixture-client.ts';
import { startFixture, writeForever } from './fixture-server.ts';

const io = fixtureClients((url) => ({ baseUrl: url, agentId: 'a', auth: {} }));
const { setup } = io;

const SSE_HEADERS = { 'content-type': 'text/event-stream' };
// Upper bounds only say the budget, not the server or the test's own timeout, ended the stream: a
// loaded runner fires timers late, so they sit far above the budgets (closedBy: 'budget' is the proof).
const LATE_MS = 3_000;
const EVENT =
  'data: {"jsonrpc":"2.0","id":"r1","result":{"id":"t","status":{"state":"working"},"final":false}}\n\n';

describe('budgets', () => {
  it('first-event: headers sent, then only pings', async () => {
    const c = await setup((_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      writeForever(res, ': ping\n\n', 50);
    });
    const t = await (await c.stream('message/stream', {}, { firstEventMs: 300 })).done;
    expect(t).toMatchObject({
      budgetExceeded: 'first-event',
      closedBy: 'budget',
      closedByServer: false,
      status: 200,
    });
    expect(t.events).toEqual([]);
    expect(t.comments.length).toBeGreaterThan(0);
    expect(t.closedAtMs).toBeGreaterThanOrEqual(290);
    expect(t.closedAtMs).toBeLessThan(LATE_MS);
    expect(t.error).toBeUndefined();
  });

  it('first-event: no response headers at all; stream() itself returns within the budget', async () => {
    const c = await setup(() => undefined);
    const started = performance.now();
    const s = await c.stream('message/stream', {}, { firstEventMs: 250 });
    expect(performance.now() - started).toBeLessThan(LATE_MS);
    const t = await s.done;
    expect(t).toMatchObject({ budgetExceeded: 'first-event', closedBy: 'budget' });
    expect(t.status).toBeUndefined();
    expect(c.exchanges()[0]!.response).toBeUndefined();
  });

  it('idle: one event, then silence', async () => {
    const c = await setup((_req, res) => res.writeHead(200, SSE_HEADERS).write(EVENT));
    const t = await (await c.stream('message/stream', {}, { idleMs: 250 })).done;
    expect(t).toMatchObject({ budgetExceeded: 'idle', closedBy: 'budget', finalIndex: null });
    expect(t.events).toHaveLength(1);
    expect(t.closedAtMs! - t.events[0]!.atMs).toBeGreaterThanOrEqual(240);
    expect(t.closedAtMs! - t.events[0]!.atMs).toBeLessThan(LATE_MS);
  });

  it('total: pings keep the stream from idling, but no final event ever comes', async () => {
    const c = await setup((_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      res.write(EVENT);
      writeForever(res, ': ping\n\n', 40);
    });
    const t = await (await c.stream('message/stream', {}, { idleMs: 200, totalMs: 700 })).done;
    expect(t.budgetExceeded).toBe('total');
    expect(t.closedAtMs).toBeGreaterThanOrEqual(690);
    expect(t.closedAtMs).toBeLessThan(LATE_MS);
    // Past the 200 ms idle budget and ended by the total one: the pings kept it from idling.
    expect(t.comments.length).toBeGreaterThan(0);
  });

  it('bytes: a flood past maxBytes', async () => {
    const big = `data: {"pad":"${'x'.repeat(4000)}"}\n\n`;
    const c = await setup((_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      writeForever(res, big, 5);
    });
    const t = await (await c.stream('message/stream', {}, { maxBytes: 20_000 })).done;
    expect(t.budgetExceeded).toBe('bytes');
    expect(t.bytes).toBeLessThanOrEqual(20_000);
    expect(t.events.length).toBeGreaterThan(0);
  });

  it('close() ends an open stream from the client side', async () => {
    const c = await setup((_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      writeForever(res, EVENT, 30);
    });
    const s = await c.stream('message/stream', {});
    await new Promise((r) => setTimeout(r, 100));
    const t = await s.close();
    expect(t).toMatchObject({ closedBy: 'client', closedByServer: false });
    expect(t.budgetExceeded).toBeUndefined();
    expect(t.events.length).toBeGreaterThan(0);
  });

  it('a refused connection ends the stream with a connect error', async () => {
    const f = await startFixture(() => undefined);
    const url = f.url;
    await f.close();
    const client = io.client({ baseUrl: url, agentId: 'a', auth: {} });
    const t = await (await client.stream('message/stream', {})).done;
    expect(t).toMatchObject({ closedBy: 'error', error: { kind: 'connect' } });
    expect(client.exchanges()[0]!.error?.kind).toBe('connect');
  });
});
