// A loopback proxy that holds each request for a while before forwarding it: the slow LLM agent
// (1.5 s before every task-creating request) and the remote link (40 ms on every request) of
// `npm run field`; it can also refuse requests as a rate-limited agent does (C-04). Bodies and SSE
// streams are relayed as they come; nothing else is changed.
import {
  createServer,
  request,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

export interface DelayProxy {
  baseUrl: string;
  close(): Promise<void>;
}

/** A request body's JSON, when it is JSON. */
function jsonOf(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/** The JSON-RPC method of a request, when it has one. */
function methodOf(json: unknown): string | undefined {
  const method = (json as { method?: unknown } | undefined)?.method;
  return typeof method === 'string' ? method : undefined;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export interface ProxyOptions {
  /** How long to hold a request (its JSON-RPC method, parsed body and headers) before forwarding it. */
  delayMs?: (method: string | undefined, body: unknown, headers: IncomingHttpHeaders) => number;
  /**
   * Answer the n-th request (from 1) as a rate-limited agent would (C-04: HTTP 429, Retry-After 1,
   * -32012) instead of forwarding it.
   */
  refuse?: (n: number) => boolean;
}

function refuse(res: ServerResponse, body: Buffer): void {
  let id: unknown = null;
  try {
    id = (JSON.parse(body.toString('utf8')) as { id?: unknown }).id ?? null;
  } catch {
    id = null;
  }
  res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' });
  res.end(
    JSON.stringify({
      jsonrpc: '2.0',
      id,
      error: { code: -32012, message: 'Rate limit exceeded', data: { limit: 60, retryAfterSeconds: 1 } },
    }),
  );
}

/** Starts the proxy on 127.0.0.1:0 in front of `upstream`. */
export async function startDelayProxy(upstream: string, opts: ProxyOptions): Promise<DelayProxy> {
  const target = new URL(upstream);
  let seen = 0;
  const server: Server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      seen += 1;
      if (opts.refuse?.(seen) === true) {
        refuse(res, body);
        return;
      }
      const json = jsonOf(body);
      const ms = opts.delayMs?.(methodOf(json), json, req.headers) ?? 0;
      if (ms > 0) await new Promise((r) => setTimeout(r, ms));
      if (res.destroyed || req.socket.destroyed) return;
      const up = request(
        {
          host: target.hostname,
          port: target.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: target.host },
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      up.on('error', () => res.destroy());
      res.on('close', () => up.destroy());
      up.end(body);
    })().catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
