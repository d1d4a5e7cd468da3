// Transport-level behaviour (spec 4, 5, 8, 9; C-03, C-04, C-23, C-28, C-32, C-33, C-38, C-42):
// HTTP statuses always come with a JSON-RPC error body.
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../schemas/error-codes.ts';
import { maxBodyBytes } from '../../reference-server/agents/config.ts';
import { resolveAgentConfigs } from '../../reference-server/agents/config.ts';
import { AGENT_A, KEY, startServer } from './support.ts';

const card = { jsonrpc: '2.0', id: 'h1', method: 'agent/authenticatedExtendedCard' };

describe('4 routes and HTTP methods', () => {
  it('answers unknown paths and other API versions with 404 and -32600 data.path (C-32, C-33)', async () => {
    const h = await startServer();
    for (const path of [
      '/',
      '/api/v2/a2a/agent-a',
      '/api/v1/a2a',
      '/api/v1/a2a/agent-a/extra',
      '/api/v0/a2a/agent-a',
    ]) {
      const response = await fetch(`${h.server.baseUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': KEY },
        body: JSON.stringify(card),
      });
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toBe('application/json');
      const body = (await response.json()) as Record<string, unknown>;
      expect(body).toMatchObject({
        jsonrpc: '2.0',
        id: null,
        error: { code: ERROR_CODES.INVALID_REQUEST, data: { path } },
      });
    }
  });

  it('answers other HTTP methods with 405, Allow: POST, OPTIONS and -32600 (C-32)', async () => {
    const h = await startServer();
    for (const method of ['GET', 'PUT', 'DELETE', 'PATCH']) {
      const response = await fetch(h.url(), { method, headers: { 'x-api-key': KEY } });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST, OPTIONS');
      expect(await response.json()).toMatchObject({ error: { code: ERROR_CODES.INVALID_REQUEST } });
    }
  });

  it('answers an unknown agent with 404 -32011 before checking credentials (C-23)', async () => {
    const h = await startServer();
    for (const headers of [{}, { 'x-api-key': KEY }, { 'x-api-key': 'wrong' }]) {
      const reply = await h.post(card, { agentId: 'nobody', headers });
      expect(reply.status).toBe(404);
      expect(reply.json.error).toEqual({
        code: ERROR_CODES.AGENT_NOT_FOUND,
        message: 'Agent not found',
        data: { agentId: 'nobody' },
      });
    }
  });

  it('requires Content-Type application/json, parameters and case allowed (C-28)', async () => {
    const h = await startServer();
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/jsonx']) {
      const reply = await h.post(card, { headers: { 'content-type': type } });
      expect(reply.status).toBe(415);
      expect(reply.json).toMatchObject({ id: 'h1', error: { code: ERROR_CODES.INVALID_REQUEST } });
    }
    for (const type of ['application/json; charset=utf-8', 'Application/JSON']) {
      const reply = await h.post(card, { headers: { 'content-type': type } });
      expect(reply.status).toBe(200);
      expect(reply.json.result).toBeDefined();
    }
  });
});

describe('8 body size limit (C-42)', () => {
  const agents = [{ ...AGENT_A, capabilities: { fileUpload: { maxFileSize: 1024 } } }];
  const limit = maxBodyBytes(resolveAgentConfigs(agents)[0]!);

  it('computes ceil(maxFileSize*4/3)*8 + 1 MiB', () => {
    expect(limit).toBe(Math.ceil((1024 * 4) / 3) * 8 + 1024 * 1024);
  });

  it('refuses a declared oversized body with 413 and -32600 before reading it', async () => {
    const h = await startServer({ agents });
    const body = JSON.stringify({ ...card, params: { pad: 'x'.repeat(limit) } });
    const response = await fetch(h.url(), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': KEY },
      body,
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({
      error: { code: ERROR_CODES.INVALID_REQUEST, data: { limit } },
    });
  });

  it('reads and discards a refused upload so a client sending it whole gets the 413, not a reset', async () => {
    const h = await startServer({ agents });
    // Tens of megabytes: far more than socket buffers absorb, so an unread upload would be cut.
    const body = JSON.stringify({ ...card, params: { pad: 'x'.repeat(limit * 10) } });
    for (let i = 0; i < 3; i += 1) {
      const response = await fetch(h.url(), {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': KEY },
        body,
      });
      expect(response.status).toBe(413);
      await response.arrayBuffer();
    }
  });

  it('refuses a chunked oversized body with 413 while it streams in', async () => {
    const h = await startServer({ agents });
    const { hostname, port } = new URL(h.server.baseUrl);
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        {
          hostname,
          port,
          method: 'POST',
          path: '/api/v1/a2a/agent-a',
          headers: { 'content-type': 'application/json', 'x-api-key': KEY },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      const chunk = 'x'.repeat(64 * 1024);
      // Writes far past the limit unless the server answers (and closes) first.
      let sent = 0;
      const pump = (): void => {
        while (sent < limit * 4) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once('drain', pump);
        }
        req.end();
      };
      pump();
    });
    expect(status).toBe(413);
  });
});

describe('5 CORS (C-38)', () => {
  it('sends Access-Control-Allow-Origin * on every response, errors included, by default', async () => {
    const h = await startServer();
    const ok = await h.post(card, { headers: { origin: 'https://app.example' } });
    expect(ok.headers.get('access-control-allow-origin')).toBe('*');
    expect(ok.headers.get('access-control-expose-headers')).toBe('Retry-After, WWW-Authenticate');
    const unauthorized = await h.post(card, {
      headers: { origin: 'https://app.example', 'x-api-key': 'bad' },
    });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get('access-control-allow-origin')).toBe('*');
    const noOrigin = await h.post(card);
    expect(noOrigin.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('answers preflights with 204 without credentials', async () => {
    const h = await startServer();
    const response = await fetch(h.url(), {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-methods')).toBe('POST, OPTIONS');
    expect(response.headers.get('access-control-allow-headers')).toBe(
      'Content-Type, Authorization, x-api-key, Accept',
    );
    expect(response.headers.get('access-control-max-age')).toBe('600');
  });

  it('echoes a listed origin and omits the header for others', async () => {
    const h = await startServer({ corsOrigins: ['https://ok.example'] });
    const ok = await h.post(card, { headers: { origin: 'https://ok.example' } });
    expect(ok.headers.get('access-control-allow-origin')).toBe('https://ok.example');
    expect(ok.headers.get('vary')).toBe('Origin');
    const other = await h.post(card, { headers: { origin: 'https://evil.example' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    expect(other.json.result).toBeDefined();
  });
});

describe('8 rate limit (C-04)', () => {
  it('answers request N+1 of the window with 429, Retry-After and -32012 {limit, retryAfterSeconds}', async () => {
    const h = await startServer({ agents: [{ ...AGENT_A, limits: { requestsPerMinute: 3 } }] });
    for (let i = 0; i < 3; i += 1) expect((await h.post(card)).status).toBe(200);
    const limited = await h.post(card);
    expect(limited.status).toBe(429);
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(59);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.json).toEqual({
      jsonrpc: '2.0',
      id: 'h1',
      error: {
        code: ERROR_CODES.RATE_LIMITED,
        message: 'Rate limit exceeded',
        data: { limit: 3, retryAfterSeconds: retryAfter },
      },
    });
  });

  it('counts per agent across credentials, and not 401 or 404 requests', async () => {
    const h = await startServer({
      agents: [
        { ...AGENT_A, limits: { requestsPerMinute: 2 } },
        { id: 'agent-b', apiKeys: ['test-key-b'] },
      ],
    });
    for (let i = 0; i < 5; i += 1)
      expect((await h.post(card, { headers: { 'x-api-key': 'bad' } })).status).toBe(401);
    expect((await h.post(card)).status).toBe(200);
    const bearer = await fetch(h.url(), {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer test-token-a' },
      body: JSON.stringify(card),
    });
    expect(bearer.status).toBe(200);
    expect((await h.post(card)).status).toBe(429);
    expect((await h.post(card, { agentId: 'agent-b' })).status).toBe(200);
  });
});
