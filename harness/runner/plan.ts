// The run's plan, made before the first check runs from what the checks declare they cost
// (suiteFile(), verifies(..., { cost, property }); harness/check/cost.ts) and what the probe measured
// of the agent (its pace, task slots, round trip and turn latency). Coverage first: phase 1 exercises
// every selected requirement once at the least cost (one generated case per property, each shared
// sample once); phase 2 spends what is left of the budget on breadth (more generated cases), the
// richest properties first. The estimate is a model, not a promise: report.json records it beside
// what the run spent (traffic.plan), so that the declarations can be checked against the agent.
// Its arithmetic is plan-estimate.ts, its passes when phase 1 does not fit plan-passes.ts, its
// console lines plan-console.ts.
import type { PropertyCost } from '../check/cost.ts';
import type { PropertyLimits } from '../check/profile.ts';
import {
  add,
  fileWork,
  NONE,
  testName,
  times,
  wallMs,
  workOf,
  type AgentPace,
  type Work,
} from './plan-estimate.ts';
import { partialCoverage, type CoveragePass } from './plan-passes.ts';
import type { PlannedCheck } from './schedule.ts';

export interface PlanInput {
  /** The selected checks, as collected. */
  checks: readonly PlannedCheck[];
  agent: AgentPace;
  /** What the suites may spend (the run's budget less what it keeps for the reports). */
  budgetMs: number;
  /** Suite files run at once. */
  workers: number;
  /** --runs: the generated cases a property asks for. */
  runs: number;
  /** The profile's allowance per property (harness/check/profile.ts); undefined: `full`, no cap. */
  propertyLimits: PropertyLimits | undefined;
  /**
   * The selected requirements of level MUST: when phase 1 does not fit the budget, one check of each
   * runs first (a pass of their own, the cheapest set that reaches them all), every other check after.
   * Absent: one pass.
   */
  must?: ReadonlySet<string>;
}

export interface Spend {
  requests: number;
  turns: number;
  /** Estimated wall time at this agent's pace. */
  ms: number;
}

/** A property's breadth: the generated cases after its first that phase 2 gives it. */
export interface PlannedBreadth {
  /** The check's test name (`<requirement id> <title>`). */
  check: string;
  requirementId: string;
  /** Cases the profile would give it (its first included). */
  wanted: number;
  /** Cases the plan gives it (its first included): what fits of `wanted`. */
  cases: number;
  perCase: PropertyCost;
}

export interface RunPlan {
  /** Selected requirements that have a check. */
  requirements: number;
  checks: number;
  /** Phase 1: every selected check once, one case per property. */
  coverage: Spend;
  /**
   * What runs before the files that run last (the rate-limit burst, C-04): phase 1's work of the
   * other files and the breadth phase 2 gives. The runner fills the rate window ahead of the burst
   * with what this leaves of the pace (harness/runner/window-fill.ts).
   */
  ahead: Spend;
  /** Phase 2: the breadth the profile wants, and what of it fits. */
  breadth: Spend & { wanted: Spend; properties: PlannedBreadth[] };
  /**
   * The suites' wall time the plan expects: what runs before the files that run last (phase 1 and
   * the breadth given, side by side in the workers), then those files; at most the budget, where the
   * run stops.
   */
  estimateMs: number;
  budgetMs: number;
  /** `everything`: both phases fit; `coverage`: phase 1 fits, phase 2 in part; `part`: not even phase 1. */
  fits: 'everything' | 'coverage' | 'part';
  /** Requirements phase 1 is expected not to reach within the budget (when `fits` is `part`). */
  unreached: string[];
  /** A --budget-ms that would fit phase 1 (`part`) or both phases (`coverage`); null when all fits. */
  budgetToFit: number | null;
  /** The rest phase's file order when phase 1 does not fit: the most requirements per estimated ms first. */
  fileOrder?: string[];
  /** When phase 1 does not fit and MUST levels are known: the MUST checks' pass first, then the rest's. */
  coveragePasses?: CoveragePass[];
}

// Budget a --budget-ms suggestion adds beyond the estimate (the estimate is a model).
const SUGGESTION_MARGIN = 1.25;

