// Evidence records kept by the harness network layer: HTTP exchanges, SSE stream transcripts
// (spec 4.2, ruling C-31) and webhook deliveries (spec 6), plus secret redaction so that API keys,
// bearer tokens and webhook secrets (spec 2.11, 5) never reach a report.

export type IoErrorKind = 'timeout' | 'connect' | 'reset' | 'body-too-large' | 'other';

export interface IoError {
  kind: IoErrorKind;
  message: string;
  /** Low-level code when one was available (e.g. ECONNRESET, UND_ERR_SOCKET). */
  code?: string;
}

export type HeaderMap = Record<string, string | string[]>;

export interface RecordedRequest {
  method: string;
  url: string;
  /** Lower-case names; secrets redacted. */
  headers: Record<string, string>;
  /** Body text (redacted, truncated beyond the recording cap with a marker); undefined when none. */
  body?: string;
  /**
   * The JSON-RPC envelope as sent, redacted (rpc() and stream() only; absent with rawBody); when the
   * body was cut for the record, its strings are cut the same way (REQUEST_JSON_STRING_CHARS).
   */
  json?: unknown;
}

export interface RecordedResponse {
  status: number;
  headers: HeaderMap;
  /** Body text decoded as UTF-8 (lenient), redacted, truncated beyond the cap with a marker. */
  body: string;
  /** Bytes actually received (may be less than sent when the read was cut short). */
  bodyBytes: number;
  /** True when `body` was shortened for the record (the JSON, if any, was parsed from all bytes). */
  truncated: boolean;
  /** True when the received bytes are not valid UTF-8. */
  invalidUtf8: boolean;
  json?: unknown;
  parseError?: string;
  /** Occurrences of configured secrets found (and redacted) in headers and body. */
  redactions: number;
}

export interface Timings {
  /** Wall-clock start, ISO 8601. */
  startedAt: string;
  /** Ms from start until the response headers arrived. */
  headersMs?: number;
  /** Ms from start until the exchange ended (body read, error or stream closed). */
  totalMs: number;
}

export interface Exchange {
  /** Sequential per client: `ex-1`, `ex-2`, ... */
  id: string;
  kind: 'http' | 'stream';
  request: RecordedRequest;
  response?: RecordedResponse;
  timings: Timings;
  error?: IoError;
  /** For kind 'stream', once the stream has ended. */
  transcript?: StreamTranscript;
}

export type StreamBudget = 'first-event' | 'idle' | 'total' | 'bytes';

export interface SseEvent {
  index: number;
  /** Ms since the request started when the blank line ending the event arrived. */
  atMs: number;
  /** Data as the SSE parser assembled it (several data: lines joined with \n). */
  data: string;
  event?: string;
  id?: string;
  hasEventField: boolean;
  hasIdField: boolean;
  /** Number of `data:` lines in the event block. */
  dataLines: number;
  multiLineData: boolean;
  /** Field names other than data/event/id seen in the block (e.g. retry, or unknown names). */
  otherFields: string[];
  json?: unknown;
  parseError?: string;
  /** The JSON-RPC result carries final: true. */
  isFinal: boolean;
  /** The event is a JSON-RPC error response (C-26: an error after the stream started). */
  isError: boolean;
}

export interface SseComment {
  atMs: number;
  text: string;
}

export interface StreamTranscript {
  exchangeId: string;
  status?: number;
  headers: HeaderMap;
  contentType?: string;
  isEventStream: boolean;
  headersMs?: number;
  events: SseEvent[];
  comments: SseComment[];
  /** Index of the first event that ends the stream: result.final true, or a JSON-RPC error. */
  finalIndex: number | null;
  afterFinal: SseEvent[];
  /** Bytes received after the blank line that ended the final event. */
  afterFinalBytes: number;
  /** Text received after the final event (capped). */
  afterFinalText: string;
  closedByServer: boolean;
  /** Who ended the stream: the server (EOF), the client (close()/closeOnFinal/after-final wait), a budget, an error. */
  closedBy: 'server' | 'client' | 'budget' | 'error';
  /** Ms since the request started when the stream ended. */
  closedAtMs?: number;
  budgetExceeded?: StreamBudget;
  error?: IoError;
  /** Set when the response was application/json (C-26, C-09) instead of an event stream. */
  json?: unknown;
  parseError?: string;
  /** Raw text received (redacted, capped), for wire-level checks such as C-31. */
  raw: string;
  rawTruncated: boolean;
  /** Occurrences of configured secrets found (and redacted) in the raw text. */
  redactions: number;
  bytes: number;
  invalidUtf8: boolean;
  /** Line terminators seen in the stream. */
  lineEndings: Array<'lf' | 'crlf' | 'cr'>;
  /** Errors reported by the SSE parser (unknown fields, invalid retry, buffer overflow). */
  parserErrors: string[];
  /** Text of an event block left unterminated (no blank line) when the stream ended; '' if none. */
  incompleteTail: string;
}

export interface DeliveryResponse {
  status?: number;
  delayMs?: number;
  reset?: boolean;
  hang?: boolean;
  /** Monotonic ms (performance.now()) when the answer, reset or hang began. */
  atMs?: number;
}

