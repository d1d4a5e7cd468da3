// The target client's request building (spec 2.1 envelope, spec 4 path, spec 5 credentials) and its
// recording of well-formed and odd responses (HTML, invalid UTF-8, wrong Content-Type, redirects),
// and when a request is told it left.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { redact } from '../../../core/redaction.ts';
import { Governor } from '../../../harness/io/traffic/governor.ts';
import { basePathOf } from '../../../harness/io/target/request-spec.ts';
import { fixtureClients } from '../../support/fixture-client.ts';
import { startFixture, type Handler } from './fixture-server.ts';

// The base URL ends with '/': the client must not double the slash before the spec 4 path.
const io = fixtureClients((url) => ({ baseUrl: `${url}/`, agentId: 'agent-1', auth: { apiKey: 'k-1' } }));
const { setup } = io;

const jsonReply: Handler = (_req, res, body) => {
  let id: unknown = null;
  try {
    id = (JSON.parse(body.toString()) as { id?: unknown }).id ?? null;
  } catch {
    // A deliberately malformed body: answer with id null.
  }
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', id, result: { ok: true } }));
};

describe('rpc envelope and headers', () => {
  it('POSTs a JSON-RPC 2.0 envelope with a fresh string id to /api/v1/a2a/{agentId}', async () => {
    const c = await setup(jsonReply);
    const a = await c.rpc('tasks/get', { taskId: 't1' });
    const b = await c.rpc('tasks/get', { taskId: 't1' });
    const sent = io.fixture().seen.map((s) => JSON.parse(s.body.toString()) as Record<string, unknown>);
    expect(io.fixture().seen[0]).toMatchObject({ method: 'POST', url: '/api/v1/a2a/agent-1' });
    expect(io.fixture().seen[0]!.headers).toMatchObject({
      'content-type': 'application/json',
      accept: 'application/json',
      'x-api-key': 'k-1',
    });
    expect(sent[0]).toEqual({
      jsonrpc: '2.0',
      id: sent[0]!.id,
      method: 'tasks/get',
      params: { taskId: 't1' },
    });
    expect(typeof sent[0]!.id).toBe('string');
    expect(sent[0]!.id).not.toBe(sent[1]!.id);
    expect(a.response?.json).toEqual({ jsonrpc: '2.0', id: sent[0]!.id, result: { ok: true } });
    expect(a.request.json).toEqual(sent[0]);
    expect(b.id).toBe('ex-2');
    expect(c.exchanges().map((e) => e.id)).toEqual(['ex-1', 'ex-2']);
  });

  it('honours id, omitId, envelope, params absence, header removal, rawBody, path, agentId and httpMethod', async () => {
    const c = await setup(jsonReply);
    await c.rpc('agent/authenticatedExtendedCard', undefined, { id: 42 });
    await c.rpc('tasks/get', { taskId: 'x' }, { omitId: true, envelope: { jsonrpc: '1.0' } });
    await c.rpc('tasks/get', {}, { headers: { 'X-Api-Key': null, Authorization: 'Bearer other' } });
    await c.rpc('ignored', undefined, { rawBody: '{not json', path: '/api/v2/a2a/agent-1' });
    await c.rpc('tasks/get', {}, { agentId: 'agent 2', httpMethod: 'PUT' });
    const [s0, s1, s2, s3, s4] = io.fixture().seen;
    expect(JSON.parse(s0!.body.toString())).toEqual({
      jsonrpc: '2.0',
      id: 42,
      method: 'agent/authenticatedExtendedCard',
    });
    expect(JSON.parse(s1!.body.toString())).toEqual({
      jsonrpc: '1.0',
      method: 'tasks/get',
      params: { taskId: 'x' },
    });
    expect(s2!.headers['x-api-key']).toBeUndefined();
    expect(s2!.headers.authorization).toBe('Bearer other');
    expect(s3!.body.toString()).toBe('{not json');
    expect(s3!.url).toBe('/api/v2/a2a/agent-1');
    expect(s4).toMatchObject({ method: 'PUT', url: '/api/v1/a2a/agent%202' });
  });

  it('keeps the path of a base URL (C-57): every request goes under it, with or without a trailing slash', async () => {
    await (await setup(jsonReply)).rpc('tasks/get', {});
    for (const base of ['/gw/a2a', '/gw/a2a/']) {
      const c = io.client({
        baseUrl: `${io.fixture().url}${base}`,
        agentId: 'agent-1',
        auth: { apiKey: 'k-1' },
      });
      await c.rpc('tasks/get', {});
      await c.rpc('tasks/get', {}, { path: '/api/v2/a2a/agent-1' });
      await c.raw({ path: '/nowhere' });
    }
    expect(io.fixture().seen.map((s) => s.url)).toEqual([
      '/api/v1/a2a/agent-1',
      ...['/gw/a2a/api/v1/a2a/agent-1', '/gw/a2a/api/v2/a2a/agent-1', '/gw/a2a/nowhere'],
      ...['/gw/a2a/api/v1/a2a/agent-1', '/gw/a2a/api/v2/a2a/agent-1', '/gw/a2a/nowhere'],
    ]);
    expect([basePathOf('http://h:1'), basePathOf('http://h:1/'), basePathOf('https://h/gw/a2a//')]).toEqual([
      '',
      '',
      '/gw/a2a',
    ]);
  });

  it('raw() sends exactly the given request, credentials only on demand', async () => {
    const c = await setup((_req, res) => res.writeHead(204).end());
    const ex = await c.raw({ method: 'OPTIONS', headers: { Origin: 'http://example.test' } });
    await c.raw({ method: 'POST', path: '/nowhere', body: 'x', auth: true });
    expect(io.fixture().seen[0]!.headers.origin).toBe('http://example.test');
    expect(io.fixture().seen[0]!.headers['x-api-key']).toBeUndefined();
    expect(io.fixture().seen[1]).toMatchObject({ method: 'POST', url: '/nowhere' });
    expect(io.fixture().seen[1]!.headers['x-api-key']).toBe('k-1');
    expect(ex.response).toMatchObject({ status: 204, body: '', parseError: 'empty body' });
  });
});

