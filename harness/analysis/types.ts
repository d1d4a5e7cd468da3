// What the analysis of a run adds to its result: the dialect the target speaks when it is not this
// spec's (the official A2A v0.3 or v1.0 JSON-RPC), and the root causes that many findings share, so a
// reader starts from a handful of causes instead of 150 unrelated lines (README, Reports).
import type { Verdict } from '../types.ts';

export type DialectId = 'a2a-v0.3' | 'a2a-v1.0';

/** One answer to a dialect probe request (sent only when the spec's card method gave no card). */
export interface DialectProbeAnswer {
  dialect: DialectId;
  /** The method the dialect names for what spec 4.8 calls agent/authenticatedExtendedCard. */
  method: string;
  status?: number;
  code?: number;
  message?: string;
  /** The method is known to the target: a result, or an error other than method-not-found or a malformed request. */
  served: boolean;
}

/** A way the target's answers differ from this spec that the named dialect explains. */
export interface DialectDifference {
  /** Stable id, e.g. `extended-card-method`, `kind-discriminator`, `task-id-param`. */
  id: string;
  /** What this spec asks. */
  spec: string;
  /** What the target did, as the dialect does it. */
  seen: string;
  /** Findings (fail, warn, error) this difference explains. */
  requirements: number;
}

export interface DialectReport {
  id: DialectId;
  /** `the official A2A v0.3 JSON-RPC`. */
  name: string;
  /** What named the dialect: probe answers and differences seen, one line each. */
  evidence: string[];
  differences: DialectDifference[];
  /** Findings the differences explain, of all findings (MUST fail, SHOULD warn, error). */
  explained: number;
  findings: number;
}

export type RootCauseKind =
  'dialect' | 'error-code' | 'http-status' | 'no-answer' | 'missing-field' | 'no-error' | 'harness-error';

/** One cause many findings share: an unexpected error code, HTTP status or missing field, or a dialect difference. */
export interface RootCause {
  kind: RootCauseKind;
  /** Stable key of the cause, e.g. `error-code 200 -32001 Task not found: #` or `dialect task-id-param`. */
  key: string;
  /** One line: what the target did. */
  cause: string;
  /** What the spec asks instead, when the cause says it. */
  expected?: string;
  /** The findings it explains, in ledger order. */
  requirements: { id: string; verdict: Verdict }[];
  /** One exchange that shows it, on one line. */
  example?: string;
}

/** What analyseRun() adds to a RunResult. */
export interface RunAnalysis {
  dialect?: DialectReport;
  rootCauses: RootCause[];
}
