// The mutant proxy: an unmodified reference server started in-process on port 0, fronted by a
// node:http proxy on 127.0.0.1:0 whose hooks (proxy-hooks.ts) rewrite requests, JSON-RPC answers,
// SSE frames and headers. SSE responses are streamed frame by frame, never buffered whole.
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import zlib from 'node:zlib';
import { listen, readBody, sendJson as answerWith } from '../harness/kit/loopback.ts';
import {
  httpServerOptions,
  HTTP_LIMITS,
  installClientErrorHandler,
} from '../reference-server/http/limits.ts';
import { certificationAgent as bundledAgent } from '../harness/runner/bundled-target.ts';
import { generateApiKey, startReferenceServer } from '../reference-server/index.ts';
import type { AgentConfigInput, ReferenceServer, ReferenceServerOptions } from '../reference-server/index.ts';
import type { ContentCoding, ProxyCall, ProxyHooks, ResponseHead, SseContext } from './proxy-hooks.ts';
import type { MutantTarget } from './types.ts';

export type * from './proxy-hooks.ts';

export const MUTANT_AGENT_ID = 'reference-agent';

/** The agent of `npm run certify` (harness/runner/bundled-target.ts), with `overrides` merged over it. */
export function certificationAgent(
  id: string,
  key: string,
  overrides: Partial<AgentConfigInput> = {},
): AgentConfigInput {
  return { ...(bundledAgent(id, key) as AgentConfigInput), ...overrides };
}

export interface MutantOptions {
  /** fields merged over the certification agent */
  agent?: Partial<AgentConfigInput>;
  /** server options (agents excluded); webhooks may reach loopback unless told otherwise (C-19) */
  server?: Omit<ReferenceServerOptions, 'agents' | 'host' | 'port'>;
  extraArgs?: string[];
  /** the agent's credential (x-api-key and Bearer); default a fresh random key */
  apiKey?: string;
  /** the proxy's mount path (see startProxy), e.g. `/gw/a2a`; the target's base URL ends with it */
  basePath?: string;
}

export interface Proxy {
  baseUrl: string;
  close(): Promise<void>;
}

function parseCall(req: IncomingMessage, body: Buffer): ProxyCall {
  const call: ProxyCall = {
    httpMethod: req.method ?? 'GET',
    url: req.url ?? '/',
    headers: req.headers,
    body,
    json: undefined,
  };
  try {
    call.json = JSON.parse(body.toString('utf8'));
  } catch {
    return call;
  }
  if (call.json !== null && typeof call.json === 'object' && !Array.isArray(call.json)) {
    const o = call.json as Record<string, unknown>;
    if (typeof o.method === 'string') call.method = o.method;
    call.id = o.id;
    if (o.params !== null && typeof o.params === 'object' && !Array.isArray(o.params)) {
      call.params = o.params as Record<string, unknown>;
    }
  }
  return call;
}

/** Raw request headers for the upstream, minus the body framing when the body was rewritten. */
function forwardHeaders(req: IncomingMessage, newLength: number | undefined): string[] {
  const out: string[] = [];
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i] as string;
    const lower = name.toLowerCase();
    if (newLength !== undefined && (lower === 'content-length' || lower === 'transfer-encoding')) continue;
    out.push(name, req.rawHeaders[i + 1] as string);
  }
  if (newLength !== undefined) out.push('Content-Length', String(newLength));
  return out;
}

/** Applies the `requestHeaders` hook to raw header pairs (names lower-cased, repeated lines joined). */
function rewriteHeaders(raw: string[], call: ProxyCall, hooks: ProxyHooks): string[] {
  if (hooks.requestHeaders === undefined) return raw;
  const headers: Record<string, string> = {};
  for (let i = 0; i < raw.length; i += 2) {
    const name = (raw[i] as string).toLowerCase();
    headers[name] = headers[name] === undefined ? (raw[i + 1] as string) : `${headers[name]}, ${raw[i + 1]}`;
  }
  hooks.requestHeaders(headers, call);
  return Object.entries(headers).flat();
}

function responseHead(up: IncomingMessage): ResponseHead {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(up.headers)) {
    // node recomputes the framing of the response it writes
    if (value === undefined || name === 'content-length' || name === 'transfer-encoding') continue;
    headers[name] = value;
  }
  return { status: up.statusCode ?? 502, headers };
}

/** Runs a JSON or SSE hook: the (mutated) value re-serialized, or the raw text the hook returned. */
function applyHook(
  hook: (v: unknown, ctx: never) => unknown,
  value: unknown,
  ctx: unknown,
): { raw: string } | { json: string } {
  const out = hook(value, ctx as never);
  return typeof out === 'string' ? { raw: out } : { json: JSON.stringify(value) };
}

