// A loopback proxy that holds each request for a while before forwarding it: the slow LLM agent
// (1.5 s before every task-creating request) and the remote link (40 ms on every request) of
// `npm run field`; it can also refuse requests as a rate-limited agent does (C-04). Bodies and SSE
// streams are relayed as they come; nothing else is changed.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import { jsonOf, listen, readBody, relay, sendJson, pause } from '../../harness/kit/loopback.ts';

export interface DelayProxy {
  baseUrl: string;
  close(): Promise<void>;
}

/** The JSON-RPC method of a request, when it has one. */
function methodOf(json: unknown): string | undefined {
  const method = (json as { method?: unknown } | undefined)?.method;
  return typeof method === 'string' ? method : undefined;
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
  const id = (jsonOf(body) as { id?: unknown } | undefined)?.id ?? null;
  sendJson(
    res,
    429,
    {
      jsonrpc: '2.0',
      id,
      error: { code: -32012, message: 'Rate limit exceeded', data: { limit: 60, retryAfterSeconds: 1 } },
    },
    { 'retry-after': '1' },
  );
}

/** Starts the proxy on 127.0.0.1:0 in front of `upstream`. */
export async function startDelayProxy(upstream: string, opts: ProxyOptions): Promise<DelayProxy> {
  let seen = 0;
  const server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      seen += 1;
      if (opts.refuse?.(seen) === true) {
        refuse(res, body);
        return;
      }
      const json = jsonOf(body);
      const ms = opts.delayMs?.(methodOf(json), json, req.headers) ?? 0;
      if (ms > 0) await pause(ms);
      if (res.destroyed || req.socket.destroyed) return;
      await relay(req, res, upstream, { body });
    })().catch(() => res.destroy());
  });
  const { baseUrl, close } = await listen(server);
  return { baseUrl, close };
}
