// The run's plan (harness/runner/plan.ts) as the console shows it: the lines printed before the first
// check runs, and each check's share of the estimate that the live progress's ETA weighs
// (reporters/live-progress.ts).
import type { PlannedCheckWeight } from '../../core/progress.ts';
import { add, testName, wallMs, workOf, type AgentPace } from './plan-estimate.ts';
import type { RunPlan } from './plan.ts';
import type { PlannedCheck } from './schedule.ts';

function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  return s < 120 ? `${s} s` : `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
}

/**
 * The plan as the console prints it before the first check runs. `sinceStartMs`: what the run spent
 * before the plan (the probe, collecting the checks), in its total.
 */
export function planLines(plan: RunPlan, agent: AgentPace, sinceStartMs = 0): string[] {
  const pace = agent.requestsPerMinute === null ? 'no pace' : `${agent.requestsPerMinute} requests/min`;
  const turn = agent.turnLatencyMs === null ? 'turn latency not measured' : `turns ${agent.turnLatencyMs} ms`;
  const lines = [
    `plan: ${plan.requirements} requirement(s), ${plan.checks} check(s) at this agent's pace (${pace}, ${turn}, round trip ${agent.roundTripMs} ms)`,
    `  phase 1, every requirement once: ~${plan.coverage.requests} requests, ${plan.coverage.turns} turns, ~${duration(plan.coverage.ms)}`,
  ];
  const b = plan.breadth;
  if (b.properties.length > 0) {
    lines.push(
      `  phase 2, breadth (more generated cases, richest first): ~${b.requests} of ${b.wanted.requests} requests, ${b.turns} of ${b.wanted.turns} turns, ~${duration(b.ms)} of ~${duration(b.wanted.ms)}`,
    );
  }
  const budget = `the suites' budget of ${duration(plan.budgetMs)}`;
  // The phases overlap (a property's cases run in its check, files side by side): one figure for both.
  const until = plan.fits === 'part' ? ', until the budget stops it' : '';
  const so = sinceStartMs > 0 ? ` (${duration(sinceStartMs)} of it spent before the plan)` : '';
  lines.push(`  about ${duration(sinceStartMs + plan.estimateMs)} in all${until}${so}`);
  if (plan.fits === 'everything') lines.push(`  fits ${budget}`);
  else if (plan.fits === 'coverage') {
    const cut = b.properties.filter((p) => p.cases < p.wanted);
    lines.push(
      `  phase 1 fits ${budget}; phase 2 in part: ${cut.length} propert${cut.length === 1 ? 'y gets' : 'ies get'} fewer cases than the profile asks (--budget-ms ${plan.budgetToFit} would fit them)`,
    );
  } else {
    const few = plan.unreached.slice(0, 8).join(', ');
    const more = plan.unreached.length > 8 ? ` and ${plan.unreached.length - 8} more` : '';
    // Every requirement reached, some of phase 1's checks not: the first pass fits, the rest in part.
    const reach =
      plan.unreached.length === 0
        ? 'every requirement should still be reached, not every check of it'
        : `about ${plan.unreached.length} requirement(s) may not be reached (${few}${more})`;
    lines.push(
      `  phase 1 does NOT fit ${budget}: ${reach}; --budget-ms ${plan.budgetToFit} would fit it. ${plan.coveragePasses !== undefined && plan.coveragePasses.length > 1 ? 'One check of each MUST requirement runs first (the cheapest set), then every other check; in each pass, the' : 'The'} files that cover the most requirements per second run first; what is not reached ends not-exercised.`,
    );
  }
  return lines;
}

/**
 * Each check's share of the plan's estimate, in ms (summing to plan.estimateMs): its own work, its
 * generated cases the plan gives it, and its file's shared samples on the file's first check. The
 * console's ETA weighs the checks that ended by it (reporters/live-progress.ts).
 */
export function checkWeights(
  checks: readonly PlannedCheck[],
  agent: AgentPace,
  plan: RunPlan,
): PlannedCheckWeight[] {
  const cases = new Map(plan.breadth.properties.map((p) => [p.check, p]));
  const charged = new Set<string>();
  const raw = checks.map((c) => {
    if (c.plan === undefined) return 0;
    let work = workOf(c.plan.cost, agent);
    const breadth = cases.get(testName(c));
    if (breadth !== undefined && breadth.cases > 1) {
      const one = workOf({ requests: breadth.perCase.requests, turns: breadth.perCase.turns }, agent);
      for (let i = 1; i < breadth.cases; i++) work = add(work, one);
    }
    if (!charged.has(c.file)) {
      charged.add(c.file);
      for (const sample of Object.values(c.plan.file.samples ?? {})) work = add(work, workOf(sample, agent));
    }
    return 1 + wallMs(work, agent, 1);
  });
  const sum = raw.reduce((a, b) => a + b, 0);
  const scale = sum === 0 ? 0 : plan.estimateMs / sum;
  return checks.map((c, i) => ({
    requirementId: c.requirementId,
    title: c.title,
    weightMs: Math.round(raw[i]! * scale),
  }));
}
