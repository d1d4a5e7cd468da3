// The run result and its parts: findings about the target are data (requirement id, verdict,
// expected, actual, evidence), never thrown assertions. Every reporter reads a RunResult.
import type { LedgerVersion } from '../requirements/ledger-version.ts';
import type { Level, Role } from '../requirements/types.ts';
import type { DialectReport, RootCause } from './analysis/types.ts';
import type { Delivery, Exchange, StreamTranscript } from './io/evidence.ts';

/** The outcome of one check (one `verifies()` call). `error` is the harness's own failure. */
export type CheckStatus = 'pass' | 'fail' | 'not-applicable' | 'not-exercised' | 'error';

/**
 * The verdict of one requirement, folded from its checks and the ledger level: a failed check is
 * `fail` for MUST, `warn` for SHOULD and `info` for MAY and INFO (Autobahn's FAILED / NON-STRICT /
 * INFORMATIONAL split).
 */
export type Verdict = 'pass' | 'fail' | 'warn' | 'info' | 'not-applicable' | 'not-exercised' | 'error';

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
export type LevelSelection = 'must' | 'should' | 'all';

/** One recorded comparison (h2spec style: expected beside actual). */
export interface Assertion {
  label: string;
  /** The expected value, or a description of it when a matcher or predicate decided. */
  expected: unknown;
  actual: unknown;
  pass: boolean;
}

/** Wire evidence gathered while a check ran; shapes come from harness/io/evidence.ts. */
export interface CheckEvidence {
  /** Every HTTP exchange of the check; stream exchanges carry their transcript. */
  exchanges: Exchange[];
  /** Transcripts of the check's streams (also reachable through their exchange). */
  streams: StreamTranscript[];
  /** Webhook deliveries to the URLs the check handed out (raw body left out, text kept). */
  deliveries: Omit<Delivery, 'body'>[];
}

/**
 * `--evidence`: the wire evidence a run keeps. `all`: every check's; `failing`: only that of checks
 * that did not pass (a passing check keeps its verdict); `none`: no check's.
 */
export type EvidenceMode = 'all' | 'failing' | 'none';

export const EVIDENCE_MODES: readonly EvidenceMode[] = Object.freeze(['all', 'failing', 'none']);

/** What `--evidence` left out of a check: how many of each, so a reader knows it existed. */
export interface EvidenceOmitted {
  evidence: Exclude<EvidenceMode, 'all'>;
  exchanges: number;
  streams: number;
  deliveries: number;
  /** Assertions dropped (a passing check keeps only its verdict). */
  assertions: number;
}

export interface Reproduce {
  /** A command that re-runs just this requirement against the same target. */
  command: string;
  /** The first exchange of the check as a curl line; credentials as $A2A_API_KEY / $A2A_BEARER. */
  curl?: string;
}

export interface CheckResult {
  requirementId: string;
  title: string;
  status: CheckStatus;
  /** Of the first failed assertion (or of the failure); absent on pass. */
  expected?: unknown;
  actual?: unknown;
  message: string;
  assertions: Assertion[];
  /** `c.info()` notes: observations that are neither pass nor fail. */
  notes: string[];
  evidence: CheckEvidence;
  durationMs: number;
  reproduce: Reproduce;
  /** Suite file that registered the check, relative to the project root. */
  file?: string;
  /** Set when `--evidence` left this check's evidence out of the result. */
  evidenceOmitted?: EvidenceOmitted;
}

export interface RequirementResult {
  id: string;
  section: string;
  /** The party the requirement binds (absent from reports older than roles: `service`). */
  role?: Role;
  level: Level;
  behaviour: string;
  rulings: string[];
  verdict: Verdict;
  /** Why the verdict is what it is when no check decides it (e.g. 'no check registered'). */
  message?: string;
  checks: CheckResult[];
}

export type VerdictCounts = Record<Verdict, number>;

export interface RunSummary {
  total: number;
  byVerdict: VerdictCounts;
  byLevel: Record<Level, VerdictCounts>;
}

export type AuthKind = 'api-key' | 'bearer' | 'none';

export interface Reachability {
  /** True when the probe got an HTTP answer from the agent endpoint. */
  reachable: boolean;
  /** True when the probe's credential was accepted. */
  authenticated: boolean;
  /** HTTP status of the probe, when one came back. */
  status?: number;
  message: string;
  durationMs: number;
}

