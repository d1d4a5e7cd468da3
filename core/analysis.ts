// What the analysis of a run adds to its result: the dialect the target speaks when it is not this
// spec's (the official A2A v0.3 or v1.0 JSON-RPC), and the root causes that many findings share, so a
// reader starts from a handful of causes instead of 150 unrelated lines (docs/reports.md).
// The dialect and root causes are report.json's shapes (schemas/report.schema.json, generated).
import type { ReportDialect, ReportDialectDifference, ReportRootCause } from '../schemas/generated/types.ts';

export type DialectId = ReportDialect['id'];

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
export type DialectDifference = ReportDialectDifference;

export type DialectReport = ReportDialect;

export type RootCauseKind = ReportRootCause['kind'];

/** One cause many findings share: an unexpected error code, HTTP status or missing field, or a dialect difference. */
export type RootCause = ReportRootCause;

/** What analyseRun() adds to a RunResult. */
export interface RunAnalysis {
  dialect?: DialectReport;
  rootCauses: RootCause[];
}
