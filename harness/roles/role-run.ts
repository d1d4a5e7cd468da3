// Folds the checks of a `receiver` or `client` run into a RunResult exactly as `run` does (ledger
// level -> verdict, summary, exit code, baseline, redaction), so reporters, baselines and exit codes
// work unchanged for every role.
import type { Requirement, Role } from '../../requirements/types.ts';
import { redactResult } from '../../core/redaction.ts';
import type { LevelSelection } from '../../core/types.ts';
import type {
  CheckResult,
  HarnessError,
  Reachability,
  RecordedOptions,
  RequirementResult,
  RunResult,
} from '../../core/types.ts';
import { ledgerFields } from '../runner/assemble.ts';
import { decideExitWithBaseline, diffBaseline, loadBaseline } from '../runner/baseline.ts';
import { TOOL } from '../runner/tool.ts';
import { decideExit, foldVerdict, summarize } from '../../core/verdict.ts';
import { interruptedExit, interruptedMessage, interruptionOf } from '../../core/interrupt.ts';

export interface RoleRunOptions {
  level: LevelSelection;
  only: string[];
  timeoutMs: number;
  budgetMs: number;
  out: string | null;
  baseline?: string;
  /** Aborted by SIGINT or SIGTERM (core/interrupt.ts): no check starts after it. */
  signal?: AbortSignal;
}

/** The directory of a run's report files: the given one (null: none), else ./reports. */
export function outOf(given: { out?: string | null }): string | null {
  return given.out === undefined ? './reports' : given.out;
}

/** A role run's options: the given ones, else the defaults; `timeoutMs` is the mode's own budget per step. */
export function roleRunOptions(given: Partial<RoleRunOptions>, timeoutMs: number): RoleRunOptions {
  return {
    level: given.level ?? 'all',
    only: given.only ?? [],
    timeoutMs,
    budgetMs: given.budgetMs ?? 600_000,
    out: outOf(given),
    ...(given.baseline === undefined ? {} : { baseline: given.baseline }),
    ...(given.signal === undefined ? {} : { signal: given.signal }),
  };
}

export interface RoleRunInput {
  role: Exclude<Role, 'service'>;
  /** What was certified: the receiver URL, or the client's command line. */
  target: string;
  selected: readonly Requirement[];
  checks: readonly CheckResult[];
  /** Why a selected requirement has no check, by id (e.g. its scenario was not run). */
  unchecked?: ReadonlyMap<string, string>;
  reachability: Reachability;
  harnessErrors: HarnessError[];
  /** Set when the run could not be done (unreachable receiver, harness failure): exit 2, nothing passes. */
  couldNotRun: string | null;
  startedAt: Date;
  options: RoleRunOptions;
  secrets: readonly string[];
}

function requirementResult(r: Requirement, input: RoleRunInput): RequirementResult {
  const interrupted = interruptionOf(input.options.signal);
  const checks = input.checks.filter((c) => c.requirementId === r.id);
  const result: RequirementResult = {
    ...ledgerFields(r),
    verdict:
      input.couldNotRun !== null
        ? 'error'
        : foldVerdict({ level: r.level, statuses: checks.map((c) => c.status) }),
    checks: input.couldNotRun !== null ? [] : checks,
  };
  if (input.couldNotRun !== null) result.message = `not run: ${input.couldNotRun}`;
  else if (checks.length === 0 && interrupted !== undefined) result.message = interruptedMessage(interrupted);
  else if (checks.length === 0) result.message = input.unchecked?.get(r.id) ?? 'no check registered';
  return result;
}

function recordedOptions(o: RoleRunOptions): RecordedOptions {
  return {
    level: o.level,
    only: o.only,
    timeoutMs: o.timeoutMs,
    checkTimeoutMs: o.timeoutMs,
    budgetMs: o.budgetMs,
    seed: 0,
    runs: 0,
    out: o.out,
    webhookListen: null,
    webhookPublicUrl: null,
    baseline: o.baseline ?? null,
  };
}

/** The RunResult of a role run, redacted; the baseline file is read here (ConfigError when bad). */
export function roleRunResult(input: RoleRunInput): RunResult {
  const finished = new Date();
  const requirements = input.selected.map((r) => requirementResult(r, input));
  const { level } = input.options;
  const baseline = input.options.baseline === undefined ? undefined : loadBaseline(input.options.baseline);
  const diff = baseline === undefined ? undefined : diffBaseline(baseline, requirements, level);
  const interrupted = interruptionOf(input.options.signal);
  const exit =
    diff === undefined
      ? decideExit(requirements, level, input.couldNotRun)
      : decideExitWithBaseline(requirements, level, input.couldNotRun, diff);
  const result: RunResult = {
    tool: { ...TOOL },
    role: input.role,
    target: { baseUrl: input.target, agentId: '', authKind: 'none', bundled: false },
    startedAt: input.startedAt.toISOString(),
    finishedAt: finished.toISOString(),
    durationMs: finished.getTime() - input.startedAt.getTime(),
    options: recordedOptions(input.options),
    card: null,
    reachability: input.reachability,
    requirements,
    summary: summarize(requirements),
    harnessErrors: input.harnessErrors,
    ...(diff === undefined ? {} : { baseline: diff }),
    ...(interrupted === undefined ? exit : interruptedExit(interrupted, requirements)),
  };
  return redactResult(result, input.secrets);
}
