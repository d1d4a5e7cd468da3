import { createServer, request, type IncomingHttpHeaders } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import {
  headersOf,
  jsonOf,
  linkAgent,
  linkServer,
  listen,
  readBody,
  relay,
  sendJson,
  type Listening,
} from '../../../harness/kit/loopback.ts';
import { percentile } from '../../../harness/percentile.ts';
import { request as undiciRequest } from 'undici';

const open: Listening[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((l) => l.close()));
});

async function serve(handler: Parameters<typeof createServer>[1]): Promise<Listening> {
  const l = await listen(createServer(handler));
  open.push(l);
  return l;
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

function send(url: string, body: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers }, (res) => {
      void readBody(res).then((b) =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: b.toString('utf8') }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('the loopback kit', () => {
  it('listens on 127.0.0.1 on a port the system picked, and reads it back', async () => {
    const l = await serve((_req, res) => res.end('ok'));
    expect(l.port).toBeGreaterThan(0);
    expect(l.baseUrl).toBe(`http://127.0.0.1:${l.port}`);
    expect((await send(l.baseUrl, '')).body).toBe('ok');
  });

  it('close() drops a connection the peer holds open, and can be called twice', async () => {
    const l = await serve((_req, res) => res.writeHead(200).write('held'));
    const closed = new Promise<void>((resolve) => {
      request(l.baseUrl, (res) => res.on('close', () => resolve())).end();
    });
    await new Promise((r) => setTimeout(r, 50));
    await Promise.all([l.close(), l.close()]);
    await closed;
    await expect(send(l.baseUrl, '')).rejects.toThrow();
  });

  it('reads a body whole, or fails past a limit, or keeps the first bytes', async () => {
    const seen: string[] = [];
    const l = await serve((req, res) => {
      const limit = Number(req.headers['x-limit'] ?? Infinity);
      const over = req.headers['x-over'] === 'keep' ? 'keep' : 'destroy';
      readBody(req, { limit, over }).then(
        (b) => {
          seen.push(b.toString('utf8'));
          res.end('read');
        },
        (e: Error) => {
          seen.push(`error: ${e.message}`);
          res.destroy();
        },
      );
    });
    await send(l.baseUrl, 'abcdef');
    await send(l.baseUrl, 'abcdef', { 'x-limit': '3', 'x-over': 'keep' });
    await send(l.baseUrl, 'abcdef', { 'x-limit': '3' }).catch(() => undefined);
    expect(seen).toEqual(['abcdef', 'abc', 'error: body over 3 bytes']);
  });

  it('answers JSON with its length and the extra headers asked for', async () => {
    const l = await serve((_req, res) => sendJson(res, 429, { error: 'slow down' }, { 'retry-after': '1' }));
    const a = await send(l.baseUrl, '');
    expect(a.status).toBe(429);
    expect(a.headers['content-type']).toBe('application/json');
    expect(a.headers['content-length']).toBe(String(Buffer.byteLength(a.body)));
    expect(a.headers['retry-after']).toBe('1');
    expect(jsonOf(a.body)).toEqual({ error: 'slow down' });
    expect(jsonOf('not json')).toBeUndefined();
  });

  it('relays method, path, headers and body to the upstream and its answer back, rewritten as asked', async () => {
    const upstream = await serve((req, res) => {
      void readBody(req).then((b) =>
        sendJson(res, 201, {
          method: req.method,
          url: req.url,
          body: b.toString('utf8'),
          headers: headersOf(req),
        }),
      );
    });
    const front = await serve((req, res) => {
      void readBody(req).then((body) =>
        relay(req, res, `${upstream.baseUrl}/ignored-base-path`, {
          body,
          answerHeaders: (h) => ({ ...h, 'x-relayed': 'yes' }),
        }),
      );
    });
    const a = await send(`${front.baseUrl}/a/b?c=1`, '{"x":1}', { 'X-Tenant': 't1' });
    expect(a.status).toBe(201);
    expect(a.headers['x-relayed']).toBe('yes');
    const echoed = jsonOf(a.body) as {
      method: string;
      url: string;
      body: string;
      headers: Record<string, string>;
    };
    expect(echoed).toMatchObject({ method: 'POST', url: '/a/b?c=1', body: '{"x":1}' });
    expect(echoed.headers['x-tenant']).toBe('t1');
    expect(echoed.headers.host).toBe(new URL(upstream.baseUrl).host);
  });

  it('drops the client connection when the upstream cannot be reached', async () => {
    const gone = await serve((_req, res) => res.end());
    const url = gone.baseUrl;
    await gone.close();
    const front = await serve((req, res) => void relay(req, res, url));
    await expect(send(front.baseUrl, '')).rejects.toThrow();
  });
});

describe('percentile', () => {
  it('is the nearest rank of an ascending list, undefined when empty', () => {
    const sorted = [10, 20, 30, 40, 50, 60, 70, 80, 90, 100];
    expect(percentile(sorted, 50)).toBe(50);
    expect(percentile(sorted, 95)).toBe(100);
    expect(percentile(sorted, 0)).toBe(10);
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([], 50)).toBeUndefined();
  });
});

describe('a link between the harness processes', () => {
  it('keeps an idle connection at the server longer than the client does', async () => {
    const l = await listen(linkServer((_req, res) => sendJson(res, 200, { ok: true })));
    open.push(l);
    const agent = linkAgent();
    try {
      for (let call = 0; call < 2; call += 1) {
        const res = await undiciRequest(l.baseUrl, { method: 'POST', body: '{}', dispatcher: agent });
        await res.body.text();
        // The server says how long it keeps an idle connection; the client lets go a quarter in.
        const timeout = Number(/timeout=(\d+)/.exec(String(res.headers['keep-alive']))?.[1]);
        expect(timeout).toBeGreaterThanOrEqual(120);
      }
    } finally {
      await agent.close();
    }
  });
});
