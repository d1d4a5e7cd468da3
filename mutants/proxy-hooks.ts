// The hooks a variant gives the mutant proxy (mutants/proxy.ts): each one rewrites one thing on the
// wire between the harness and an unmodified reference server (requests, JSON-RPC answers, SSE).
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';

/** One incoming request as the proxy read it (the body is buffered; requests are small). */
export interface ProxyCall {
  httpMethod: string;
  /** request target, e.g. `/api/v1/a2a/reference-agent` */
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** the parsed body, `undefined` when it is not JSON */
  json: unknown;
  /** JSON-RPC `method`, `id` and `params` when the body is a request object */
  method?: string;
  id?: unknown;
  params?: Record<string, unknown>;
}

/** A JSON-RPC call to the reference server behind the proxy; resolves to the parsed response body. */
export type UpstreamRpc = (method: string, params: unknown) => Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Response head: the status and the headers, names lower-cased, repeated headers as arrays. */
export interface ResponseHead {
  status: number;
  /** The reason phrase of the status line (default: Node's for the status). */
  statusText?: string;
  headers: Record<string, string | string[]>;
}

/** The content codings the proxy can apply to a response (RFC 9110 8.4.1). */
export type ContentCoding = 'gzip' | 'deflate' | 'br';

export interface JsonContext {
  call: ProxyCall;
  status: number;
  /** the response head, which a JSON hook may change too (the `head` hook runs after it) */
  head: ResponseHead;
}

export interface SseContext {
  call: ProxyCall;
  /** 0-based index of this data event in the stream (pings not counted) */
  index: number;
}

/**
 * A JSON hook gets a parsed response body it may mutate in place. Returning `undefined` sends the
 * (mutated) body; returning a string sends that text as the body instead.
 */
export type JsonHook = (body: any, ctx: JsonContext) => unknown; // eslint-disable-line @typescript-eslint/no-explicit-any

/** An SSE event hook: same contract as a JSON hook, a string replaces the whole frame ('' drops it). */
export type SseEventHook = (payload: any, ctx: SseContext) => unknown; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface SseEnd {
  /** raw text written after the upstream stream ended */
  append?: string;
  /** keep the client's stream open (until the client or the proxy closes) instead of ending it */
  holdOpen?: boolean;
}

export interface ProxyHooks {
  /**
   * Answer directly instead of forwarding: write to `res` and return true; false forwards.
   * `upstream` asks the reference server a JSON-RPC call with the caller's credentials.
   */
  answer?(call: ProxyCall, res: ServerResponse, upstream: UpstreamRpc): boolean | Promise<boolean>;
  /** Rewrite the request headers before forwarding (names lower-cased; delete one to drop it). */
  requestHeaders?(headers: Record<string, string>, call: ProxyCall): void;
  /** Rewrite the parsed request before forwarding; return the new JSON value, or undefined to keep the bytes. */
  request?(call: ProxyCall): unknown;
  /** Rewrite JSON response bodies, per JSON-RPC method; `'*'` applies to every JSON body. */
  json?: Record<string, JsonHook>;
  /** Rewrite the status and headers of any response (JSON or SSE). */
  head?(head: ResponseHead, call: ProxyCall): void;
  /** Rewrite each SSE data event (its parsed JSON). */
  sseEvent?: SseEventHook;
  /**
   * Rewrite each raw SSE frame (text with its closing blank line, `: ping` frames included). An array
   * is written piece by piece, a few milliseconds apart, so the client reads the frame in parts.
   */
  sseFrame?(frame: string, ctx: SseContext): string | Array<string | Uint8Array>;
  /**
   * Cut each JSON response body into these pieces, written a few milliseconds apart with chunked
   * transfer encoding instead of a Content-Length.
   */
  jsonChunks?(body: string, call: ProxyCall): string[];
  /** What happens when the upstream stream ends. */
  sseEnd?(ctx: SseContext): SseEnd | void;
  /**
   * The content coding of a response (after `head`), or none: a JSON body is encoded whole, an SSE
   * stream is encoded as it goes and flushed after every write, so each event still arrives when sent.
   */
  contentCoding?(call: ProxyCall, head: ResponseHead): ContentCoding | undefined;
}
