// The scenario server of `a2a-conformance client`: the bundled reference server behind a loopback
// front that records every request a client sends and scripts what the scenario needs (spec 4.2,
// 7; rulings C-74 to C-76): a 503 on the first attempt (`retry`), a JSON-RPC error (`error`), a task
// that runs until canceled (`cancel`), and SSE re-framed with `: ping` comments before and between
// events, each event written in pieces, the stream held open after the final event (C-75).
import { performance } from 'node:perf_hooks';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { request } from 'undici';
import { headersOf, jsonOf, listen, readBody, sendJson as writeJson, pause } from '../kit/loopback.ts';
import type { Scenario } from './scenarios.ts';
import type { Upstream } from './upstream.ts';

export interface SeenAnswer {
  status: number;
  /** The JSON body sent (a JSON answer). */
  json?: unknown;
  /** The events sent, parsed (an SSE answer). */
  events?: unknown[];
  /** What the front did instead of forwarding, when it scripted the answer. */
  scripted?: string;
}

export interface SeenRequest {
  seq: number;
  /** performance.now() when the request arrived. */
  atMs: number;
  startedAt: string;
  method: string;
  url: string;
  /** Lower-case names; repeated lines joined with ', '. */
  headers: Record<string, string>;
  body: string;
  json?: unknown;
  rpcMethod?: string;
  answer?: SeenAnswer;
  /** SSE answers: when the final event was written, and when the client closed. */
  stream?: { finalAtMs?: number; closedAtMs?: number };
  /** performance.now() when the answer ended (or the client went away). */
  endedAtMs?: number;
}

export interface ScenarioServer {
  baseUrl: string;
  agentId: string;
  apiKey: string;
  requests(): readonly SeenRequest[];
  close(): Promise<void>;
}

// Why caps: a client under test may send anything; the front keeps what a scenario needs.
const MAX_BODY_BYTES = 8 * 1024 * 1024;
const MAX_REQUESTS = 500;
/**
 * Gap between the pieces of one event (C-75): a client that reads each piece as it comes gets them
 * in separate reads; the gap is long so that this holds on a loaded machine too.
 */
const PIECE_GAP_MS = 100;
/** The directive (docs/directives.md) that keeps the `cancel` task working until it is canceled. */
const HOLD_DIRECTIVE = 'a2a:directive {"runUntilCanceled":true}';
const HOP_HEADERS = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive']);

function rpcError(id: unknown, code: number, message: string, details: string): unknown {
  return { jsonrpc: '2.0', id: id ?? null, error: { code, message, data: { details } } };
}

/** Answers with `json` and records it as what the front sent. */
function recordAndSend(
  res: ServerResponse,
  seen: SeenRequest,
  status: number,
  json: unknown,
  scripted?: string,
): void {
  seen.answer = { status, json, ...(scripted === undefined ? {} : { scripted }) };
  writeJson(res, status, json);
}

/** Splits an event frame into three pieces at ASCII positions, so no UTF-8 sequence is cut. */
export function piecesOf(frame: string): string[] {
  const cut = (at: number): number => {
    let i = at;
    while (i < frame.length && frame.charCodeAt(i) > 127) i += 1;
    return i;
  };
  const a = cut(Math.max(1, Math.floor(frame.length / 3)));
  const b = cut(Math.max(a + 1, Math.floor((2 * frame.length) / 3)));
  return [frame.slice(0, a), frame.slice(a, b), frame.slice(b)].filter((p) => p !== '');
}

function isFinalEvent(json: unknown): boolean {
  const o = json as { result?: { final?: unknown }; error?: unknown } | undefined;
  return o?.result?.final === true || o?.error !== undefined;
}

class Front {
  readonly seen: SeenRequest[] = [];
  private readonly open = new Set<ServerResponse>();
  private failedOnce = false;

