// The loopback HTTP kit: the pieces every small server of the project is made of (the client
// role's scenario server, the mutant proxy, the field proxies, the hostile fixtures, the worker link,
// test servers): listen on 127.0.0.1 port 0 and read the port back, read a request body (capped when
// the peer is not trusted), answer JSON, relay a request to an upstream and its answer back, pause.
import {
  createServer,
  request as httpRequest,
  type RequestListener,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';

export interface Listening {
  port: number;
  /** `http://127.0.0.1:<port>` (or the host it was asked to listen on). */
  baseUrl: string;
  /** Stops accepting, drops every open connection (however hostile), and resolves once closed. */
  close(): Promise<void>;
}

export interface ListenOptions {
  host?: string;
  /** Default 0: the system picks a free port, read back into `port`. */
  port?: number;
  /** Runs first on close (end held streams, mark the server closing). */
  beforeClose?: () => void;
}

// The harness's own links between its processes (the worker link, the webhook link): the server
// keeps an idle connection four times longer than its client, so the client never sends a call on a
// connection the server is closing as idle. With Node's default (a server closes after 5 s, undici one
// second before its hint) a worker whose event loop lagged more than a second under load sent a call
// into a closing socket: "other side closed", a harness error in a check.
const LINK_CLIENT_IDLE_MS = 30_000;
const LINK_SERVER_IDLE_MS = 4 * LINK_CLIENT_IDLE_MS;

/** The server end of a link between the harness's processes (see LINK_SERVER_IDLE_MS). */
export function linkServer(handler: RequestListener): Server {
  const server = createServer(handler);
  server.keepAliveTimeout = LINK_SERVER_IDLE_MS;
  return server;
}

/** The client end of a link between the harness's processes: it lets idle connections go first. */
export function linkAgent(opts: Agent.Options = {}): Agent {
  return new Agent({
    ...opts,
    keepAliveTimeout: LINK_CLIENT_IDLE_MS,
    keepAliveMaxTimeout: LINK_CLIENT_IDLE_MS,
  });
}

/** Starts `server` on 127.0.0.1:0 (or as asked); `close()` is idempotent. */
export async function listen(server: Server, opts: ListenOptions = {}): Promise<Listening> {
  const host = opts.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  return {
    port,
    baseUrl: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    close() {
      closing ??= new Promise<void>((resolve) => {
        opts.beforeClose?.();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

export interface ReadBodyOptions {
  /**
   * Bytes accepted. Past it, `'destroy'` (the default) fails the read and destroys the request;
   * `'keep'` keeps the first `limit` bytes and reads the rest to nowhere.
   */
  limit?: number;
  over?: 'destroy' | 'keep';
}

/** The whole body of a request (or of an upstream's answer). */
export function readBody(msg: IncomingMessage, opts: ReadBodyOptions = {}): Promise<Buffer> {
  const limit = opts.limit ?? Number.POSITIVE_INFINITY;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let kept = 0;
    msg.on('data', (chunk: Buffer) => {
      const room = limit - kept;
      if (chunk.length <= room) {
        chunks.push(chunk);
        kept += chunk.length;
      } else if (opts.over === 'keep') {
        if (room > 0) chunks.push(chunk.subarray(0, room));
        kept = limit;
      } else {
        msg.destroy(new Error(`body over ${limit} bytes`));
      }
    });
    msg.on('end', () => resolve(Buffer.concat(chunks)));
    msg.on('error', reject);
  });
}

/** A body's JSON value, or undefined when it is not JSON. */
export function jsonOf(body: Buffer | string): unknown {
  try {
    return JSON.parse(typeof body === 'string' ? body : body.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/** A request's headers by lower-case name, repeated lines joined with ', ' (as RFC 9110 5.3 allows). */
export function headersOf(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!.toLowerCase();
    const value = req.rawHeaders[i + 1]!;
    out[name] = out[name] === undefined ? value : `${out[name]}, ${value}`;
  }
  return out;
}

/** Answers with `body` as JSON (Content-Length set). */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: OutgoingHttpHeaders = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

export interface ForwardOptions {
  /** Default the request's own. */
  method?: string;
  /** Default the request's own URL (path and query). */
  path?: string;
  /** Default the request's headers with Host set to the upstream's; raw pairs are sent as they are. */
  headers?: OutgoingHttpHeaders | string[];
  /** The body to send (already read from the request). */
  body?: Buffer | string;
}

/**
 * Sends `req`'s request on to `upstream` (a base URL; its path is replaced by the request's) and
 * resolves with the upstream's answer. When `res` closes before the upstream answered in full, the
 * upstream request is dropped too.
 */
export function forward(
  req: IncomingMessage,
  res: ServerResponse,
  upstream: string | URL,
  opts: ForwardOptions = {},
): Promise<IncomingMessage> {
  const target = new URL(upstream);
  return new Promise((resolve, reject) => {
    const up = httpRequest({
      host: target.hostname,
      port: target.port,
      method: opts.method ?? req.method,
      path: opts.path ?? req.url,
      headers: opts.headers ?? { ...req.headers, host: target.host },
    });
    up.on('response', resolve);
    up.on('error', reject);
    res.on('close', () => {
      if (!res.writableFinished) up.destroy();
    });
    up.end(opts.body);
  });
}

/** Writes the upstream's answer to `res` as it comes (headers through `headers`, when given). */
export function pipeAnswer(
  answer: IncomingMessage,
  res: ServerResponse,
  headers: (h: IncomingMessage['headers']) => OutgoingHttpHeaders = (h) => h,
): void {
  res.writeHead(answer.statusCode ?? 502, headers({ ...answer.headers }));
  answer.pipe(res);
  res.once('close', () => answer.destroy());
}

/** `forward` then `pipeAnswer`; an upstream that cannot be reached drops the client's connection. */
export async function relay(
  req: IncomingMessage,
  res: ServerResponse,
  upstream: string | URL,
  opts: ForwardOptions & { answerHeaders?: (h: IncomingMessage['headers']) => OutgoingHttpHeaders } = {},
): Promise<void> {
  try {
    pipeAnswer(await forward(req, res, upstream, opts), res, opts.answerHeaders);
  } catch {
    res.destroy();
  }
}

/** Resolves after `ms` milliseconds (a scripted pause of a test server, never a check's evidence). */
export function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
