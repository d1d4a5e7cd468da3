// What a check leaves: its CheckResult (status, expected beside actual, notes, reproduce lines) with
// its evidence as the report holds it (streams apart from their exchanges, a body that is not JSON
// cut short); run-check.ts redacts it once the verdict is decided.
import type { Requirement } from '../../requirements/types.ts';
import {
  truncateText,
  type Exchange,
  type RecordedResponse,
  type StreamTranscript,
} from '../../core/evidence.ts';
import type { CheckEvidence, CheckResult } from '../../core/types.ts';
import { authKindOf, type ProvidedRun } from '../provided.ts';
import { curlFor, reproduceCommand } from '../reproduce.ts';
import type { CheckRecorder, Outcome } from './recorder.ts';

// Why: a body that is not JSON (HTML, invalid UTF-8, cut short) shows what came in a few KiB; the
// 256 KiB record of each such answer would grow a run against a garbage target by that much per request.
const NOT_JSON_REPORT_CHARS = 8 * 1024;

/**
 * The report's copy of an answer: a body that did not parse is cut to NOT_JSON_REPORT_CHARS, and a
 * body too large to record whole keeps its text prefix but not its parsed copy (the check had it).
 */
function reportResponse(ex: Exchange): Exchange {
  const res = ex.response;
  if (res === undefined) return ex;
  let response: RecordedResponse = res;
  if (res.parseError !== undefined && res.body.length > NOT_JSON_REPORT_CHARS) {
    response = { ...response, body: truncateText(res.body, NOT_JSON_REPORT_CHARS).text, truncated: true };
  }
  if (response.truncated && response.json !== undefined) {
    const { json: _json, ...rest } = response;
    response = rest;
  }
  return response === res ? ex : { ...ex, response };
}

/** Stream transcripts move out of their exchanges so the report holds each once. */
export function collectEvidence(all: Exchange[], deliveries: CheckEvidence['deliveries']): CheckEvidence {
  const streams: StreamTranscript[] = [];
  const exchanges = all.map((ex) => {
    if (ex.transcript === undefined) return reportResponse(ex);
    streams.push(ex.transcript);
    const { transcript: _t, ...rest } = ex;
    return reportResponse(rest);
  });
  return { exchanges, streams, deliveries };
}

export function buildResult(
  spec: { requirement: Requirement; title: string; file?: string | undefined },
  run: ProvidedRun,
  outcome: Outcome,
  recorder: CheckRecorder,
  evidence: CheckEvidence,
  durationMs: number,
): CheckResult {
  const base = { ...run, authKind: authKindOf(run.auth) };
  const result: CheckResult = {
    requirementId: spec.requirement.id,
    title: spec.title,
    status: outcome.status,
    message: outcome.message,
    assertions: recorder.assertions,
    notes: recorder.notes,
    evidence,
    durationMs: Math.round(durationMs),
    reproduce: { command: reproduceCommand(base, spec.requirement.id) },
  };
  if (outcome.field !== undefined) result.field = outcome.field;
  if ('expected' in outcome) result.expected = outcome.expected;
  if ('actual' in outcome) result.actual = outcome.actual;
  const curl = curlFor(evidence.exchanges[0]);
  if (curl !== undefined) result.reproduce.curl = curl;
  if (spec.file !== undefined) result.file = spec.file;
  return result;
}