describe('odd responses are recorded, never thrown', () => {
  it('records an HTML body with its parse error (a 502 page: a gateway fault)', async () => {
    const c = await setup((_req, res) =>
      res.writeHead(502, { 'content-type': 'text/html' }).end('<h1>Bad</h1>'),
    );
    const ex = await c.rpc('tasks/get', {});
    expect(ex.error?.kind).toBe('gateway');
    expect(ex.response).toMatchObject({ status: 502, body: '<h1>Bad</h1>', invalidUtf8: false });
    expect(ex.response?.headers['content-type']).toBe('text/html');
    expect(ex.response?.json).toBeUndefined();
    expect(ex.response?.parseError).toMatch(/JSON/);
  });

  it('flags invalid UTF-8 and does not parse it', async () => {
    const bytes = Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]);
    const c = await setup((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(bytes),
    );
    const ex = await c.rpc('tasks/get', {});
    expect(ex.response).toMatchObject({
      invalidUtf8: true,
      parseError: 'body is not valid UTF-8',
      bodyBytes: 10,
    });
    expect(ex.response?.body).toContain('\uFFFD');
  });

  it('parses JSON served with a wrong Content-Type and keeps the header as evidence', async () => {
    const c = await setup((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('{"a":1}'));
    const ex = await c.rpc('tasks/get', {});
    expect(ex.response?.json).toEqual({ a: 1 });
    expect(ex.response?.headers['content-type']).toBe('text/plain');
  });

  it('does not follow a redirect', async () => {
    const c = await setup((req, res) => {
      if (req.url === '/elsewhere') res.writeHead(200).end('followed');
      else res.writeHead(307, { location: '/elsewhere' }).end();
    });
    const ex = await c.rpc('tasks/get', {});
    expect(ex.response?.status).toBe(307);
    expect(ex.response?.headers.location).toBe('/elsewhere');
    expect(io.fixture().seen.map((s) => s.url)).toEqual(['/api/v1/a2a/agent-1']);
  });

  it('records a request undici refuses to send (invalid header value) instead of throwing', async () => {
    const c = await setup(jsonReply);
    const ex = await c.rpc('tasks/get', {}, { headers: { 'x-bad': 'a\r\nb' } });
    expect(ex.error?.kind).toBe('other');
    expect(ex.response).toBeUndefined();
    expect(io.fixture().seen).toEqual([]);
  });

  it('records a refused connection as a connect error', async () => {
    const f = await startFixture(jsonReply);
    const url = f.url;
    await f.close();
    const client = io.client({ baseUrl: url, agentId: 'a', auth: {}, timeoutMs: 2000 });
    const ex = await client.rpc('tasks/get', {});
    expect(ex.response).toBeUndefined();
    expect(ex.error).toMatchObject({ kind: 'connect', code: 'ECONNREFUSED' });
  });
});

