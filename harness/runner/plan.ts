// The run's plan, made before the first check runs from what the checks declare they cost
// (suiteFile(), verifies(..., { cost, property }); harness/check/cost.ts) and what the probe measured
// of the agent (its pace, task slots, round trip and turn latency). Coverage first: phase 1 exercises
// every selected requirement once at the least cost (one generated case per property, each shared
// sample once); phase 2 spends what is left of the budget on breadth (more generated cases), the
// richest properties first. The estimate is a model, not a promise: report.json records it beside
// what the run spent (traffic.plan), so that the declarations can be checked against the agent.
import type { CheckCost, PlannedWait, PropertyCost } from '../check/cost.ts';
import { DEFAULT_MAX_WAIT_MS } from '../check/agent-time.ts';
import type { PropertyLimits } from '../check/profile.ts';
import { paceIntervalMs } from '../io/traffic/pace.ts';
import type { PlannedCheckWeight } from '../../core/progress.ts';
import type { PlannedCheck } from './schedule.ts';

/** What the probe and the card tell of the agent, and the run's own limits. */
export interface AgentPace {
  /** The pace the run keeps (the card's limits.requestsPerMinute or --rate); null: none. */
  requestsPerMinute: number | null;
  /** The card's limits.concurrentTasks; null: none. */
  taskCap: number | null;
  /** One request's round trip (the probe's card request). */
  roundTripMs: number;
  /** One agent turn (the probe's message/send); null: not measured (then the round trip). */
  turnLatencyMs: number | null;
  /** The card's limits.systemTimeoutMs; null: none. */
  systemTimeoutMs: number | null;
  /** --max-wait: the longest wait a check may plan; null: the check's own budget. */
  maxWaitMs: number | null;
  /** A check's own budget (--check-timeout-ms). */
  checkTimeoutMs: number;
  /** Requests in flight at once (--concurrency): the rate-limit burst sends this many side by side. */
  concurrency?: number;
}

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

/** One pass of phase 1 when it does not fit the budget: its checks, their requirements, its files' order. */
export interface CoveragePass {
  /** `must`: one check of each MUST requirement; `rest`: every other check. */
  level: 'must' | 'rest';
  ids: string[];
  /** The pass's checks, by test name (`<requirement id> <title>`). */
  checks: string[];
  /** The files that do not run last, the most requirements per estimated ms first. */
  fileOrder: string[];
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

const MINUTE_MS = 60_000;
// Budget a --budget-ms suggestion adds beyond the estimate (the estimate is a model).
const SUGGESTION_MARGIN = 1.25;

/**
 * The ms one planned wait is expected to take at this agent. A rate window (C-04: 60 s) is waited
 * for only as long as the run lets a check wait (--max-wait, else DEFAULT_MAX_WAIT_MS): a longer
 * Retry-After is said, not waited for (suites/08-limits/window-reset.ts).
 */
export function waitMs(wait: PlannedWait, agent: AgentPace): number {
  if ('spec' in wait) return wait.spec;
  if ('turns' in wait) return wait.turns * (agent.turnLatencyMs ?? agent.roundTripMs);
  if ('rateWindow' in wait) return Math.min(MINUTE_MS, agent.maxWaitMs ?? DEFAULT_MAX_WAIT_MS);
  const cap = agent.maxWaitMs ?? agent.checkTimeoutMs;
  return Math.min(agent.systemTimeoutMs ?? cap, cap);
}

interface Work {
  /** Requests the pace spaces out. */
  paced: number;
  /** Requests sent as a burst, past the pace on purpose (C-04). */
  burst: number;
  turns: number;
  /** Round trips, turns and waits one after another. */
  serialMs: number;
}

const NONE: Work = { paced: 0, burst: 0, turns: 0, serialMs: 0 };

function add(a: Work, b: Work): Work {
  return {
    paced: a.paced + b.paced,
    burst: a.burst + b.burst,
    turns: a.turns + b.turns,
    serialMs: a.serialMs + b.serialMs,
  };
}

// The requests a burst sends side by side when --concurrency does not say (the run's default).
const BURST_LANES = 32;

/**
 * One request's round trip as the run will see it. The probe's card request is the first on its
 * connection (the handshake, the agent's first answer); its turn came after on a warm connection, and
 * a turn is at least one round trip: the shorter of the two.
 */
function roundTripMs(agent: AgentPace): number {
  return Math.min(agent.roundTripMs, agent.turnLatencyMs ?? Infinity);
}

function workOf(cost: CheckCost, agent: AgentPace): Work {
  const rtt = roundTripMs(agent);
  const turnMs = agent.turnLatencyMs ?? rtt;
  const burst = cost.burst === true ? (agent.requestsPerMinute ?? 0) + cost.requests : 0;
  const waits = (cost.waits ?? []).reduce((ms, w) => ms + waitMs(w, agent), 0);
  const plain = cost.requests - cost.turns;
  // The burst's round trips, side by side (its requests bypass the pace, not the cap in flight).
  const burstMs = burst > 0 ? Math.ceil(burst / (agent.concurrency ?? BURST_LANES)) * rtt : 0;
  return {
    // A burst's requests bypass the pace: its own count is the limit plus the requests it declares.
    paced: burst > 0 ? 0 : cost.requests,
    burst,
    turns: cost.turns,
    serialMs: plain * rtt + cost.turns * turnMs + waits + burstMs,
  };
}

/** The mean ms between the requests the run lets out at this agent's pace (harness/io/traffic/pace.ts). */
function intervalMs(agent: AgentPace): number {
  if (agent.requestsPerMinute === null) return 0;
  return paceIntervalMs({ limit: agent.requestsPerMinute, windowMs: MINUTE_MS, source: 'card' });
}

/**
 * Wall time of some work at this agent: the pace spaces its requests out, while files in several
 * workers (and turns in several task slots) overlap their round trips and waits.
 */
function wallMs(work: Work, agent: AgentPace, workers: number): number {
  const paceMs = work.paced * intervalMs(agent);
  const lanes = Math.max(1, Math.min(workers, agent.taskCap ?? workers));
  return Math.round(Math.max(paceMs, work.serialMs / lanes));
}

/** Each file's phase-1 work: its selected checks once, each of its shared samples once. */
function fileWork(checks: readonly PlannedCheck[], agent: AgentPace): Map<string, Work> {
  const byFile = new Map<string, Work>();
  const samplesCharged = new Set<string>();
  for (const check of checks) {
    if (check.plan === undefined) continue;
    let work = add(byFile.get(check.file) ?? NONE, workOf(check.plan.cost, agent));
    // Every sample the file declares is charged once, whichever of its checks makes it first.
    if (!samplesCharged.has(check.file)) {
      samplesCharged.add(check.file);
      for (const sample of Object.values(check.plan.file.samples ?? {}))
        work = add(work, workOf(sample, agent));
    }
    byFile.set(check.file, work);
  }
  return byFile;
}

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

const testName = (c: PlannedCheck): string => `${c.requirementId} ${c.title}`;

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

