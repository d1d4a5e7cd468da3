// runResolved(): probe the target, run the selected suites, fold verdicts per requirement, apply
// the baseline and hand the RunResult to the caller's reporter hooks. A run that cannot be done
// exits 2, never passes; an interrupted one keeps what it decided and exits 130 or 143. The report
// files are written above this layer (harness/runs.ts).
import { cardLimit } from '../capabilities.ts';
import { readFileSync } from 'node:fs';
import { redactResult } from '../../core/redaction.ts';
import { toolLabel } from '../../core/tool-label.ts';
import { LEDGER_VERSION, REQUIREMENTS, selectRequirements } from '../../requirements/index.ts';
import { didYouMean, nearestForGlob } from '../../requirements/nearest.ts';
import type { Requirement, Role } from '../../requirements/types.ts';
import { ConfigError, type ResolvedRunOptions } from '../options.ts';
import type { FleetRunOptions } from '../../schemas/generated/types.ts';
import { authKindOf, budgetCut, secretsOf, type ProvidedRun } from '../provided.ts';
import type { HarnessError, RequirementResult, RunResult, RunTraffic } from '../../core/types.ts';
import { decideExit, summarize } from '../../core/verdict.ts';
import { interruptedBy, interruptedExit, interruptionOf, type Interruption } from '../../core/interrupt.ts';
import { assembleRequirements, ledgerFields } from './assemble.ts';
import { decideExitWithBaseline, diffBaseline, loadBaseline, type Baseline } from './baseline.ts';
import type { CollectedTest } from './collector.ts';
import type { ProgressListener } from '../../core/progress.ts';
import { analyseRunSafely } from '../analysis/root-causes.ts';
import { dialectProbeLines } from '../analysis/dialect.ts';
import type { ProbeOutcome } from './probe.ts';
import type { Planner } from './run-phases.ts';
import type { RunState } from './run-state.ts';
import { runSuites, type SuitesOutcome } from './run-suites.ts';
import { makePlan, type RunPlan } from './plan.ts';
import { checkWeights, planLines } from './plan-console.ts';
import type { AgentPace } from './plan-estimate.ts';
import { propertyLimits } from '../check/profile.ts';
import { requestsPerMinute } from '../io/traffic/pace.ts';
import { startRun } from './start-run.ts';
import { summarizeTraffic, type RequirementCut } from './traffic.ts';
import { recordedOptions } from './recorded-options.ts';
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
  /** Headers whose values are secret (`Name: value`), sent on every request and redacted everywhere. */
  secretHeader?: string[];
  /** Base URLs of the replicas behind `target`, for the cross-replica checks (two or more). */
  replica?: string[];
  /** Directory for the report files (default ./reports); null writes none. */
  out?: string | null;
  /** File the run's events stream into, one JSON line each (`-`: stdout); absent: none. */
  events?: string;
  /** Called with the finished RunResult, before the report files are written. */
  reporters?: RunReporter[];
  /** Progress lines; silent by default. */
  log?: (line: string) => void;
  /** Structured progress (each check, each suite file); replaces the per-file log lines. */
  progress?: ProgressListener;
  /**
   * Ends the run early when aborted: no new request, the checks under way get a few seconds, the
   * rest are not-exercised, and the result's exitCode is 130 (143 when the reason is `{ signal: 'SIGTERM' }`).
   */
  signal?: AbortSignal;
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

/**
 * Every glob of --only selects some requirement of the ledger (of any role): a typo is an error that
 * names the nearest ids or sections, never a glob silently ignored beside the others.
 */
export function assertKnownGlobs(only: readonly string[]): void {
  for (const glob of only.flatMap((g) => g.split(',')).map((g) => g.trim())) {
    if (glob === '' || selectRequirements(glob).length > 0) continue;
    throw new ConfigError(`--only ${glob} matches no requirement${didYouMean(nearestForGlob(glob))}`);
  }
}