  constructor(
    private readonly scenario: Scenario,
    private readonly upstream: Upstream,
  ) {}

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req, { limit: MAX_BODY_BYTES });
    const text = body.toString('utf8');
    const json = jsonOf(text);
    const envelope = json as
      { method?: unknown; id?: unknown; params?: { message?: { parts?: unknown } } } | undefined;
    const seen: SeenRequest = {
      seq: this.seen.length + 1,
      atMs: performance.now(),
      startedAt: new Date().toISOString(),
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      headers: headersOf(req),
      body: text,
      ...(json === undefined ? {} : { json }),
      ...(typeof envelope?.method === 'string' ? { rpcMethod: envelope.method } : {}),
    };
    if (this.seen.length < MAX_REQUESTS) this.seen.push(seen);
    res.on('close', () => {
      seen.endedAtMs = performance.now();
      if (seen.stream !== undefined) seen.stream.closedAtMs = seen.endedAtMs;
      this.open.delete(res);
    });
    this.open.add(res);
    if (this.script(seen, envelope?.id, res)) return;
    let forward = body;
    if (
      this.scenario === 'cancel' &&
      seen.rpcMethod === 'message/stream' &&
      Array.isArray(envelope?.params?.message?.parts)
    ) {
      envelope!.params!.message!.parts = [
        ...(envelope!.params!.message!.parts as unknown[]),
        { type: 'text', text: HOLD_DIRECTIVE },
      ];
      forward = Buffer.from(JSON.stringify(envelope), 'utf8');
    }
    await this.forward(req, res, seen, forward);
  }

  /** The scripted answers of `retry` and `error`; true when it answered. */
  private script(seen: SeenRequest, id: unknown, res: ServerResponse): boolean {
    if (seen.rpcMethod !== 'message/send') return false;
    if (this.scenario === 'retry' && !this.failedOnce) {
      this.failedOnce = true;
      const err = rpcError(id, -32603, 'Service unavailable', 'scripted transient failure (scenario retry)');
      recordAndSend(res, seen, 503, err, 'HTTP 503 on the first attempt');
      return true;
    }
    if (this.scenario === 'error') {
      recordAndSend(
        res,
        seen,
        200,
        rpcError(id, -32603, 'Internal error', 'scripted error (scenario error)'),
        'JSON-RPC error -32603',
      );
      return true;
    }
    return false;
  }

  private async forward(
    req: IncomingMessage,
    res: ServerResponse,
    seen: SeenRequest,
    body: Buffer,
  ): Promise<void> {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(seen.headers))
      if (!HOP_HEADERS.has(name)) headers[name] = value;
    const abort = new AbortController();
    res.on('close', () => abort.abort());
    let up: Awaited<ReturnType<typeof request>>;
    try {
      up = await request(new URL(req.url ?? '/', this.upstream.baseUrl), {
        method: (req.method ?? 'GET') as 'POST',
        headers,
        body: req.method === 'GET' || req.method === 'HEAD' ? null : body,
        signal: abort.signal,
      });
    } catch (e) {
      if (!res.destroyed)
        recordAndSend(
          res,
          seen,
          502,
          rpcError(null, -32603, 'Internal error', `scenario server: ${(e as Error).message}`),
        );
      return;
    }
    const type = String(up.headers['content-type'] ?? '');
    if (type.startsWith('text/event-stream')) return this.relaySse(up, res, seen);
    const text = await up.body.text().catch(() => '');
    const answerJson = jsonOf(text);
    seen.answer = { status: up.statusCode, ...(answerJson === undefined ? {} : { json: answerJson }) };
    if (res.destroyed) return;
    res.writeHead(up.statusCode, {
      'content-type': type || 'application/json',
      'content-length': Buffer.byteLength(text),
    });
    res.end(text);
  }

  private async relaySse(
    up: Awaited<ReturnType<typeof request>>,
    res: ServerResponse,
    seen: SeenRequest,
  ): Promise<void> {
    const events: unknown[] = [];
    seen.answer = { status: up.statusCode, events };
    seen.stream = {};
    res.writeHead(up.statusCode, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const writePing = (): void => {
      if (!res.destroyed) res.write(': ping\n\n');
    };
    writePing();
    let pending = '';
    let final = false;
    const decoder = new TextDecoder();
    try {
      for await (const chunk of up.body) {
        pending = (pending + decoder.decode(chunk as Buffer, { stream: true })).replace(/\r\n?/g, '\n');
        for (let end = pending.indexOf('\n\n'); end >= 0; end = pending.indexOf('\n\n')) {
          const frame = pending.slice(0, end + 2);
          pending = pending.slice(end + 2);
          const data = frame
            .split('\n')
            .filter((l) => l.startsWith('data:'))
            .map((l) => l.slice(5).replace(/^ /, ''))
            .join('\n');
          if (data === '') continue; // the upstream's own comments: the front sends its own pings
          const event = jsonOf(data);
          if (events.length > 0) writePing();
          const pieces = piecesOf(`data: ${data}\n\n`);
          for (const [i, piece] of pieces.entries()) {
            if (!res.destroyed) res.write(piece);
            // Recorded as the last piece goes out: the client may close (and the scenario end) at once.
            if (i === pieces.length - 1) {
              events.push(event);
              if (isFinalEvent(event) && !final) {
                final = true;
                seen.stream.finalAtMs = performance.now();
              }
            }
            if (i < pieces.length - 1) await pause(PIECE_GAP_MS);
          }
        }
      }
    } catch {
      // the client went away, or the scenario server is closing
    }
    // C-75: after the final event the stream is held open; the client must close it.
    if (!final && !res.destroyed) res.end();
  }

  closeAll(): void {
    for (const res of this.open) res.destroy();
  }
}

/** Starts a front for one scenario over a running reference server. */
export async function startScenarioServer(scenario: Scenario, upstream: Upstream): Promise<ScenarioServer> {
  const front = new Front(scenario, upstream);
  const server: Server = createServer((req, res) => {
    front.handle(req, res).catch(() => res.destroy());
  });
  // A client that never finishes a request cannot hold the front: node's own request deadlines.
  server.requestTimeout = 30_000;
  server.headersTimeout = 10_000;
  const { baseUrl, close } = await listen(server, { beforeClose: () => front.closeAll() });
  return {
    baseUrl,
    agentId: upstream.agentId,
    apiKey: upstream.apiKey,
    requests: () => front.seen,
    close,
  };
}