export interface Delivery {
  /** Sequential per receiver. */
  seq: number;
  /** Token of urlFor(token), or undefined for other paths. */
  token?: string;
  /** Monotonic ms (performance.now()) when the request headers arrived. */
  receivedAtMs: number;
  /** Monotonic ms when the body had been read. */
  bodyCompleteAtMs: number;
  /** Wall-clock ISO 8601 time of arrival. */
  timestamp: string;
  method: string;
  path: string;
  /** Lower-case names, as received. */
  headers: Record<string, string | string[]>;
  body: Buffer;
  text: string;
  bodyBytes: number;
  bodyTruncated: boolean;
  json?: unknown;
  parseError?: string;
  remoteAddress?: string;
  response: DeliveryResponse;
}

export const REDACTED = '[redacted]';

/** Forms a secret can take on the wire: as is, escaped inside a JSON string, percent-encoded. */
function computeSecretForms(secrets: readonly string[]): readonly string[] {
  const forms = new Set<string>();
  for (const s of secrets) {
    if (s.length === 0) continue;
    forms.add(s);
    forms.add(JSON.stringify(s).slice(1, -1));
    forms.add(encodeURIComponent(s));
  }
  // Longest first so a secret containing another is replaced whole.
  return [...forms].sort((a, b) => b.length - a.length);
}

/**
 * The forms of a secrets list, computed once per list: lists only grow (secrets are appended as a
 * check configures them), so a list seen before with the same length has the same forms. Redaction
 * runs on every string of every exchange; computing the forms for each string was most of a
 * certification's harness CPU time.
 */
const formsOfList = new WeakMap<readonly string[], { length: number; forms: readonly string[] }>();

function secretForms(secrets: readonly string[]): readonly string[] {
  const cached = formsOfList.get(secrets);
  if (cached !== undefined && cached.length === secrets.length) return cached.forms;
  const forms = computeSecretForms(secrets);
  formsOfList.set(secrets, { length: secrets.length, forms });
  return forms;
}

/** Replaces every occurrence of each secret in a string; returns the text and the count. */
export function redactText(text: string, secrets: readonly string[]): { text: string; count: number } {
  return redactForms(text, secretForms(secrets));
}

function redactForms(text: string, forms: readonly string[]): { text: string; count: number } {
  let count = 0;
  let out = text;
  for (const form of forms) {
    if (!out.includes(form)) continue;
    const parts = out.split(form);
    count += parts.length - 1;
    out = parts.join(REDACTED);
  }
  return { text: out, count };
}

/** Deep copy of a JSON-like value with every secret replaced by `[redacted]` (Buffers are kept as is). */
export function redact<T>(value: T, secrets: readonly string[]): T {
  if (secrets.length === 0) return value;
  return redactDeep(value, secretForms(secrets)) as T;
}

function redactDeep(value: unknown, forms: readonly string[]): unknown {
  const redactString = (text: string): string => redactForms(text, forms).text;
  return mapStrings(value, redactString, redactString);
}

/**
 * Deep copy of a JSON-like value with `onString` applied to every string value and `onKey` to every
 * object key (Buffers are kept as is).
 */
function mapStrings(
  value: unknown,
  onString: (text: string) => string,
  onKey: (key: string) => string = (key) => key,
): unknown {
  if (typeof value === 'string') return onString(value);
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, onString, onKey));
  if (value !== null && typeof value === 'object' && !Buffer.isBuffer(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[onKey(k)] = mapStrings(v, onString, onKey);
    return out;
  }
  return value;
}

// Why a cap: spec 6 payloads are a few KiB; a target flooding a check's URL with large deliveries
// must not put megabytes per delivery into every report.
export const DELIVERY_EVIDENCE_TEXT_CHARS = 16 * 1024;

/**
 * A delivery as report evidence: redacted, JSON-safe (the raw Buffer is left out); text beyond
 * DELIVERY_EVIDENCE_TEXT_CHARS is cut, and the parsed JSON of such a delivery left out.
 */
export function deliveryEvidence(d: Delivery, secrets: readonly string[]): Omit<Delivery, 'body'> {
  const { body: _body, ...rest } = d;
  const cut = truncateText(rest.text, DELIVERY_EVIDENCE_TEXT_CHARS);
  if (cut.truncated) {
    rest.text = cut.text;
    delete rest.json;
  }
  return redact(rest, secrets);
}

/**
 * A copy of a JSON value whose strings longer than `cap` characters are shortened with a marker
 * (the parsed copy of a request cut for the record: a 7 MB file part stays out of the report, its
 * envelope's shape and id stay in).
 */
export function shortenLongStrings(value: unknown, cap: number): unknown {
  return mapStrings(value, (text) => truncateText(text, cap).text);
}

/** Shortens recorded text beyond `cap` characters with a marker saying how much was left out. */
export function truncateText(text: string, cap: number): { text: string; truncated: boolean } {
  if (text.length <= cap) return { text, truncated: false };
  // A copy, not a slice: V8 keeps a slice's parent alive, so each record would otherwise hold the
  // whole body (16 MiB per exchange against a target that answers 100 MB).
  const kept = Buffer.from(text.slice(0, cap), 'utf16le').toString('utf16le');
  return { text: `${kept}…[truncated ${text.length - cap} chars]`, truncated: true };
}

/** Redacts header values, counting the secrets found. */
export function redactHeaders<H extends Record<string, string | string[]>>(
  headers: H,
  secrets: readonly string[],
): { headers: H; count: number } {
  let count = 0;
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    const values = Array.isArray(value) ? value : [value];
    const redacted = values.map((v) => {
      const r = redactText(v, secrets);
      count += r.count;
      return r.text;
    });
    out[name] = Array.isArray(value) ? redacted : (redacted[0] ?? '');
  }
  return { headers: out as H, count };
}
