// The run's planner: what the plan reads of the agent (the probe's measures, the card's limits, the
// run's options), the plan made once the checks are collected (harness/runner/plan.ts), said on the
// console and in the progress events, and recorded in report.json beside what the suites spent
// (traffic.plan).
import { cardLimit } from '../capabilities.ts';
import { propertyLimits } from '../check/profile.ts';
import { requestsPerMinute } from '../io/traffic/pace.ts';
import type { ResolvedRunOptions } from '../options.ts';
import type { ProvidedRun } from '../provided.ts';
import type { Requirement } from '../../requirements/types.ts';
import type { ProgressListener } from '../../core/progress.ts';
import type { RunTraffic } from '../../core/types.ts';
import type { CollectedTest } from './collector.ts';
import { checkWeights, planLines } from './plan-console.ts';
import type { AgentPace } from './plan-estimate.ts';
import { makePlan, type RunPlan } from './plan.ts';
import type { ProbeOutcome } from './probe.ts';
import type { Planner } from './run-phases.ts';
import type { SuitesOutcome } from './run-suites.ts';

/** What the plan reads of the agent: the probe's measures, the card's limits, the run's options. */
export function agentPace(provided: ProvidedRun, probe: ProbeOutcome, opts: ResolvedRunOptions): AgentPace {
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

export interface RunPlanner {
  /** Called by the suites once the checks are collected (harness/runner/run-phases.ts). */
  planner: Planner;
  /** The plan as report.json records it, beside what the suites spent; undefined: no plan was made. */
  recorded(suites: SuitesOutcome): RunTraffic['plan'];
}

export interface RunPlannerInput {
  opts: ResolvedRunOptions;
  provided: ProvidedRun;
  selected: readonly Requirement[];
  agent: AgentPace;
  log: (line: string) => void;
  progress: ProgressListener | undefined;
  /** When the run started: the plan's console total counts from it. */
  started: Date;
}

/** A planner for one run; made right before the suites are called (what they spend first is counted). */
export function runPlanner(input: RunPlannerInput): RunPlanner {
  const { opts, agent, log, progress } = input;
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
      propertyLimits: propertyLimits(input.provided.field),
      must: new Set(input.selected.filter((r) => r.level === 'MUST').map((r) => r.id)),
    });
    for (const line of planLines(plan, agent, Date.now() - input.started.getTime())) log(line);
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
  return {
    planner,
    recorded: (suites) =>
      suites.plan === undefined ? undefined : recordedPlan(suites.plan, agent, suites, collectedMs),
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
