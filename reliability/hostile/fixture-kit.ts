// Building blocks of the hostile targets: a loopback HTTP server on port 0 that reads each request
// (capped: a hostile target must not itself be the thing that runs out of memory), recognises the
// run's probe (agent/authenticatedExtendedCard, spec 4.8, and its one timed turn) and answers it
// honestly when asked to.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { listen } from '../../harness/kit/loopback.ts';
import { AGENT_DEFAULTS } from '../../reference-server/index.ts';
import { METHODS } from '../../schemas/error-codes.ts';

export const AGENT_ID = 'hostile-agent';
export const API_KEY = 'hostile-key';

/** Request bytes kept for inspection by default; the rest is read and dropped. */
const KEEP_REQUEST_BYTES = 256 * 1024;

export interface FixtureOptions {
  stats?: () => Record<string, number>;
  onClose?: () => void;
  keepRequestBytes?: number;
}

export interface HostileRequest {
  req: IncomingMessage;
  res: ServerResponse;
  /** The request body's first bytes, as text. */
  text: string;
  /** The JSON-RPC method, when the kept body parsed as an envelope. */
  method?: string;
  /** The envelope id, echoed by answers that look plausible. */
  id: unknown;
}

export type Handler = (r: HostileRequest) => void;

export interface HostileTarget {
  readonly baseUrl: string;
  readonly agentId: string;
  readonly apiKey: string;
  /** Counters of what the target did (requests, bytes sent, deliveries posted, ...). */
  stats(): Record<string, number>;
  close(): Promise<void>;
}

/**
 * The extended card of an agent claiming every capability, so that every check runs (C-41), with the
 * reference server's default limits: a hostile target differs in how it answers, not in what it claims.
 */
export function card(agentId: string): Record<string, unknown> {
  const d = AGENT_DEFAULTS;
  return {
    agent: {
      id: agentId,
      name: agentId,
      description: 'a hostile fixture target',
      version: d.version,
      type: d.type,
      status: d.status,
    },
    capabilities: {
      supportedMethods: [...METHODS],
      fileUpload: { supported: true, maxFileSize: d.maxFileSize, supportedTypes: ['text/plain'] },
      streaming: true,
      multiTurn: true,
      webhooks: true,
    },
    limits: {
      requestsPerMinute: d.requestsPerMinute,
      concurrentTasks: d.concurrentTasks,
      maxMessageLength: d.maxMessageLength,
      systemTimeoutMs: d.systemTimeoutMs,
    },
  };
}

export function answerCard(r: HostileRequest, agentId: string): void {
  const body = JSON.stringify({ jsonrpc: '2.0', id: r.id ?? null, result: card(agentId) });
  r.res.writeHead(200, { 'content-type': 'application/json' });
  r.res.end(body);
}

/** True for the probe's request: the run starts with it, and honest-probe targets answer it. */
export function isProbe(r: HostileRequest): boolean {
  return r.method === 'agent/authenticatedExtendedCard';
}

/**
 * An honest probe: answers the card, and the run's first message/send (the probe times one turn of
 * the agent before the suites start, harness/runner/probe.ts) with a completed task; true when it
 * answered `r`. Every other request meets the target's hostility, so the suites do, within the
 * budget (a turn the target never answers would spend it in the probe).
 */
export function honestProbe(agentId: string): (r: HostileRequest) => boolean {
  let turnAnswered = false;
  return (r) => {
    if (isProbe(r)) {
      answerCard(r, agentId);
      return true;
    }
    if (r.method !== 'message/send' || turnAnswered) return false;
    turnAnswered = true;
    const task = { id: randomUUID(), contextId: randomUUID(), status: { state: 'completed' }, final: true };
    r.res.writeHead(200, { 'content-type': 'application/json' });
    r.res.end(JSON.stringify({ jsonrpc: '2.0', id: r.id ?? null, result: task }));
    return true;
  };
}

async function readKept(req: IncomingMessage, keepBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  let kept = 0;
  try {
    for await (const chunk of req as AsyncIterable<Buffer>) {
      const room = keepBytes - kept;
      if (room > 0) {
        chunks.push(chunk.subarray(0, room));
        kept += Math.min(room, chunk.length);
      }
    }
  } catch {
    // The client gave up mid-body: answer (or not) with what arrived.
  }
  return Buffer.concat(chunks, kept).toString('utf8');
}

function envelopeOf(text: string): { method?: string; id: unknown } {
  try {
    const json = JSON.parse(text) as { method?: unknown; id?: unknown };
    return { ...(typeof json.method === 'string' ? { method: json.method } : {}), id: json.id ?? null };
  } catch {
    return { id: null };
  }
}

/** Starts `handler` on 127.0.0.1:0; `close()` drops every open connection, however hostile. */
export async function startFixture(handler: Handler, opts: FixtureOptions = {}): Promise<HostileTarget> {
  const { stats = () => ({}), onClose = () => undefined, keepRequestBytes = KEEP_REQUEST_BYTES } = opts;
  const counters = { requests: 0 };
  const server: Server = createServer((req, res) => {
    counters.requests += 1;
    // Errors on a socket the harness reset are expected; they must not crash the fixture.
    req.on('error', () => undefined);
    res.on('error', () => undefined);
    void readKept(req, keepRequestBytes).then((text) => handler({ req, res, text, ...envelopeOf(text) }));
  });
  server.on('clientError', (_err, socket) => socket.destroy());
  // A hostile target holds connections for ever: no server-side timeouts.
  server.requestTimeout = 0;
  server.headersTimeout = 0;
  server.keepAliveTimeout = 1000;
  const { baseUrl, close } = await listen(server, { beforeClose: onClose });
  return {
    baseUrl,
    agentId: AGENT_ID,
    apiKey: API_KEY,
    stats: () => ({ ...counters, ...stats() }),
    close,
  };
}

function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/** Writes `chunk` until `bytes` were sent or the peer went away, honouring back-pressure. */
export async function pump(res: ServerResponse, chunk: Buffer, bytes: number): Promise<number> {
  let sent = 0;
  while (sent < bytes && !res.destroyed && !res.writableEnded) {
    const piece = bytes - sent >= chunk.length ? chunk : chunk.subarray(0, bytes - sent);
    sent += piece.length;
    if (!res.write(piece)) await drained(res);
  }
  return sent;
}
