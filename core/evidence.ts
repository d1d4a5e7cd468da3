// Evidence records kept by the harness network layer: HTTP exchanges, SSE stream transcripts
// (spec 4.2, ruling C-31) and webhook deliveries (spec 6). Redaction of the user's secrets (spec 5)
// lives in core/redaction.ts, re-exported here for the programs that import it from this module.
import { redact } from './redaction.ts';

import type {
  ReportDelivery,
  ReportDeliveryResponse,
  ReportExchange,
  ReportIoError,
  ReportRecordedRequest,
  ReportRecordedResponse,
  ReportSseComment,
  ReportSseEvent,
  ReportStreamTranscript,
  ReportTimings,
} from '../schemas/generated/types.ts';

// The records are report.json's evidence shapes (schemas/report.schema.json, generated into
// schemas/generated/types.ts); only a delivery differs in memory, by its raw body.
export { REDACTED, redact, redactHeaders, redactText } from './redaction.ts';

export type IoError = ReportIoError;
export type IoErrorKind = IoError['kind'];

export type HeaderMap = Record<string, string | string[]>;

export type RecordedRequest = ReportRecordedRequest;
export type RecordedResponse = ReportRecordedResponse;
export type Timings = ReportTimings;
export type Exchange = ReportExchange;
export type SseEvent = ReportSseEvent;
export type SseComment = ReportSseComment;
export type StreamTranscript = ReportStreamTranscript;
export type StreamBudget = NonNullable<StreamTranscript['budgetExceeded']>;
export type DeliveryResponse = ReportDeliveryResponse;

/** A webhook delivery as received: its report evidence (deliveryEvidence) plus the raw body. */
export interface Delivery extends ReportDelivery {
  body: Buffer;
}

/** What stands for a request an exchange's record lacks (a record built by hand or cut): shown, never a crash. */
const NO_REQUEST: RecordedRequest = Object.freeze({ method: '(no request)', url: '', headers: {} });

/** The exchange's request, or NO_REQUEST: reporters and the analysis read every record through it. */
export function requestOf(ex: Exchange): RecordedRequest {
  return (ex.request as RecordedRequest | undefined) ?? NO_REQUEST;
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
export function deliveryEvidence(d: Delivery, secrets: readonly string[]): ReportDelivery {
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