/** The cases a property's profile gives it (its first included). */
function wantedCases(perCase: PropertyCost, input: PlanInput): number {
  // An enumerated property (c.each) asks for its cases, whatever --runs and the profile say.
  if (perCase.cases !== undefined) return Math.max(1, perCase.cases);
  const asked = Math.max(1, Math.ceil(input.runs / (perCase.runsDivisor ?? 1)));
  const limits = input.propertyLimits;
  if (limits === undefined) return asked;
  const byTurns = perCase.turns > 0 ? 1 + Math.ceil(limits.turns / perCase.turns) : Infinity;
  const byRequests = perCase.requests > 0 ? 1 + Math.ceil(limits.requests / perCase.requests) : Infinity;
  return Math.max(1, Math.min(asked, byTurns, byRequests));
}

/** Phase 2: richest properties first (the most work per case: turns, then requests), in the budget left. */
function planBreadth(
  planned: readonly PlannedCheck[],
  input: PlanInput,
  leftMs: number,
): { wanted: Work; given: Work; properties: PlannedBreadth[] } {
  const { agent, workers } = input;
  const properties = planned
    .filter((c) => c.plan!.property !== undefined)
    .map((c) => ({ check: c, perCase: c.plan!.property! }))
    .sort(
      (a, b) =>
        b.perCase.turns - a.perCase.turns ||
        b.perCase.requests - a.perCase.requests ||
        (testName(a.check) < testName(b.check) ? -1 : 1),
    );
  let left = leftMs;
  let wanted: Work = NONE;
  let given: Work = NONE;
  const breadth: PlannedBreadth[] = [];
  for (const { check, perCase } of properties) {
    const want = wantedCases(perCase, input);
    const caseWork = workOf({ requests: perCase.requests, turns: perCase.turns }, agent);
    const caseMs = Math.max(1, wallMs(caseWork, agent, workers));
    const extra = want - 1;
    const fit = Math.min(extra, Math.floor(left / caseMs));
    left -= fit * caseMs;
    wanted = add(wanted, times(caseWork, extra));
    given = add(given, times(caseWork, fit));
    breadth.push({
      check: testName(check),
      requirementId: check.requirementId,
      wanted: want,
      cases: 1 + fit,
      perCase,
    });
  }
  return { wanted, given, properties: breadth };
}

export function makePlan(input: PlanInput): RunPlan {
  const { agent, workers } = input;
  const planned = input.checks.filter((c) => c.plan !== undefined);
  const files = fileWork(planned, agent);
  const last = new Set(planned.filter((c) => c.plan!.file.runs?.when === 'last').map((c) => c.file));
  let before = NONE;
  let after = NONE;
  for (const [file, work] of files) {
    if (last.has(file)) after = add(after, work);
    else before = add(before, work);
  }
  // The files that run last run after the others, on their own.
  const coverageWork = add(before, after);
  const coverageMs = wallMs(before, agent, workers) + wallMs(after, agent, 1);
  const coverage = {
    requests: coverageWork.paced + coverageWork.burst,
    turns: coverageWork.turns,
    ms: coverageMs,
  };
  const { wanted, given, properties } = planBreadth(planned, input, Math.max(0, input.budgetMs - coverageMs));
  const spend = (w: Work): Spend => ({
    requests: w.paced,
    turns: w.turns,
    ms: wallMs(w, agent, workers),
  });
  const wantedSpend = spend(wanted);
  const fits =
    coverageMs > input.budgetMs
      ? 'part'
      : coverageMs + wantedSpend.ms > input.budgetMs
        ? 'coverage'
        : 'everything';
  const ahead = spend(add(before, given));
  const plan: RunPlan = {
    requirements: new Set(planned.map((c) => c.requirementId)).size,
    checks: planned.length,
    coverage,
    ahead,
    estimateMs: Math.min(input.budgetMs, ahead.ms + wallMs(after, agent, 1)),
    breadth: { ...spend(given), wanted: wantedSpend, properties },
    budgetMs: input.budgetMs,
    fits,
    unreached: [],
    budgetToFit: null,
  };
  if (fits === 'coverage') plan.budgetToFit = suggest(coverageMs + wantedSpend.ms);
  if (fits === 'part') {
    plan.budgetToFit = suggest(coverageMs);
    const part = partialCoverage({
      planned,
      must: input.must,
      agent,
      workers,
      last,
      budgetMs: input.budgetMs - wallMs(after, agent, 1),
    });
    plan.fileOrder = part.fileOrder;
    if (part.coveragePasses !== undefined) plan.coveragePasses = part.coveragePasses;
    plan.unreached = part.unreached;
  }
  return plan;
}

function suggest(ms: number): number {
  return Math.ceil((ms * SUGGESTION_MARGIN) / 10_000) * 10_000;
}