describe('secrets in evidence', () => {
  const key = 'api-KEY-0001';
  const token = 'bearer-TOKEN-0002';
  const configured = 'configured-SECRET-0003';

  it("records what the wire carried, for the checks to compare; redact() with the client's secrets hides them", async () => {
    const echo: Handler = (req, res, body) => {
      res.writeHead(200, {
        'content-type': 'application/json',
        'x-echo-key': String(req.headers['x-api-key']),
      });
      res.end(JSON.stringify({ echoed: body.toString(), auth: req.headers.authorization }));
    };
    const client = await setup(echo, { auth: { apiKey: key, bearer: token }, secrets: [configured] });
    const fixture = io.fixture();
    const ex = await client.rpc('message/send', { note: `mentions ${configured} and ${key}` });
    expect(fixture.seen[0]!.headers['x-api-key']).toBe(key);
    expect(fixture.seen[0]!.headers.authorization).toBe(`Bearer ${token}`);
    // A check compares the values as sent and answered: redaction never changes a verdict.
    expect(ex.request.headers['x-api-key']).toBe(key);
    expect((ex.response?.json as { auth: string }).auth).toBe(`Bearer ${token}`);
    expect(ex.response?.redactions).toBeGreaterThanOrEqual(4);
    const [shown] = redact(client.exchanges(), client.secrets());
    expect(shown!.request.headers['x-api-key']).toBe('[redacted]');
    expect(shown!.request.headers.authorization).toBe('Bearer [redacted]');
    expect(shown!.response?.headers['x-echo-key']).toBe('[redacted]');
    expect((shown!.response?.json as { auth: string }).auth).toBe('Bearer [redacted]');
    const evidence = JSON.stringify(shown);
    for (const secret of [key, token, configured]) expect(evidence).not.toContain(secret);
  });

  it('knows what addSecrets() adds, never the webhook secret or header values the harness configures', async () => {
    const client = await setup((_req, res, body) => res.writeHead(200).end(body), { auth: {} });
    const config = {
      url: 'http://x.test/h',
      secret: 'whsec-made-up-1',
      headers: { 'X-Tenant': 'conformance' },
    };
    await client.rpc('tasks/pushNotificationConfig/set', { config });
    client.addSecrets('later-secret-5');
    await client.rpc('tasks/get', { taskId: 'later-secret-5' });
    const evidence = JSON.stringify(redact(client.exchanges(), client.secrets()));
    expect(client.secrets()).toEqual(['later-secret-5']);
    expect(evidence).not.toContain('later-secret-5');
    // Made up by the harness, so no secret: readable evidence (a signature can be checked by hand).
    expect(evidence).toContain('conformance');
    expect(evidence).toContain('whsec-made-up-1');
  });

  it('cuts a long recorded body before a secret it would cut in two', async () => {
    const client = await setup((_req, res) => res.writeHead(200).end(`${'x '.repeat(20)}${key} tail`), {
      auth: { apiKey: key },
      recordBodyChars: 45,
    });
    const ex = await client.raw({ method: 'GET' });
    expect(ex.response?.body).toMatch(/^(x ){20}…\[truncated/);
    expect(ex.response?.body).not.toContain(key.slice(0, 3));
  });
});

describe('onSent', () => {
  it('is told when the request leaves, after its wait for a task slot, not when it was asked', async () => {
    const governor = new Governor({ pace: null, concurrency: 8, taskCap: 1 });
    const c = await setup(
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"jsonrpc":"2.0","id":"x","result":{"id":"t","status":{"state":"completed"}}}');
      },
      { governor },
    );
    // Another check holds the agent's one task slot.
    const release = await governor.holdTask({ owner: {} });
    let sentAt: number | undefined;
    const asked = Date.now();
    const message = { role: 'user', messageId: randomUUID(), parts: [{ type: 'text', text: 'hi' }] };
    const answer = c.rpc(
      'message/send',
      { message },
      {
        onSent: () => {
          sentAt = Date.now();
        },
      },
    );
    await new Promise((r) => setTimeout(r, 200));
    expect(sentAt).toBeUndefined();
    expect(io.fixture().seen).toHaveLength(0);
    release();
    const ex = await answer;
    expect(ex.response?.status).toBe(200);
    expect(sentAt! - asked).toBeGreaterThanOrEqual(190);
    expect(sentAt!).toBeLessThanOrEqual(Date.parse(ex.timings.startedAt) + 5);
  });
});