  // Phase 2: richest properties first (the most work per case: turns, then requests), in the budget left.
  const properties = planned
    .filter((c) => c.plan!.property !== undefined)
    .map((c) => ({ check: c, perCase: c.plan!.property! }))
    .sort(
      (a, b) =>
        b.perCase.turns - a.perCase.turns ||
        b.perCase.requests - a.perCase.requests ||
        (testName(a.check) < testName(b.check) ? -1 : 1),
    );
  let left = Math.max(0, input.budgetMs - coverageMs);
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
    const scale = (w: Work, n: number): Work => ({
      paced: w.paced * n,
      burst: 0,
      turns: w.turns * n,
      serialMs: w.serialMs * n,
    });
    wanted = add(wanted, scale(caseWork, extra));
    given = add(given, scale(caseWork, fit));
    breadth.push({
      check: testName(check),
      requirementId: check.requirementId,
      wanted: want,
      cases: 1 + fit,
      perCase,
    });
  }
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
    breadth: { ...spend(given), wanted: wantedSpend, properties: breadth },
    budgetMs: input.budgetMs,
    fits,
    unreached: [],
    budgetToFit: null,
  };
  if (fits === 'coverage') plan.budgetToFit = suggest(coverageMs + wantedSpend.ms);
  if (fits === 'part') {
    plan.budgetToFit = suggest(coverageMs);
    const must = input.must;
    const first =
      must === undefined
        ? []
        : onceEach(
            planned.filter((c) => must.has(c.requirementId) && c.plan!.unobservable !== true),
            agent,
            workers,
          );
    const groups =
      must === undefined
        ? [{ level: 'rest' as const, checks: planned }]
        : [
            { level: 'must' as const, checks: first },
            { level: 'rest' as const, checks: planned.filter((c) => !first.includes(c)) },
          ].filter((g) => g.checks.length > 0);
    const passes = groups.map((g) => {
      const work = fileWork(g.checks, agent);
      return { ...g, work, order: densityOrder(g.checks, work, agent, workers, last) };
    });
    plan.fileOrder = passes[0]?.order ?? [];
    if (must !== undefined) {
      plan.coveragePasses = passes.map((p) => ({
        level: p.level,
        ids: [...new Set(p.checks.map((c) => c.requirementId))].sort(),
        checks: p.checks.map(testName),
        fileOrder: p.order,
      }));
    }
    plan.unreached = unreachedIn(passes, agent, workers, input.budgetMs - wallMs(after, agent, 1));
  }
  return plan;
}

/**
 * One check of each requirement, the set the plan expects to cost least: a greedy cover that takes,
 * again and again, the file whose checks reach the most requirements not yet reached per estimated
 * ms (its samples charged once, then each requirement's cheapest check in it). A requirement with a
 * pass and checks not run is a pass (core/verdict.ts); the checks not run are breadth, said in the
 * report's traffic.cut.
 */