/** A failure of the harness itself (suite that failed to load, unhandled error, spent budget). */
export interface HarnessError {
  message: string;
  file?: string;
  stack?: string;
}

export interface BaselineDiff {
  file: string;
  /** `report`: an earlier report.json; `expected-failures`: `{"expectedFailures": [ids]}`. */
  format: 'report' | 'expected-failures';
  /** Requirement ids the baseline expects to fail (fail or warn in a report baseline). */
  expectedFailures: string[];
  /** Gating failures the baseline does not expect: they fail the run (exit 1). */
  newFailures: { id: string; verdict: Verdict }[];
  /** Expected failures that now pass: they fail the run too, until the baseline drops them. */
  nowPassing: string[];
  /** Expected failures that still fail: excused. */
  stillFailing: string[];
  /** Requirements whose verdict got worse (e.g. pass -> fail) since the baseline. */
  regressions: { id: string; before: Verdict; after: Verdict }[];
  improvements: { id: string; before: Verdict; after: Verdict }[];
  /**
   * A report baseline's ledger hash beside this run's (`baseline` null: an older report without
   * one). When they differ, a requirement may have changed between the two runs.
   */
  ledger?: { baseline: string | null; current: string };
}

/** Options as recorded in the result: secrets replaced by '[redacted]'. */
export interface RecordedOptions {
  level: LevelSelection;
  only: string[];
  timeoutMs: number;
  checkTimeoutMs: number;
  budgetMs: number;
  seed: number;
  runs: number;
  out: string | null;
  webhookListen: string | null;
  webhookPublicUrl: string | null;
  baseline: string | null;
  /** `--evidence` (absent from reports of older versions, which kept all). */
  evidence?: EvidenceMode;
  apiKey?: string;
  bearer?: string;
}

export interface RunResult {
  /** `ledger`: the ledger version graded against (absent from reports of older versions). */
  tool: { name: string; version: string; ledger?: LedgerVersion };
  /** The role certified: `run` the service, `receiver` a webhook receiver, `client` a client (absent: service). */
  role?: Role;
  target: { baseUrl: string; agentId: string; authKind: AuthKind; bundled: boolean };
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  options: RecordedOptions;
  /** The extended card fetched by the probe, or null when none could be fetched. */
  card: Record<string, unknown> | null;
  reachability: Reachability;
  requirements: RequirementResult[];
  summary: RunSummary;
  harnessErrors: HarnessError[];
  baseline?: BaselineDiff;
  /** The official A2A dialect the target speaks instead of this spec's, when the run saw one (harness/analysis). */
  dialect?: DialectReport;
  /** Causes many findings share, largest first (absent from reports of older versions). */
  rootCauses?: RootCause[];
  /** 0 no gating requirement failed; 1 one did; 2 the run could not be done. */
  exitCode: 0 | 1 | 2;
  /** One line saying why the exit code is what it is. */
  exitReason: string;
  /** How the run went on the wire (absent from reports of older versions). */
  traffic?: RunTraffic;
}

/** `--profile`: how many agent turns a run may spend (README, Field conditions). */
export type Profile = 'smoke' | 'standard' | 'full';

/** The traffic of a run: what it sent, how it kept to the agent's limits, and what it left out. */
export interface RunTraffic {
  profile: Profile;
  /** Every request sent to the target (resent rate-limited attempts included). */
  requests: number;
  /** Requests that created a task (message/send, message/stream): each an LLM call on a real agent. */
  agentTurns: number;
  /** `--max-turns`, null when uncapped. */
  maxTurns: number | null;
  turnLatencyMs: { p50: number | null; p95: number | null; samples: number };
  rateLimit: {
    /** The pace the governor kept; null when it kept none. */
    requestsPerMinute: number | null;
    source: 'card' | 'option' | 'none';
    /** Time spent waiting on the pace or on Retry-After. */
    waitedMs: number;
    /** Rate-limited answers (HTTP 429 or -32012) seen outside the rate-limit checks, each resent. */
    rateLimitedAnswers: number;
  };
  /** Requests in flight at once: the cap (--concurrency) and the most seen. */
  concurrency: { limit: number; maxInFlight: number };
  /** What the profile or budget left out, and the option that covers it. */
  cut: Array<{ what: string; option: string }>;
  /** Generated cases each property got: planned by the profile, and run. */
  properties: Array<{ requirementId: string; label: string; planned: number; runs: number }>;
}
