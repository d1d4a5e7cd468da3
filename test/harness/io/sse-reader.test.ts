// SSE framing as the reader records it (spec 4.2, rulings C-26, C-31): events with arrival times,
// comments, multi-line data, event:/id: fields, bytes after the final event, JSON answers before the
// stream started, and the evidence kept on the client.
import { describe, expect, it } from 'vitest';
import { redact } from '../../../core/redaction.ts';
import { fixtureClients } from '../../support/fixture-client.ts';
import { writeSlowly } from './fixture-server.ts';

const io = fixtureClients((url) => ({ baseUrl: url, agentId: 'a', auth: { apiKey: 'sse-key-1234' } }));
const { setup } = io;

const SSE_HEADERS = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' };

function frame(state: string, final: boolean): string {
  return `data: ${JSON.stringify({ jsonrpc: '2.0', id: 'r1', result: { id: 't1', status: { state }, final } })}\n\n`;
}

describe('a well-formed stream', () => {
  it('records every event with its arrival time, the final index and the server close', async () => {
    const c = await setup((_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      writeSlowly(
        res,
        [frame('submitted', false), ': ping\n\n', frame('working', false), frame('completed', true)],
        40,
        () => res.end(),
      );
    });
    const s = await c.stream('message/stream', { message: {} }, { id: 'r1' });
    expect(s.transcript.status).toBe(200);
    const t = await s.done;
    expect(io.fixture().seen[0]!.headers.accept).toBe('text/event-stream');
    expect(t).toMatchObject({
      status: 200,
      contentType: 'text/event-stream',
      isEventStream: true,
      finalIndex: 2,
    });
    expect(
      t.events.map((e) => (e.json as { result: { status: { state: string } } }).result.status.state),
    ).toEqual(['submitted', 'working', 'completed']);
    expect(t.events.map((e) => e.isFinal)).toEqual([false, false, true]);
    expect(t.events[0]).toMatchObject({
      hasEventField: false,
      hasIdField: false,
      dataLines: 1,
      multiLineData: false,
    });
    expect(t.events[1]!.atMs).toBeGreaterThan(t.events[0]!.atMs + 30);
    expect(t.comments).toHaveLength(1);
    expect(t.comments[0]!.text).toBe('ping');
    expect(t.comments[0]!.atMs).toBeGreaterThan(t.events[0]!.atMs);
    expect(t).toMatchObject({ afterFinal: [], afterFinalBytes: 0, closedByServer: true, closedBy: 'server' });
    expect(t.closedAtMs).toBeGreaterThanOrEqual(t.events[2]!.atMs);
    expect(t.lineEndings).toEqual(['lf']);
    expect(t.raw).toContain(': ping\n\n');
    expect(t.incompleteTail).toBe('');
  });

  it('flags multi-line data and event:/id: fields, including empty ones the parser drops', async () => {
    const c = await setup((_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      res.end(
        'data: {"jsonrpc":"2.0",\ndata: "id":"r1"}\n\n' +
          'event: update\nid: 7\nretry: 1000\ndata: {"n":2}\n\n' +
          'event:\ndata: {"n":3}\n\n',
      );
    });
    const t = await (await c.stream('message/stream', {})).done;
    expect(t.events).toHaveLength(3);
    expect(t.events[0]).toMatchObject({
      dataLines: 2,
      multiLineData: true,
      json: { jsonrpc: '2.0', id: 'r1' },
    });
    expect(t.events[1]).toMatchObject({ hasEventField: true, hasIdField: true, event: 'update', id: '7' });
    expect(t.events[1]!.otherFields).toEqual(['retry']);
    expect(t.events[2]).toMatchObject({ hasEventField: true, hasIdField: false });
    expect(t.events[2]!.event).toBeUndefined();
  });

  it('parses CRLF framing, even with CR and LF split across chunks', async () => {
    const c = await setup((_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      writeSlowly(res, ['data: {"a":1}\r', '\n\r', '\n'], 30, () => res.end());
    });
    const t = await (await c.stream('message/stream', {})).done;
    expect(t.events.map((e) => e.json)).toEqual([{ a: 1 }]);
    expect(t.lineEndings).toEqual(['crlf']);
  });

  it('yields events through the async iterator as they arrive', async () => {
    const c = await setup((_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      writeSlowly(res, [frame('submitted', false), frame('completed', true)], 150, () => res.end());
    });
    const s = await c.stream('message/stream', {});
    const seen: Array<{ index: number; streamEnded: boolean }> = [];
    for await (const ev of s.events())
      seen.push({ index: ev.index, streamEnded: s.transcript.closedAtMs !== undefined });
    expect(seen).toEqual([
      { index: 0, streamEnded: false },
      { index: 1, streamEnded: false },
    ]);
    const again: number[] = [];
    for await (const ev of s.events()) again.push(ev.index);
    expect(again).toEqual([0, 1]);
  });
});

