// Builds the HTTP requests the harness sends to a target: the JSON-RPC envelope (spec 2.1), the
// agent path (spec 4), credential headers (spec 5) with per-request overrides, and the record of what
// was sent.
import { randomUUID } from 'node:crypto';
import { decodeUtf8 } from './body-reader.ts';
import { shortenLongStrings, truncateText, type RecordedRequest } from '../../../core/evidence.ts';
import { safeCut } from '../../../core/redaction.ts';

/** Header overrides: a string sets (replaces) a header, null removes it (e.g. to send no credential). */
export type HeaderOverrides = Record<string, string | null>;

export interface EnvelopeOptions {
  /** The envelope id (any JSON value, C-13). Default: a fresh UUID string. */
  id?: unknown;
  /** Send no id member at all (a JSON-RPC notification, C-11). */
  omitId?: boolean;
  /** Extra or replacement envelope members, e.g. { jsonrpc: '1.0' }. Applied last. */
  envelope?: Record<string, unknown>;
}

export interface RequestSpec {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** The envelope object, when the body was built from one. */
  envelope?: Record<string, unknown>;
}

export function buildEnvelope(
  method: string,
  params: unknown,
  opts: EnvelopeOptions,
): Record<string, unknown> {
  const envelope: Record<string, unknown> = { jsonrpc: '2.0' };
  if (opts.omitId !== true) envelope.id = 'id' in opts ? opts.id : randomUUID();
  envelope.method = method;
  if (params !== undefined) envelope.params = params;
  return { ...envelope, ...opts.envelope };
}

export function credentialHeaders(auth: { apiKey?: string; bearer?: string }): Record<string, string> {
  const headers: Record<string, string> = {};
  if (auth.apiKey !== undefined) headers['x-api-key'] = auth.apiKey;
  if (auth.bearer !== undefined) headers.authorization = `Bearer ${auth.bearer}`;
  return headers;
}

/** Applies overrides to lower-cased base headers; null removes a header. */
export function mergeHeaders(
  base: Record<string, string>,
  overrides?: HeaderOverrides,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(base)) out[name.toLowerCase()] = value;
  for (const [name, value] of Object.entries(overrides ?? {})) {
    if (value === null) delete out[name.toLowerCase()];
    else out[name.toLowerCase()] = value;
  }
  return out;
}

/**
 * The path of a base URL, without a trailing slash: `https://host/gw/a2a/` -> `/gw/a2a`, `https://host`
 * -> ``. `{base_url}` is an opaque prefix (spec 4, C-57): every path the harness sends starts with it.
 */
export function basePathOf(baseUrl: string): string {
  return new URL(baseUrl).pathname.replace(/\/+$/, '');
}

/** Joins a base URL and a path; an absolute http(s) URL is used as is. */
export function joinUrl(baseUrl: string, path: string): string {
  if (/^https?:\/\//i.test(path)) return path;
  return `${baseUrl.replace(/\/+$/, '')}${path.startsWith('/') ? path : `/${path}`}`;
}

export function agentPath(agentId: string): string {
  return `/api/v1/a2a/${encodeURIComponent(agentId)}`;
}

/** Longest string kept in the parsed copy of a request whose body was cut for the record. */
export const REQUEST_JSON_STRING_CHARS = 4 * 1024;

/**
 * The size-capped record of a request, as sent (a check's result is redacted once it is decided); a
 * cut never falls inside a secret, so redaction later finds it whole.
 */
export function recordRequest(spec: RequestSpec, secrets: readonly string[], cap: number): RecordedRequest {
  const rec: RecordedRequest = { method: spec.method, url: spec.url, headers: { ...spec.headers } };
  let cut = false;
  if (spec.body !== undefined) {
    const text = typeof spec.body === 'string' ? spec.body : decodeUtf8(spec.body).text;
    const recorded = truncateText(text, safeCut(text, cap, secrets));
    rec.body = recorded.text;
    cut = recorded.truncated;
  }
  if (spec.envelope !== undefined) {
    const json = structuredClone(spec.envelope);
    rec.json = cut ? shortenLongStrings(json, REQUEST_JSON_STRING_CHARS) : json;
  }
  return rec;
}