/** The requirements of one role (`run` certifies the service) selected by --only and --level. */
export function selectForRun(
  opts: Pick<ResolvedRunOptions, 'only' | 'level'>,
  role: Role = 'service',
): Requirement[] {
  assertKnownGlobs(opts.only);
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
  /** Aborted by SIGINT or SIGTERM (core/interrupt.ts): the run ends early and keeps what it decided. */
  interrupt?: AbortSignal,
): Promise<RunResult> {
  const started = new Date();
  const selected = selectForRun(opts);
  const baseline = opts.baseline === undefined ? undefined : loadBaseline(opts.baseline);
  const run = await startRun(
    opts,
    (provided) => {
      log(
        `${toolLabel(TOOL)}: ${provided.baseUrl} agent ${provided.agentId}, ${selected.length} requirement(s)`,
      );
      progress?.({
        kind: 'start',
        tool: { ...TOOL },
        target: { baseUrl: provided.baseUrl, agentId: provided.agentId },
        requirements: selected.map((r) => ({ id: r.id, level: r.level })),
      });
    },
    interrupt,
    log,
  );
  const { state, probe } = run;
  const provided = state.run;
  let result: RunResult;
  try {
    for (const line of dialectProbeLines(probe.dialectProbe)) log(line);
    const before = interruptionOf(interrupt);
    const checked =
      before !== undefined
        ? interruptedBeforeChecks(selected, before)
        : probe.couldNotRun !== null
          ? notRun(selected, probe)
          : await runChecks(
              state,
              selected,
              opts,
              log,
              progress,
              agentPace(provided, probe, opts),
              interrupt,
              started,
            );
    result = finish(opts, state.run, started, probe, checked, baseline);
    result.traffic = summarizeTraffic(
      state.run.field,
      [...checked.tests, ...checked.superseded],
      [run.probeTally, checked.windowFill?.tally],
      checked.notRun,
    );
    if (checked.windowFill !== undefined) result.traffic.windowFill = checked.windowFill.report;
    if (checked.plan !== undefined) result.traffic.plan = checked.plan;
    if (checked.webhooks !== undefined) result.traffic.webhooks = checked.webhooks;
  } finally {
    await run.close();
  }
  // Each check's result is redacted once its verdict is decided; this pass also covers the probe, the
  // card, messages and anything else, so that no reporter and no caller ever holds the credentials.
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
  /** Results a breadth pass replaced: their traffic still counts. */
  superseded: CollectedTest[];
  /** The run's plan beside what the suites spent. */
  plan?: RunTraffic['plan'];
  /** The run's webhook receiver (traffic.webhooks). */
  webhooks?: SuitesOutcome['webhooks'];
  /** The rate window filled ahead of the burst (traffic.windowFill). */
  windowFill?: SuitesOutcome['windowFill'];
  /** Requirements with a check the run's budget ended before it started (traffic.cut). */
  notRun?: RequirementCut[];
  /** A signal ended the run early (core/interrupt.ts): its exit code replaces the verdict's. */
  signalled?: Interruption;
}

/** What the plan reads of the agent: the probe's measures, the card's limits, the run's options. */
function agentPace(provided: ProvidedRun, probe: ProbeOutcome, opts: ResolvedRunOptions): AgentPace {
  return {
    requestsPerMinute: requestsPerMinute(provided.field.pace),
    taskCap: provided.field.taskCap ?? null,
    roundTripMs: probe.reachability.durationMs,
    turnLatencyMs: probe.turnLatencyMs ?? null,
    systemTimeoutMs: cardLimit(provided.card, 'systemTimeoutMs') ?? null,
    maxWaitMs: opts.maxWaitMs,
    checkTimeoutMs: opts.checkTimeoutMs,
    concurrency: provided.field.concurrency,
  };
}

/** The plan as report.json records it, beside what the suites spent. */
function recordedPlan(
  plan: RunPlan,
  agent: AgentPace,
  suites: SuitesOutcome,
  collectedMs: number,
): NonNullable<RunTraffic['plan']> {
  const tests = [...suites.tests, ...(suites.superseded ?? [])];
  const sum = (f: (t: CollectedTest) => number): number => tests.reduce((n, t) => n + f(t), 0);
  return {
    requirements: plan.requirements,
    checks: plan.checks,
    turnLatencyMs: agent.turnLatencyMs,
    roundTripMs: agent.roundTripMs,
    budgetMs: plan.budgetMs,
    coverage: plan.coverage,
    breadth: { requests: plan.breadth.requests, turns: plan.breadth.turns, ms: plan.breadth.ms },
    breadthWanted: plan.breadth.wanted,
    fits: plan.fits,
    // Beside spent.ms, which counts from before the checks were collected.
    estimateMs: collectedMs + plan.estimateMs,
    unreached: plan.unreached,
    budgetToFit: plan.budgetToFit,
    passes: suites.passes ?? 'one',
    ...(plan.coveragePasses !== undefined && plan.coveragePasses.length > 1 ? { mustFirst: true } : {}),
    spent: {
      requests: sum((t) => t.traffic?.requests ?? 0),
      turns: sum((t) => t.traffic?.agentTurns ?? 0),
      ms: suites.ms ?? 0,
    },
  };
}

