// The run result and its parts: findings about the target are data (requirement id, verdict,
// expected, actual, evidence), never thrown assertions. Every reporter reads a RunResult. The shapes
// are report.json's (schemas/report.schema.json, generated into schemas/generated/types.ts): the
// names here are the harness's words for them, never a second definition.
import type {
  ConformanceReport,
  ReportAssertion,
  ReportBaseline,
  ReportCheck,
  ReportCheckStatus,
  ReportEvidence,
  ReportEvidenceOmitted,
  ReportHarnessError,
  ReportOptions,
  ReportReachability,
  ReportReproduce,
  ReportRequirement,
  ReportSummary,
  ReportTraffic,
  ReportVerdict,
  ReportWindowFill,
} from '../schemas/generated/types.ts';

/** The outcome of one check (one `verifies()` call). `error` is the harness's own failure. */
export type CheckStatus = ReportCheckStatus;

/**
 * The verdict of one requirement, folded from its checks and the ledger level: a failed check is
 * `fail` for MUST, `warn` for SHOULD and `info` for MAY and INFO (Autobahn's FAILED / NON-STRICT /
 * INFORMATIONAL split).
 */
export type Verdict = ReportVerdict;

export const VERDICTS: readonly Verdict[] = Object.freeze([
  'pass',
  'fail',
  'warn',
  'info',
  'not-applicable',
  'not-exercised',
  'error',
]);

/** `--level`: which requirements run; `should` also makes SHOULD warnings fail the run. */
export type LevelSelection = ReportOptions['level'];

/** One recorded comparison (h2spec style: expected beside actual). */
export type Assertion = ReportAssertion;

/** Wire evidence gathered while a check ran (deliveries without their raw body: core/evidence.ts). */
export type CheckEvidence = ReportEvidence;

/**
 * `--evidence`: the wire evidence a run keeps. `all`: every check's; `failing`: only that of checks
 * that did not pass (a passing check keeps its verdict); `none`: no check's.
 */
export type EvidenceMode = NonNullable<ReportOptions['evidence']>;

export const EVIDENCE_MODES: readonly EvidenceMode[] = Object.freeze(['all', 'failing', 'none']);

/** What `--evidence` left out of a check: how many of each, so a reader knows it existed. */
export type EvidenceOmitted = ReportEvidenceOmitted;

export type Reproduce = ReportReproduce;

export type CheckResult = ReportCheck;

export type RequirementResult = ReportRequirement;

/** report.json's ReportVerdictCounts, as a record over the verdicts (a tally is built by key). */
export type VerdictCounts = Record<Verdict, number>;

export type RunSummary = ReportSummary;

export type AuthKind = ConformanceReport['target']['authKind'];

export type Reachability = ReportReachability;

/** A failure of the harness itself (suite that failed to load, unhandled error, spent budget). */
export type HarnessError = ReportHarnessError;

export type BaselineDiff = ReportBaseline;

/** Options as recorded in the result: secrets replaced by '[redacted]'. */
export type RecordedOptions = ReportOptions;

/** A run's result: report.json without what the JSON reporter adds (`$schema`, `compliance`). */
export type RunResult = Omit<ConformanceReport, '$schema' | 'compliance'>;

/** `--profile`: how many agent turns a run may spend (docs/field-conditions.md). */
export type Profile = ReportTraffic['profile'];

/**
 * The traffic of a run: what it sent, how it kept to the agent's limits, and what it left out. This
 * version always records the cases per property (report.json of older versions may lack them).
 */
export type RunTraffic = ReportTraffic & Required<Pick<ReportTraffic, 'properties'>>;

/** The rate window filled ahead of the rate-limit burst (harness/runner/window-fill.ts). */
export type WindowFillReport = ReportWindowFill;