describe('after the final event', () => {
  it('records events and bytes sent after the final one, then closes after the short wait', async () => {
    const stray = 'data: {"stray":true}\n\n';
    const c = await setup((_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      writeSlowly(res, [frame('completed', true), stray, ': ping\n\n'], 30);
    });
    const t = await (await c.stream('message/stream', {})).done;
    expect(t.finalIndex).toBe(0);
    expect(t.afterFinal.map((e) => e.json)).toEqual([{ stray: true }]);
    expect(t.afterFinalBytes).toBe(Buffer.byteLength(stray + ': ping\n\n'));
    expect(t.afterFinalText).toBe(stray + ': ping\n\n');
    expect(t).toMatchObject({ closedByServer: false, closedBy: 'client' });
    expect(t.closedAtMs! - t.events[0]!.atMs).toBeGreaterThanOrEqual(290);
    expect(t.closedAtMs! - t.events[0]!.atMs).toBeLessThan(1000);
    expect(t.budgetExceeded).toBeUndefined();
  });

  it('closes at once with closeOnFinal', async () => {
    const c = await setup((_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      res.write(frame('completed', true));
    });
    const t = await (await c.stream('message/stream', {}, { closeOnFinal: true })).done;
    expect(t).toMatchObject({ finalIndex: 0, closedBy: 'client', closedByServer: false });
    expect(t.closedAtMs! - t.events[0]!.atMs).toBeLessThan(50);
  });

  it('treats a JSON-RPC error event as the end of the stream (C-26)', async () => {
    const c = await setup((_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      res.end(
        `${frame('working', false)}data: {"jsonrpc":"2.0","id":"r1","error":{"code":-32603,"message":"x"}}\n\n`,
      );
    });
    const t = await (await c.stream('message/stream', {})).done;
    expect(t.finalIndex).toBe(1);
    expect(t.events[1]).toMatchObject({ isError: true, isFinal: false });
  });
});

describe('non-stream answers and broken streams', () => {
  it('carries the JSON of an application/json answer instead of events (C-26)', async () => {
    const body = { jsonrpc: '2.0', id: 'r1', error: { code: -32602, message: 'Invalid params' } };
    const c = await setup((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body)),
    );
    const t = await (await c.stream('message/stream', {})).done;
    expect(t).toMatchObject({ isEventStream: false, json: body, events: [], closedByServer: true });
  });

  it('keeps an event left without its blank line as evidence, undispatched', async () => {
    const c = await setup((_req, res) => res.writeHead(200, SSE_HEADERS).end('data: {"a":1}\n'));
    const t = await (await c.stream('message/stream', {})).done;
    expect(t.events).toEqual([]);
    expect(t.incompleteTail).toBe('data: {"a":1}\n');
  });

  it('records a non-JSON event with its parse error and a wrong content type', async () => {
    const c = await setup((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/plain' }).end('data: hello\n\n'),
    );
    const t = await (await c.stream('message/stream', {})).done;
    expect(t.isEventStream).toBe(false);
    expect(t.events[0]).toMatchObject({ data: 'hello', isFinal: false });
    expect(t.events[0]!.parseError).toMatch(/JSON/);
  });

  it('records a reset mid-stream as an error', async () => {
    const c = await setup((_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      res.write(frame('working', false));
      setTimeout(() => res.socket?.resetAndDestroy(), 30);
    });
    const t = await (await c.stream('message/stream', {})).done;
    expect(t.events).toHaveLength(1);
    expect(t).toMatchObject({ closedBy: 'error', closedByServer: false, error: { kind: 'reset' } });
  });

  it('records the stream as an exchange on the client, as the wire carried it, secrets counted', async () => {
    const c = await setup((req, res) => {
      res.writeHead(200, SSE_HEADERS);
      res.end(`data: {"echo":"${String(req.headers['x-api-key'])}"}\n\n`);
    });
    const t = await (await c.stream('message/stream', {})).done;
    expect(t.events[0]!.json).toEqual({ echo: 'sse-key-1234' });
    expect(t.raw).toBe('data: {"echo":"sse-key-1234"}\n\n');
    const [ex] = c.exchanges();
    expect(ex).toMatchObject({
      kind: 'stream',
      transcript: t,
      response: { status: 200, body: t.raw, redactions: 1 },
    });
    const shown = redact(c.exchanges(), c.secrets());
    expect(JSON.stringify(shown)).not.toContain('sse-key-1234');
    expect(shown[0]!.transcript!.events[0]!.json).toEqual({ echo: '[redacted]' });
  });
});
