// The field proxy of `npm run field`: a loopback proxy that holds each request for a while before
// forwarding it (the slow LLM agent, 1.5 s before every task-creating request; the remote link, 40 ms
// on every request), refuses requests as a rate-limited agent does (C-04), and plays the front of a
// deployed agent (front.ts: a cold start, a rolling deploy, a throttle, resets, answers cut short).
// Bodies and SSE streams are relayed as they come; nothing else is changed.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import {
  forward,
  jsonOf,
  listen,
  pipeAnswer,
  readBody,
  relay,
  sendJson,
  pause,
} from '../../harness/kit/loopback.ts';
import { answerAsFront, Front, type FrontOptions } from './front.ts';

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
  /** The infrastructure in front of the agent (front.ts). */
  front?: FrontOptions;
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

/**
 * Relays a complete answer's headers and half its body, then closes the connection: an answer cut
 * short. An event stream (no length to fall short of) is relayed whole.
 */
async function cutShort(answer: IncomingMessage, res: ServerResponse): Promise<void> {
  if (String(answer.headers['content-type'] ?? '').startsWith('text/event-stream')) {
    pipeAnswer(answer, res);
    return;
  }
  const body = await readBody(answer);
  const headers = { ...answer.headers, 'content-length': String(body.length) };
  delete headers['transfer-encoding'];
  res.writeHead(answer.statusCode ?? 502, headers);
  res.write(body.subarray(0, Math.floor(body.length / 2)));
  res.socket?.destroy();
}

/** Starts the proxy on 127.0.0.1:0 in front of `upstream`. */
export async function startDelayProxy(upstream: string, opts: ProxyOptions): Promise<DelayProxy> {
  let seen = 0;
  const front = opts.front === undefined ? undefined : new Front(opts.front);
  const server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      seen += 1;
      if (opts.refuse?.(seen) === true) {
        refuse(res, body);
        return;
      }
      const action = front?.next() ?? { kind: 'forward', holdMs: 0 };
      if (action.kind === 'reset') {
        req.socket.resetAndDestroy();
        return;
      }
      if (action.kind === 'answer') {
        answerAsFront(res, action);
        return;
      }
      const json = jsonOf(body);
      const ms = action.holdMs + (opts.delayMs?.(methodOf(json), json, req.headers) ?? 0);
      if (ms > 0) await pause(ms);
      if (res.destroyed || req.socket.destroyed) return;
      if (action.reset === undefined && action.cutShort !== true) {
        await relay(req, res, upstream, { body });
        return;
      }
      const answer = await forward(req, res, upstream, { body });
      if (action.reset === 'after') {
        answer.resume();
        req.socket.resetAndDestroy();
      } else await cutShort(answer, res);
    })().catch(() => res.destroy());
  });
  const { baseUrl, close } = await listen(server);
  return { baseUrl, close };
}
