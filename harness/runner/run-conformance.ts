// runResolved(): probe the target, run the selected suites, fold verdicts per requirement, apply
// the baseline and hand the RunResult to the caller's reporter hooks. A run that cannot be done
// exits 2, never passes. The report files are written above this layer (harness/runs.ts).
import { readFileSync } from 'node:fs';
import { redactResult } from '../../core/redaction.ts';
import { toolLabel } from '../../core/tool-label.ts';
import { LEDGER_VERSION, REQUIREMENTS, selectRequirements } from '../../requirements/index.ts';
import type { Requirement, Role } from '../../requirements/types.ts';
import { ConfigError, type ResolvedRunOptions } from '../options.ts';
import type { FleetRunOptions } from '../../schemas/generated/types.ts';
import { authKindOf, secretsOf, type ProvidedRun } from '../provided.ts';
import type { HarnessError, RecordedOptions, RequirementResult, RunResult } from '../../core/types.ts';
import { decideExit, summarize } from '../../core/verdict.ts';
import { assembleRequirements, ledgerFields } from './assemble.ts';
import { decideExitWithBaseline, diffBaseline, loadBaseline, type Baseline } from './baseline.ts';
import type { CollectedTest } from './collector.ts';
import type { ProgressListener } from '../../core/progress.ts';
import { analyseRun } from '../analysis/root-causes.ts';
import { dialectProbeLines } from '../analysis/dialect.ts';
import type { ProbeOutcome } from './probe.ts';
import { runSuites } from './run-suites.ts';
import { startRun } from './start-run.ts';
import { summarizeTraffic } from './traffic.ts';
import { trimEvidence } from './trim-evidence.ts';

export type RunReporter = (result: RunResult) => void | Promise<void>;

/**
 * runConformance()'s options: the run options by their config-file names (FleetRunOptions, from
 * schemas/fleet-file.schema.json), the target and credentials a fleet sets per agent, and the hooks.
 */
export interface RunOptions extends FleetRunOptions {
  /** The service's base URL; absent: certify the bundled reference server. */
  target?: string;
  agentId?: string;
  apiKey?: string;
  bearer?: string;
  /** Directory for the report files (default ./reports); null writes none. */
  out?: string | null;
  /** Called with the finished RunResult, before the report files are written. */
  reporters?: RunReporter[];
  /** Progress lines; silent by default. */
  log?: (line: string) => void;
  /** Structured progress (each check, each suite file); replaces the per-file log lines. */
  progress?: ProgressListener;
}

export const TOOL = Object.freeze({
  name: 'a2a-conformance',
  version: (
    JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
  ).version,
  /** The ledger graded against (requirements/ledger-version.ts): compare reports only when it matches. */
  ledger: LEDGER_VERSION,
});

const LEVELS_RUN = {
  must: ['MUST'],
  should: ['MUST', 'SHOULD'],
  all: ['MUST', 'SHOULD', 'MAY', 'INFO'],
} as const;

/** The requirements of one role (`run` certifies the service) selected by --only and --level. */
export function selectForRun(
  opts: Pick<ResolvedRunOptions, 'only' | 'level'>,
  role: Role = 'service',
): Requirement[] {
  const base = opts.only.length > 0 ? selectRequirements(opts.only) : REQUIREMENTS;
  const levels: readonly string[] = LEVELS_RUN[opts.level];
  const selected = base.filter((r) => r.role === role && levels.includes(r.level));
  if (selected.length === 0) {
    const only = opts.only.length > 0 ? ` --only ${opts.only.join(',')}` : '';
    const of = role === 'service' ? '' : ` of the ${role} role`;
    throw new ConfigError(`no requirement${of} matches${only} at --level ${opts.level}`);
  }
  return selected;
}

export async function runResolved(
  opts: ResolvedRunOptions,
  reporters: RunReporter[],
  log: (line: string) => void,
  progress?: ProgressListener,
): Promise<RunResult> {
  const started = new Date();
  const selected = selectForRun(opts);
  const baseline = opts.baseline === undefined ? undefined : loadBaseline(opts.baseline);
  const run = await startRun(opts, (provided) =>
    log(
      `${toolLabel(TOOL)}: ${provided.baseUrl} agent ${provided.agentId}, ${selected.length} requirement(s)`,
    ),
  );
  const { provided, probe } = run;
  let result: RunResult;
  try {
    for (const line of dialectProbeLines(probe.dialectProbe)) log(line);
    const checked =
      probe.couldNotRun === null
        ? await runChecks(provided, selected, opts, log, progress)
        : notRun(selected, probe);
    result = finish(opts, provided, started, probe, checked, baseline);
    result.traffic = summarizeTraffic(provided.field, checked.tests, run.probeTally);
  } finally {
    await run.close();
  }
  // Evidence is redacted where it is recorded; this pass also covers messages and anything else,
  // so that no reporter and no caller ever holds the run's credentials.
  result = trimEvidence(redactResult(result, secretsOf(provided)), opts.evidence);
  await runReporters(result, reporters);
  return result;
}