async function relayJson(
  up: IncomingMessage,
  res: ServerResponse,
  call: ProxyCall,
  hooks: ProxyHooks,
): Promise<void> {
  const head = responseHead(up);
  const raw = await readBody(up);
  let body: Buffer | string = raw;
  const hook = (call.method !== undefined ? hooks.json?.[call.method] : undefined) ?? hooks.json?.['*'];
  if (hook !== undefined && raw.length > 0) {
    try {
      const out = applyHook(hook, JSON.parse(raw.toString('utf8')), { call, status: head.status, head });
      body = 'raw' in out ? out.raw : out.json;
    } catch (error) {
      if (!(error instanceof SyntaxError)) throw error;
    }
  }
  hooks.head?.(head, call);
  const coding = hooks.contentCoding?.(call, head);
  if (coding !== undefined) {
    const bytes = encodeWhole(coding, Buffer.from(body));
    res.writeHead(head.status, ...statusLine(head), {
      ...head.headers,
      'content-encoding': coding,
      'content-length': bytes.length,
    });
    res.end(bytes);
    return;
  }
  const chunks = hooks.jsonChunks?.(String(body), call);
  if (chunks === undefined) {
    res.writeHead(head.status, ...statusLine(head), {
      ...head.headers,
      'content-length': Buffer.byteLength(body),
    });
    res.end(body);
    return;
  }
  res.writeHead(head.status, ...statusLine(head), head.headers);
  for (const chunk of chunks) {
    if (res.destroyed) return;
    res.write(chunk);
    await pause();
  }
  res.end();
}

/** The reason phrase argument of writeHead, when the head sets one. */
function statusLine(head: ResponseHead): [] | [string] {
  return head.statusText === undefined ? [] : [head.statusText];
}

function encodeWhole(coding: ContentCoding, bytes: Buffer): Buffer {
  if (coding === 'gzip') return zlib.gzipSync(bytes);
  if (coding === 'deflate') return zlib.deflateSync(bytes);
  return zlib.brotliCompressSync(bytes);
}

function encoder(coding: ContentCoding): zlib.Gzip | zlib.Deflate | zlib.BrotliCompress {
  if (coding === 'gzip') return zlib.createGzip();
  if (coding === 'deflate') return zlib.createDeflate();
  return zlib.createBrotliCompress();
}

/** The gap between the pieces of a split write: long enough for the client to read them apart. */
const PIECE_GAP_MS = 3;
const pause = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, PIECE_GAP_MS));

function relaySse(
  up: IncomingMessage,
  res: ServerResponse,
  call: ProxyCall,
  hooks: ProxyHooks,
  held: Set<ServerResponse>,
): void {
  const head = responseHead(up);
  hooks.head?.(head, call);
  const coding = hooks.contentCoding?.(call, head);
  if (coding !== undefined) head.headers['content-encoding'] = coding;
  res.writeHead(head.status, ...statusLine(head), head.headers);
  res.flushHeaders();
  // A coded stream goes through its encoder, flushed after each write so that no event waits in it.
  const coder = coding === undefined ? undefined : encoder(coding);
  coder?.pipe(res);
  const put = (piece: string | Uint8Array): void => {
    if (coder === undefined) res.write(piece);
    else {
      coder.write(piece);
      coder.flush();
    }
  };
  const ctx: SseContext = { call, index: 0 };
  let pending = '';
  // Writes stay in order even when a hook splits a frame into pieces written apart.
  let writing: Promise<void> = Promise.resolve();
  const write = (text: string | Array<string | Uint8Array>): void => {
    if (typeof text === 'string') {
      if (text !== '') writing = writing.then(() => void (res.destroyed || put(text)));
      return;
    }
    for (const piece of text) {
      writing = writing.then(async () => {
        if (!res.destroyed && piece.length > 0) put(piece);
        await pause();
      });
    }
  };
  const emit = (frame: string): void => {
    let text = frame;
    const data = /^data: ?(.*)\n\n$/s.exec(frame);
    if (data !== null && hooks.sseEvent !== undefined) {
      try {
        const out = applyHook(hooks.sseEvent, JSON.parse(data[1] as string), ctx);
        text = 'raw' in out ? out.raw : `data: ${out.json}\n\n`;
      } catch (error) {
        if (!(error instanceof SyntaxError)) throw error;
      }
    }
    const out = hooks.sseFrame === undefined ? text : hooks.sseFrame(text, ctx);
    if (data !== null) ctx.index += 1;
    write(out);
  };
  up.setEncoding('utf8');
  up.on('data', (chunk: string) => {
    pending += chunk;
    let cut = pending.indexOf('\n\n');
    while (cut !== -1) {
      emit(pending.slice(0, cut + 2));
      pending = pending.slice(cut + 2);
      cut = pending.indexOf('\n\n');
    }
  });
  up.on('end', () => {
    write(pending);
    const end = hooks.sseEnd?.(ctx) ?? {};
    if (end.append !== undefined) write(end.append);
    void writing.then(() => {
      if (end.holdOpen === true) {
        held.add(res);
        res.on('close', () => held.delete(res));
      } else if (coder !== undefined) coder.end();
      else res.end();
    });
  });
  res.on('close', () => up.destroy());
}

