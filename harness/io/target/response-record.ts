// Turns what came back from a target into size-capped evidence (RecordedResponse), for plain JSON-RPC
// answers (spec 2.2, 7) and for streams (spec 4.2), whose body is the raw SSE text. The record holds
// what the wire carried, for the checks to compare; a check's result is redacted once it is decided.
import { decodeUtf8, parseJson, type BodyAccumulator } from './body-reader.ts';
import {
  truncateText,
  type Exchange,
  type HeaderMap,
  type RecordedResponse,
  type StreamTranscript,
} from '../../../core/evidence.ts';
import { countSecrets, safeCut } from '../../../core/redaction.ts';

function definedHeaders(h: Record<string, string | string[] | undefined>): HeaderMap {
  const out: HeaderMap = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k] = v;
  return out;
}

/**
 * Records a response. JSON is parsed from all received bytes (only when the body was read whole and
 * is valid UTF-8); the recorded text is cut before any secret it would cut in two (so redaction later
 * finds it whole), and the secrets found are counted.
 */
export function recordResponse(
  status: number,
  rawHeaders: Record<string, string | string[] | undefined>,
  acc: BodyAccumulator,
  complete: boolean,
  secrets: readonly string[],
  cap: number,
): RecordedResponse {
  const { text, invalidUtf8 } = decodeUtf8(Buffer.concat(acc.chunks, acc.bytes));
  const headers = definedHeaders(rawHeaders);
  const shown = truncateText(text, safeCut(text, cap, secrets));
  const r: RecordedResponse = {
    status,
    headers,
    body: shown.text,
    bodyBytes: acc.bytes,
    truncated: shown.truncated || !complete,
    invalidUtf8,
    redactions: countSecrets(text, headers, secrets),
  };
  const parsed = !complete
    ? { parseError: 'response incomplete; body not parsed' }
    : invalidUtf8
      ? { parseError: 'body is not valid UTF-8' }
      : parseJson(text);
  if (parsed.json !== undefined) r.json = parsed.json;
  if (parsed.parseError !== undefined) r.parseError = parsed.parseError;
  return r;
}

/** Completes a stream's exchange record from its transcript (the body is the raw stream text). */
export function fillFromTranscript(ex: Exchange, t: StreamTranscript): void {
  ex.transcript = t;
  ex.timings.totalMs = t.closedAtMs ?? 0;
  if (t.headersMs !== undefined) ex.timings.headersMs = t.headersMs;
  if (t.error !== undefined) ex.error = t.error;
  if (t.status === undefined) return;
  const r: RecordedResponse = {
    status: t.status,
    headers: t.headers,
    body: t.raw,
    bodyBytes: t.bytes,
    truncated: t.rawTruncated,
    invalidUtf8: t.invalidUtf8,
    redactions: t.redactions,
  };
  if (t.json !== undefined) r.json = t.json;
  if (t.parseError !== undefined) r.parseError = t.parseError;
  ex.response = r;
}