interface Checked {
  requirements: RequirementResult[];
  harnessErrors: HarnessError[];
  couldNotRun: string | null;
  /** The suites' tests, with their traffic. */
  tests: CollectedTest[];
}

async function runChecks(
  provided: ProvidedRun,
  selected: Requirement[],
  opts: ResolvedRunOptions,
  log: (line: string) => void,
  progress: ProgressListener | undefined,
): Promise<Checked> {
  const suites = await runSuites(
    provided,
    selected.map((r) => r.id),
    opts.budgetMs,
    log,
    progress,
  );
  const reproduce = { ...provided, authKind: authKindOf(provided.auth) };
  const input = { selected, tests: suites.tests, card: provided.card, reproduce };
  const assembled = assembleRequirements(
    suites.interrupted === undefined ? input : { ...input, interrupted: suites.interrupted },
  );
  const harnessErrors = [...suites.harnessErrors, ...assembled.harnessErrors];
  if (suites.interrupted !== undefined) harnessErrors.push({ message: suites.interrupted });
  const couldNotRun =
    suites.interrupted ??
    (harnessErrors.length > 0
      ? `${harnessErrors.length} harness error(s): ${harnessErrors[0]!.message}`
      : null);
  return { requirements: assembled.requirements, harnessErrors, couldNotRun, tests: suites.tests };
}

/** The probe failed: every selected requirement is unverified (error), none is a pass. */
function notRun(selected: Requirement[], probe: ProbeOutcome): Checked {
  const requirements = selected.map<RequirementResult>((r) => ({
    ...ledgerFields(r),
    verdict: 'error',
    message: `not run: ${probe.couldNotRun}`,
    checks: [],
  }));
  return {
    requirements,
    harnessErrors: [{ message: probe.couldNotRun! }],
    couldNotRun: probe.couldNotRun,
    tests: [],
  };
}

function recordedOptions(opts: ResolvedRunOptions): RecordedOptions {
  const recorded: RecordedOptions = {
    level: opts.level,
    only: opts.only,
    timeoutMs: opts.timeoutMs,
    checkTimeoutMs: opts.checkTimeoutMs,
    budgetMs: opts.budgetMs,
    seed: opts.seed,
    runs: opts.runs,
    out: opts.out,
    webhookListen: `${opts.webhookListen.host}:${opts.webhookListen.port}`,
    webhookPublicUrl: opts.webhookPublicUrl ?? null,
    baseline: opts.baseline ?? null,
    evidence: opts.evidence,
  };
  if (opts.apiKey !== undefined) recorded.apiKey = '[redacted]';
  if (opts.bearer !== undefined) recorded.bearer = '[redacted]';
  return recorded;
}

function finish(
  opts: ResolvedRunOptions,
  provided: ProvidedRun,
  started: Date,
  probe: ProbeOutcome,
  checked: Checked,
  baseline: Baseline | undefined,
): RunResult {
  const finished = new Date();
  const diff = baseline === undefined ? undefined : diffBaseline(baseline, checked.requirements, opts.level);
  const exit =
    diff === undefined
      ? decideExit(checked.requirements, opts.level, checked.couldNotRun)
      : decideExitWithBaseline(checked.requirements, opts.level, checked.couldNotRun, diff);
  return {
    tool: { ...TOOL },
    role: 'service',
    target: {
      baseUrl: provided.baseUrl,
      agentId: provided.agentId,
      authKind: authKindOf(provided.auth),
      bundled: provided.bundled,
    },
    startedAt: started.toISOString(),
    finishedAt: finished.toISOString(),
    durationMs: finished.getTime() - started.getTime(),
    options: recordedOptions(opts),
    card: probe.card,
    reachability: probe.reachability,
    requirements: checked.requirements,
    summary: summarize(checked.requirements),
    harnessErrors: checked.harnessErrors,
    ...(diff === undefined ? {} : { baseline: diff }),
    ...exit,
    // Before --evidence trims the passing checks: their exchanges show a dialect too.
    ...analyseRun(checked.requirements, probe.dialectProbe),
  };
}

async function runReporters(result: RunResult, reporters: RunReporter[]): Promise<void> {
  for (const reporter of reporters) {
    try {
      await reporter(result);
    } catch (e) {
      result.harnessErrors.push({ message: `reporter failed: ${(e as Error).message}` });
      result.exitCode = 2;
      result.exitReason = `run could not be done: reporter failed: ${(e as Error).message}`;
    }
  }
}
