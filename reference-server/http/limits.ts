// Connection-level limits of the HTTP front (C-47, with the error bodies of C-03): header section and
// URL size, and the slow-client (slowloris) timeouts. Node's parser refuses these before any handler
// runs; the clientError hook answers them with their HTTP status and a JSON-RPC error body.
import type { Server, ServerOptions, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { errorResponse, rpcError } from '../rpc/errors.ts';

export const HTTP_LIMITS = Object.freeze({
  /** Request line plus headers (node's own default, stated so the ruling does not move with Node). */
  maxHeaderBytes: 16 * 1024,
  /** The request target; the agent path needs under 100 bytes, so 4 KiB only stops abuse. */
  maxUrlBytes: 4096,
  /** Whole header section, from the connection (or the previous response) on: cuts slowloris. */
  headersTimeoutMs: 10_000,
  /** Whole request, body included: the default body limit (about 57 MB) at about 1 MB/s. */
  requestTimeoutMs: 60_000,
  /** C-49: an idle persistent connection is closed this long after its last response. */
  keepAliveTimeoutMs: 5000,
});

export interface ConnectionTimeouts {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
}

/** node:http options carrying the limits; expiry is checked often enough to be felt within ~25%. */
export function httpServerOptions(timeouts: ConnectionTimeouts): ServerOptions {
  return {
    maxHeaderSize: HTTP_LIMITS.maxHeaderBytes,
    headersTimeout: timeouts.headersTimeoutMs,
    requestTimeout: timeouts.requestTimeoutMs,
    // Node's own default, stated so the ruling does not move with a runtime release (C-49).
    keepAliveTimeout: HTTP_LIMITS.keepAliveTimeoutMs,
    // Node checks expiry every 30 s by default, which would let a slow client overstay by that much.
    connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(timeouts.headersTimeoutMs / 4))),
  };
}

/** The status and details a parser-level refusal is answered with. */
function refusalOf(code: string | undefined, timeouts: ConnectionTimeouts): [number, string, object] {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return [
        431,
        `the request line and headers exceed ${HTTP_LIMITS.maxHeaderBytes} bytes`,
        { limit: HTTP_LIMITS.maxHeaderBytes },
      ];
    case 'ERR_HTTP_REQUEST_TIMEOUT': {
      const { headersTimeoutMs, requestTimeoutMs } = timeouts;
      const details = `the request was not received in time (headers within ${headersTimeoutMs} ms, the whole request within ${requestTimeoutMs} ms)`;
      return [408, details, { headersTimeoutMs, requestTimeoutMs }];
    }
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return [413, 'the chunk extensions of the body are too large', {}];
    default:
      return [400, `the request is not valid HTTP/1.1 (${code ?? 'parse error'})`, {}];
  }
}

const REASONS: Readonly<Record<number, string>> = Object.freeze({
  400: 'Bad Request',
  408: 'Request Timeout',
  413: 'Payload Too Large',
  431: 'Request Header Fields Too Large',
});

/** A complete HTTP/1.1 response written straight to the socket (there is no ServerResponse yet). */
function rawResponse(status: number, details: string, extra: object): string {
  const body = JSON.stringify(errorResponse(null, rpcError('INVALID_REQUEST', { details, ...extra })));
  return (
    `HTTP/1.1 ${status} ${REASONS[status]}\r\nContent-Type: application/json\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`
  );
}

/** How long a refused client gets to read its answer before the socket is cut. */
const LINGER_MS = 1000;

/**
 * Answers what node's parser refuses (malformed HTTP 400, oversized headers 431, slow client 408)
 * with a JSON-RPC error body (C-03, C-47), unless part of a response already went out, then closes.
 */
export function installClientErrorHandler(server: Server, timeouts: ConnectionTimeouts): void {
  const answered = new WeakSet<Socket>();
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    // A parser in error reports every later chunk again: answer once.
    if (answered.has(socket)) return;
    answered.add(socket);
    const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
    if (err.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent === true) {
      return void socket.destroy();
    }
    const [status, details, extra] = refusalOf(err.code, timeouts);
    // end() rather than destroy() so the answer is not lost to a reset while the client still sends.
    socket.end(rawResponse(status, details, extra));
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
  });
}

/** C-47: 414 before routing, so a huge target is never parsed or echoed back in a 404. */
export function urlTooLong(url: string | undefined): boolean {
  return url !== undefined && url.length > HTTP_LIMITS.maxUrlBytes;
}
