// When phase 1 of the run's plan (harness/runner/plan.ts) does not fit the budget: which checks run
// first and in which file order, and which requirements the budget is expected not to reach. With
// the MUST levels known, one check of each MUST requirement (the cheapest set) is a pass of its own
// ahead of every other check; in each pass, the files that reach the most requirements per
// estimated ms start first.
import {
  add,
  fileWork,
  NONE,
  samplesWork,
  testName,
  wallMs,
  workOf,
  type AgentPace,
  type Work,
} from './plan-estimate.ts';
import type { PlannedCheck } from './schedule.ts';

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

/** How phase 1 runs when it does not fit the budget. */
export interface PartialCoverage {
  /** The first pass's file order. */
  fileOrder: string[];
  /** The passes, when the MUST levels are known. */
  coveragePasses?: CoveragePass[];
  /** Requirements the budget is expected not to reach. */
  unreached: string[];
}

export interface PartialCoverageInput {
  /** The checks with a declaration. */
  planned: readonly PlannedCheck[];
  /** The selected MUST requirements; undefined: one pass. */
  must: ReadonlySet<string> | undefined;
  agent: AgentPace;
  workers: number;
  /** The files that run last (they keep their own reserve, in no order). */
  last: Set<string>;
  /** The budget left to the files that do not run last. */
  budgetMs: number;
}

export function partialCoverage(input: PartialCoverageInput): PartialCoverage {
  const { planned, must, agent, workers, last } = input;
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
  const out: PartialCoverage = { fileOrder: passes[0]?.order ?? [], unreached: [] };
  if (must !== undefined) {
    out.coveragePasses = passes.map((p) => ({
      level: p.level,
      ids: [...new Set(p.checks.map((c) => c.requirementId))].sort(),
      checks: p.checks.map(testName),
      fileOrder: p.order,
    }));
  }
  out.unreached = unreachedIn(passes, agent, workers, input.budgetMs);
  return out;
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
    byFile.set(c.file, { checks: [c], samplesMs: wallMs(samplesWork(c, agent), agent, workers) });
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
