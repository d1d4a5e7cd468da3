// runResolved(): probe the target, run the selected suites, fold verdicts per requirement, apply
// the baseline and hand the RunResult to the caller's reporter hooks. A run that cannot be done
// exits 2, never passes. The report files are written above this layer (harness/runs.ts).
import { readFileSync } from 'node:fs';
import { headerLine, redactResult } from '../../core/redaction.ts';
import { withoutCredentials } from '../io/network.ts';
import { toolLabel } from '../../core/tool-label.ts';
import { LEDGER_VERSION, REQUIREMENTS, selectRequirements } from '../../requirements/index.ts';
import type { Requirement, Role } from '../../requirements/types.ts';
import { ConfigError, type ResolvedRunOptions } from '../options.ts';
import type { FleetRunOptions } from '../../schemas/generated/types.ts';
import { authKindOf, budgetCut, secretsOf, type ProvidedRun } from '../provided.ts';
import type {
  HarnessError,
  RecordedOptions,
  RequirementResult,
  RunResult,
  RunTraffic,
} from '../../core/types.ts';
import { decideExit, summarize } from '../../core/verdict.ts';
import { assembleRequirements, ledgerFields } from './assemble.ts';
import { decideExitWithBaseline, diffBaseline, loadBaseline, type Baseline } from './baseline.ts';
import type { CollectedTest } from './collector.ts';
import type { ProgressListener } from '../../core/progress.ts';
import { analyseRun } from '../analysis/root-causes.ts';
import { dialectProbeLines } from '../analysis/dialect.ts';
import type { ProbeOutcome } from './probe.ts';
import { runSuites, type Planner, type SuitesOutcome } from './run-suites.ts';
import { makePlan, planLines, type AgentPace, type RunPlan } from './plan.ts';
import type { PlannedCheck } from './schedule.ts';
import { propertyLimits } from '../check/profile.ts';
import { requestsPerMinute } from '../io/pace.ts';
import { startRun } from './start-run.ts';
import { summarizeTraffic, type RequirementCut } from './traffic.ts';
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
  const run = await startRun(
    opts,
    (provided) =>
      log(
        `${toolLabel(TOOL)}: ${provided.baseUrl} agent ${provided.agentId}, ${selected.length} requirement(s)`,
      ),
    log,
  );
  const { provided, probe } = run;
  let result: RunResult;
  try {
    for (const line of dialectProbeLines(probe.dialectProbe)) log(line);
    const checked =
      probe.couldNotRun === null
        ? await runChecks(provided, selected, opts, log, progress, agentPace(provided, probe, opts))
        : notRun(selected, probe);
    result = finish(opts, provided, started, probe, checked, baseline);
    result.traffic = summarizeTraffic(
      provided.field,
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
}

/** What the plan reads of the agent: the probe's measures, the card's limits, the run's options. */
function agentPace(provided: ProvidedRun, probe: ProbeOutcome, opts: ResolvedRunOptions): AgentPace {
  const limits = provided.card?.limits;
  const timeout =
    typeof limits === 'object' && limits !== null
      ? (limits as Record<string, unknown>).systemTimeoutMs
      : undefined;
  return {
    requestsPerMinute: requestsPerMinute(provided.field.pace),
    taskCap: provided.field.taskCap ?? null,
    roundTripMs: probe.reachability.durationMs,
    turnLatencyMs: probe.turnLatencyMs ?? null,
    systemTimeoutMs: typeof timeout === 'number' && timeout > 0 ? timeout : null,
    maxWaitMs: opts.maxWaitMs,
    checkTimeoutMs: opts.checkTimeoutMs,
  };
}

/** The plan as report.json records it, beside what the suites spent. */
function recordedPlan(
  plan: RunPlan,
  agent: AgentPace,
  suites: SuitesOutcome,
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

// An ETA line at most this often while the suites run.
const ETA_EVERY_MS = 30_000;

/**
 * Prints an ETA as the run goes: the share of the planned work the finished checks stand for (each
 * weighted by what it declared it costs), extrapolated from the time it took.
 */
function etaListener(
  log: (line: string) => void,
  progress: ProgressListener | undefined,
): {
  listener: ProgressListener;
  weigh: (checks: readonly PlannedCheck[], agent: AgentPace, plan: RunPlan) => void;
} {
  const weights = new Map<string, number>();
  let total = 0;
  let done = 0;
  let finished = 0;
  let start = Date.now();
  let lastLine = Date.now();
  return {
    weigh: (checks, agent, plan) => {
      const turnMs = agent.turnLatencyMs ?? agent.roundTripMs;
      const paceMs = agent.requestsPerMinute === null ? 0 : 60_000 / agent.requestsPerMinute;
      const ms = (requests: number, turns: number): number =>
        requests * (agent.roundTripMs + paceMs) + turns * turnMs;
      const cases = new Map(plan.breadth.properties.map((p) => [p.check, p]));
      for (const c of checks) {
        const name = `${c.requirementId} ${c.title}`;
        const cost = c.plan?.cost ?? { requests: 0, turns: 0 };
        const breadth = cases.get(name);
        const more =
          breadth === undefined
            ? 0
            : (breadth.cases - 1) * ms(breadth.perCase.requests, breadth.perCase.turns);
        const w = 1 + ms(cost.requests, cost.turns) + more;
        weights.set(name, w);
        total += w;
      }
      start = Date.now();
      lastLine = start;
    },
    listener: (event) => {
      progress?.(event);
      if (event.kind !== 'check' || total === 0) return;
      finished += 1;
      done += weights.get(`${event.check.requirementId} ${event.check.title}`) ?? 0;
      const now = Date.now();
      if (now - lastLine < ETA_EVERY_MS || done <= 0) return;
      lastLine = now;
      const share = Math.min(1, done / total);
      const left = Math.round(((now - start) / share - (now - start)) / 1000);
      log(
        `eta: ${finished} of ${weights.size} checks, ${Math.round(share * 100)}% of the planned work; about ${left} s left`,
      );
    },
  };
}

async function runChecks(
  provided: ProvidedRun,
  selected: Requirement[],
  opts: ResolvedRunOptions,
  log: (line: string) => void,
  progress: ProgressListener | undefined,
  agent: AgentPace,
): Promise<Checked> {
  const eta = etaListener(log, progress);
  const planner: Planner = (checks, workers) => {
    const plan = makePlan({
      checks,
      agent,
      budgetMs: opts.budgetMs,
      workers,
      runs: opts.runs,
      propertyLimits: propertyLimits(provided.field),
      must: new Set(selected.filter((r) => r.level === 'MUST').map((r) => r.id)),
    });
    for (const line of planLines(plan, agent)) log(line);
    eta.weigh(checks, agent, plan);
    return plan;
  };
  const suites = await runSuites(
    provided,
    selected.map((r) => r.id),
    opts.budgetMs,
    log,
    eta.listener,
    planner,
  );
  const reproduce = { ...provided, authKind: authKindOf(provided.auth) };
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
  if (suites.notRun !== undefined) {
    const cut = budgetCut(provided.field, 'ran');
    checked.notRun = suites.notRun.map((requirementId) => ({ requirementId, ...cut }));
  }
  if (suites.plan !== undefined) checked.plan = recordedPlan(suites.plan, agent, suites);
  if (suites.webhooks !== undefined) checked.webhooks = suites.webhooks;
  if (suites.windowFill !== undefined) checked.windowFill = suites.windowFill;
  return checked;
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
  const net = opts.network;
  if (net.caCert !== undefined) recorded.caCert = net.caCert;
  if (net.insecure === true) recorded.insecure = true;
  if (opts.failOnUnverified) recorded.failOnUnverified = true;
  if (net.clientCert !== undefined) recorded.clientCert = net.clientCert;
  if (net.clientKey !== undefined) recorded.clientKey = net.clientKey;
  if (opts.proxyOption !== undefined) recorded.proxy = withoutCredentials(opts.proxyOption);
  if (net.headers !== undefined) {
    const secret = new Set(net.secretHeaders ?? []);
    recorded.headers = Object.entries(net.headers).map(([n, v]) => headerLine(n, v, secret.has(n)));
  }
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
      ? decideExit(checked.requirements, opts.level, checked.couldNotRun, opts)
      : decideExitWithBaseline(checked.requirements, opts.level, checked.couldNotRun, diff, opts);
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