function onceEach(checks: readonly PlannedCheck[], agent: AgentPace, workers: number): PlannedCheck[] {
  // Each check's own estimated ms and each file's checks and samples, worked out once.
  const ownMs = new Map(checks.map((c) => [c, wallMs(workOf(c.plan!.cost, agent), agent, workers)]));
  const own = (c: PlannedCheck): number => ownMs.get(c)!;
  const byFile = new Map<string, { checks: PlannedCheck[]; samplesMs: number }>();
  for (const c of checks) {
    const entry = byFile.get(c.file);
    if (entry !== undefined) {
      entry.checks.push(c);
      continue;
    }
    const declared = Object.values(c.plan!.file.samples ?? {});
    const samples = declared.reduce((w, sample) => add(w, workOf(sample, agent)), NONE);
    byFile.set(c.file, { checks: [c], samplesMs: wallMs(samples, agent, workers) });
  }
  const open = new Set(checks.map((c) => c.requirementId));
  const charged = new Set<string>();
  const chosen: PlannedCheck[] = [];
  while (open.size > 0) {
    let best: { file: string; picks: PlannedCheck[]; ms: number } | undefined;
    for (const [file, entry] of byFile) {
      const cheapest = new Map<string, PlannedCheck>();
      for (const c of entry.checks) {
        if (!open.has(c.requirementId)) continue;
        const held = cheapest.get(c.requirementId);
        if (held === undefined || own(c) < own(held)) cheapest.set(c.requirementId, c);
      }
      if (cheapest.size === 0) continue;
      const picks = [...cheapest.values()];
      const base = charged.has(file) ? 0 : entry.samplesMs;
      const ms = Math.max(1, base + picks.reduce((sum, c) => sum + own(c), 0));
      if (best === undefined || picks.length / ms > best.picks.length / best.ms) best = { file, picks, ms };
    }
    if (best === undefined) break;
    charged.add(best.file);
    for (const c of best.picks) {
      open.delete(c.requirementId);
      chosen.push(c);
    }
  }
  // A requirement taken early from a file of its own may be read more cheaply in a file the cover
  // took later for others (its samples charged anyway): it moves there, and its first file may drop.
  const files = new Set(chosen.map((c) => c.file));
  const picked = new Set(
    chosen.map((pick) => {
      const there = checks.filter(
        (c) => c.requirementId === pick.requirementId && files.has(c.file) && c.file !== pick.file,
      );
      return there.find((c) => own(c) < own(pick)) ?? pick;
    }),
  );
  // In the listing's order, so files keep their checks' order.
  return checks.filter((c) => picked.has(c));
}

function suggest(ms: number): number {
  return Math.ceil((ms * SUGGESTION_MARGIN) / 10_000) * 10_000;
}

/** The files that do not run last, the most requirements per estimated ms first. */
function densityOrder(
  checks: readonly PlannedCheck[],
  files: Map<string, Work>,
  agent: AgentPace,
  workers: number,
  last: Set<string>,
): string[] {
  const ids = new Map<string, Set<string>>();
  for (const c of checks) ids.set(c.file, (ids.get(c.file) ?? new Set()).add(c.requirementId));
  const density = (file: string): number =>
    ids.get(file)!.size / Math.max(1, wallMs(files.get(file)!, agent, workers));
  return [...files.keys()]
    .filter((f) => !last.has(f))
    .sort((a, b) => density(b) - density(a) || (a < b ? -1 : 1));
}

/**
 * The requirements none of whose checks the budget is expected to reach, the passes run in turn and
 * each pass's files in its order. Files that run last are in no order: they keep their own reserve.
 */
function unreachedIn(
  passes: ReadonlyArray<{
    checks: readonly PlannedCheck[];
    work: Map<string, Work>;
    order: readonly string[];
  }>,
  agent: AgentPace,
  workers: number,
  budgetMs: number,
): string[] {
  let done = NONE;
  const covered = new Set<string>();
  let out = false;
  for (const pass of passes) {
    const ordered = new Set(pass.order);
    for (const c of pass.checks) if (!ordered.has(c.file)) covered.add(c.requirementId);
    for (const file of pass.order) {
      if (out) break;
      done = add(done, pass.work.get(file)!);
      if (wallMs(done, agent, workers) > budgetMs) {
        out = true;
        break;
      }
      for (const c of pass.checks) if (c.file === file) covered.add(c.requirementId);
    }
  }
  const all = new Set(passes.flatMap((p) => p.checks.map((c) => c.requirementId)));
  return [...all].filter((id) => !covered.has(id)).sort();
}

function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  return s < 120 ? `${s} s` : `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
}

/** The plan as the console prints it before the first check runs. */
/** `sinceStartMs`: what the run spent before the plan (the probe, collecting the checks), in its total. */
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