/** One JSON-RPC call to the upstream with the credentials of `call`. */
async function upstreamRpc(target: URL, call: ProxyCall, method: string, params: unknown): Promise<unknown> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  for (const name of ['x-api-key', 'authorization']) {
    const value = call.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  const body = JSON.stringify({ jsonrpc: '2.0', id: `mutant-${Date.now()}`, method, params });
  const res = await fetch(new URL(call.url, target), { method: 'POST', headers, body });
  return res.json();
}

export interface ProxyOptions {
  /**
   * Mount the proxy under this path, as a gateway would: its base URL ends with it (a trailing
   * slash kept), requests under it reach the upstream without it, others get the gateway's own
   * plain-text 404.
   */
  basePath?: string;
}

/** A proxy in front of `upstream` (a base URL) applying `hooks`. */
export async function startProxy(
  upstream: string,
  hooks: ProxyHooks = {},
  { basePath = '' }: ProxyOptions = {},
): Promise<Proxy> {
  const target = new URL(upstream);
  const mount = basePath.replace(/\/+$/, '');
  const held = new Set<ServerResponse>();
  const timeouts = {
    headersTimeoutMs: HTTP_LIMITS.headersTimeoutMs,
    requestTimeoutMs: HTTP_LIMITS.requestTimeoutMs,
  };
  const server = createServer(httpServerOptions(timeouts), (req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  installClientErrorHandler(server, timeouts);

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const received = await readBody(req);
    if (mount !== '') {
      const url = req.url ?? '/';
      if (url !== mount && !url.startsWith(`${mount}/`) && !url.startsWith(`${mount}?`)) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end(`gateway: no route for ${url}\n`);
        return;
      }
      req.url = url.slice(mount.length) || '/';
    }
    const call = parseCall(req, received);
    if (
      hooks.answer !== undefined &&
      (await hooks.answer(call, res, (m, p) => upstreamRpc(target, call, m, p)))
    )
      return;
    const rewritten = hooks.request?.(call);
    const body = rewritten === undefined ? call.body : Buffer.from(JSON.stringify(rewritten));
    const up = httpRequest({
      host: target.hostname,
      port: target.port,
      method: call.httpMethod,
      path: call.url,
      headers: rewriteHeaders(
        forwardHeaders(req, rewritten === undefined ? undefined : body.length),
        call,
        hooks,
      ),
    });
    up.on('response', (upRes) => {
      const type = String(upRes.headers['content-type'] ?? '');
      if (type.startsWith('text/event-stream')) relaySse(upRes, res, call, hooks, held);
      else relayJson(upRes, res, call, hooks).catch(() => res.destroy());
    });
    up.on('error', () => res.destroy());
    res.on('close', () => {
      if (!res.writableFinished) up.destroy();
    });
    up.end(body);
  }

  const { baseUrl, close } = await listen(server, {
    beforeClose: () => {
      for (const res of held) res.end();
    },
  });
  return { baseUrl: `${baseUrl}${basePath}`, close };
}

/** An unmodified reference server (certification agent) and a proxy applying `hooks` in front of it. */
export async function startMutant(
  hooks: ProxyHooks = {},
  options: MutantOptions = {},
): Promise<MutantTarget> {
  const apiKey = options.apiKey ?? generateApiKey();
  const server: ReferenceServer = await startReferenceServer({
    allowPrivateWebhookTargets: true,
    ...options.server,
    host: '127.0.0.1',
    port: 0,
    agents: [certificationAgent(MUTANT_AGENT_ID, apiKey, options.agent)],
  });
  let proxy: Proxy;
  try {
    proxy = await startProxy(server.baseUrl, hooks, { basePath: options.basePath ?? '' });
  } catch (error) {
    await server.close();
    throw error;
  }
  return {
    baseUrl: proxy.baseUrl,
    agentId: MUTANT_AGENT_ID,
    apiKey,
    ...(options.extraArgs ? { extraArgs: options.extraArgs } : {}),
    async close() {
      await proxy.close();
      await server.close();
    },
  };
}

/** Answers a request directly with a JSON body (for `answer` hooks): true, it was answered. */
export function sendJson(res: ServerResponse, body: unknown, status = 200): true {
  answerWith(res, status, body);
  return true;
}
