// The target client's bounds: a silent server, a server trickling bytes forever, a 100 MB body and a
// reset mid-response all end within budget as recorded errors, never as a hang, a throw or an OOM.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { fixtureClients } from '../../support/fixture-client.ts';
import { writeForever } from './fixture-server.ts';

const { setup } = fixtureClients((url) => ({ baseUrl: url, agentId: 'a', auth: { apiKey: 'k' } }));

describe('deadlines', () => {
  it('times out a server that never answers, within the budget', async () => {
    const c = await setup(() => undefined, { timeoutMs: 300 });
    const ex = await c.rpc('tasks/get', {});
    expect(ex.error?.kind).toBe('timeout');
    expect(ex.error?.message).toContain('waiting for response headers');
    expect(ex.response).toBeUndefined();
    expect(ex.timings.totalMs).toBeGreaterThanOrEqual(290);
    expect(ex.timings.totalMs).toBeLessThan(1000);
  });

  it('cuts off a server trickling body bytes forever by the total deadline, not an idle timer', async () => {
    const c = await setup(
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"jsonrpc":"2.0",');
        // A byte every 20 ms resets any idle timer; only a total deadline ends this.
        writeForever(res, ' ', 20);
      },
      { timeoutMs: 400 },
    );
    const ex = await c.rpc('tasks/get', {});
    expect(ex.error?.kind).toBe('timeout');
    expect(ex.error?.message).toContain('reading the body');
    expect(ex.response?.status).toBe(200);
    expect(ex.response?.bodyBytes).toBeGreaterThan(18);
    expect(ex.response?.parseError).toBe('response incomplete; body not parsed');
    expect(ex.timings.totalMs).toBeLessThan(1200);
  });

  it('applies a per-request timeout override', async () => {
    const c = await setup(() => undefined, { timeoutMs: 5000 });
    const ex = await c.rpc('tasks/get', {}, { timeoutMs: 150 });
    expect(ex.error?.kind).toBe('timeout');
    expect(ex.timings.totalMs).toBeLessThan(1000);
  });
});

describe('oversized and broken bodies', () => {
  it('stops reading a 100 MB body at the 16 MiB cap without buffering the rest', async () => {
    const total = 100 * 1024 * 1024;
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    let produced = 0;
    const c = await setup(
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(total) });
        // Produced lazily under backpressure: `produced` shows how much the client pulled.
        const source = Readable.from(
          (function* () {
            while (produced < total) {
              produced += chunk.length;
              yield chunk;
            }
          })(),
        );
        source.pipe(res);
        res.on('close', () => source.destroy());
      },
      { timeoutMs: 20_000 },
    );
    const ex = await c.rpc('tasks/get', {});
    expect(ex.error?.kind).toBe('body-too-large');
    expect(ex.response?.bodyBytes).toBe(16 * 1024 * 1024);
    expect(ex.response?.truncated).toBe(true);
    expect(ex.response?.body.length).toBeLessThan(256 * 1024 + 100);
    expect(ex.response?.body).toMatch(/…\[truncated \d+ chars\]$/);
    expect(ex.response?.json).toBeUndefined();
    expect(produced).toBeLessThan(64 * 1024 * 1024);
  });

  it('honours a smaller maxBodyBytes', async () => {
    const c = await setup((_req, res) => res.writeHead(200).end('x'.repeat(5000)), { maxBodyBytes: 1000 });
    const ex = await c.rpc('tasks/get', {});
    expect(ex.error?.kind).toBe('body-too-large');
    expect(ex.response?.bodyBytes).toBe(1000);
  });

  it('sends a read once more when the connection closes before any answer, never a call that may act', async () => {
    let seen = 0;
    const methods: string[] = [];
    const c = await setup((req, res, body) => {
      seen += 1;
      const { id, method } = JSON.parse(body.toString()) as { id: string; method: string };
      methods.push(method);
      // The first request of each method: the connection closes without a byte of an answer.
      if (methods.filter((m) => m === method).length === 1) return void req.socket.destroy();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id, result: { ok: true } }));
    });
    const read = await c.rpc('tasks/get', { taskId: 't' });
    expect(read.response?.status).toBe(200);
    expect(methods).toEqual(['tasks/get', 'tasks/get']);
    const [first, second] = c.exchanges().slice(-2);
    expect(first!.error?.kind).toBe('reset');
    expect(first!.error?.message).toContain('a read, sent again');
    expect(second).toBe(read);
    const cancel = await c.rpc('tasks/cancel', { taskId: 't' });
    expect(cancel.error?.kind).toBe('reset');
    expect(cancel.response).toBeUndefined();
    expect(methods.filter((m) => m === 'tasks/cancel')).toHaveLength(1);
    expect(seen).toBe(3);
  });

  it('records a connection reset mid-response with the partial body', async () => {
    const c = await setup((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"jsonrpc":"2.0","id":');
      setTimeout(() => res.socket?.resetAndDestroy(), 30);
    });
    const ex = await c.rpc('tasks/get', {});
    expect(ex.error?.kind).toBe('cut-short');
    expect(ex.response?.status).toBe(200);
    expect(ex.response?.body).toBe('{"jsonrpc":"2.0","id":');
    expect(ex.response?.truncated).toBe(true);
  });

  it('records a close before any response as a reset', async () => {
    const c = await setup((req) => req.socket.destroy());
    const ex = await c.rpc('tasks/get', {});
    expect(ex.response).toBeUndefined();
    expect(ex.error?.kind).toBe('reset');
  });
});

describe('close()', () => {
  it('aborts requests in flight', async () => {
    const c = await setup(() => undefined, { timeoutMs: 10_000 });
    const pending = c.rpc('tasks/get', {});
    await new Promise((r) => setTimeout(r, 50));
    await c.close();
    const ex = await pending;
    expect(ex.error).toBeDefined();
    expect(ex.timings.totalMs).toBeLessThan(2000);
  });
});