async function runChecks(
  state: RunState,
  selected: Requirement[],
  opts: ResolvedRunOptions,
  log: (line: string) => void,
  progress: ProgressListener | undefined,
  agent: AgentPace,
  interrupt: AbortSignal | undefined,
  started: Date,
): Promise<Checked> {
  const provided = state.run;
  const suitesCalled = Date.now();
  // What the suites spent before the plan (collecting the checks), added to the plan's own estimate.
  let collectedMs = 0;
  const planner: Planner = (checks, workers) => {
    collectedMs = Date.now() - suitesCalled;
    const plan = makePlan({
      checks,
      agent,
      budgetMs: opts.budgetMs,
      workers,
      runs: opts.runs,
      propertyLimits: propertyLimits(provided.field),
      must: new Set(selected.filter((r) => r.level === 'MUST').map((r) => r.id)),
    });
    for (const line of planLines(plan, agent, Date.now() - started.getTime())) log(line);
    progress?.({
      kind: 'plan',
      checks: checkWeights(checks, agent, plan),
      estimateMs: plan.estimateMs,
      budgetMs: plan.budgetMs,
      fits: plan.fits,
      requirements: plan.requirements,
      requests: plan.coverage.requests + plan.breadth.requests,
      turns: plan.coverage.turns + plan.breadth.turns,
    });
    return plan;
  };
  const suites = await runSuites(
    state,
    selected.map((r) => r.id),
    opts.budgetMs,
    log,
    progress,
    planner,
    interrupt,
  );
  const reproduce = { ...state.run, authKind: authKindOf(provided.auth) };
  const input = { selected, tests: suites.tests, card: provided.card, reproduce };
  // A budget spent before every check ran is no harness error: what ran is graded, what did not is
  // not-exercised naming the --budget-ms that would fit it. Checks still waiting on the target at the
  // end of the grace after it make the run one that could not be done (interrupted).
  const budgetSpent = suites.budgetSpent;
  const assembled = assembleRequirements(budgetSpent === undefined ? input : { ...input, budgetSpent });
  const harnessErrors = [...suites.harnessErrors, ...assembled.harnessErrors];
  if (suites.interrupted !== undefined) harnessErrors.push({ message: suites.interrupted });
  const couldNotRun =
    suites.interrupted ??
    (harnessErrors.length > 0
      ? `${harnessErrors.length} harness error(s): ${harnessErrors[0]!.message}`
      : null);
  const checked: Checked = {
    requirements: assembled.requirements,
    harnessErrors,
    couldNotRun,
    tests: suites.tests,
    superseded: suites.superseded ?? [],
  };
  if (suites.signalled !== undefined) checked.signalled = suites.signalled;
  if (suites.notRun !== undefined) {
    const cut =
      suites.signalled === undefined ? budgetCut(state.run.field, 'ran') : interruptCut(suites.signalled);
    checked.notRun = suites.notRun.map((requirementId) => ({ requirementId, ...cut }));
  }
  if (suites.plan !== undefined) checked.plan = recordedPlan(suites.plan, agent, suites, collectedMs);
  if (suites.webhooks !== undefined) checked.webhooks = suites.webhooks;
  if (suites.windowFill !== undefined) checked.windowFill = suites.windowFill;
  return checked;
}

/** Interrupted before the first check: every selected requirement is not-exercised. */
function interruptedBeforeChecks(selected: Requirement[], i: Interruption): Checked {
  const requirements = selected.map<RequirementResult>((r) => ({
    ...ledgerFields(r),
    verdict: 'not-exercised',
    message: `not exercised: the run was ${interruptedBy(i)} before its checks started`,
    checks: [],
  }));
  return { requirements, harnessErrors: [], couldNotRun: null, tests: [], superseded: [], signalled: i };
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
    superseded: [],
  };
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
      ? decideExit(checked.requirements, opts.level, checked.couldNotRun, opts)
      : decideExitWithBaseline(checked.requirements, opts.level, checked.couldNotRun, diff, opts);
  // Before --evidence trims the passing checks: their exchanges show a dialect too. A failure of the
  // analysis is named, and the verdicts and exit code stand without root causes.
  const { analysis, error, stack } = analyseRunSafely(checked.requirements, probe.dialectProbe);
  const harnessErrors =
    error === undefined
      ? checked.harnessErrors
      : [...checked.harnessErrors, { message: error, ...(stack === undefined ? {} : { stack }) }];
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
    ...(probe.connection === undefined ? {} : { connection: probe.connection }),
    requirements: checked.requirements,
    summary: summarize(checked.requirements),
    harnessErrors,
    ...(diff === undefined ? {} : { baseline: diff }),
    ...(checked.signalled === undefined ? exit : interruptedExit(checked.signalled, checked.requirements)),
    ...analysis,
  };
}

/** How traffic.cut lists the checks an interrupt ended before they ran. */
function interruptCut(i: Interruption): { what: string; option: string } {
  return {
    what: `checks the run's interrupt (${i.signal}) ended before they ran`,
    option: 'a run that is not interrupted',
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
