// One hostile case end to end: start its target, run the CLI against it (whole ledger, or the
// case's --only scope), stop the target, and judge the run against the bounds; and how many cases
// run side by side without oversubscribing the cores.
import { availableParallelism } from 'node:os';
import { brokenBounds, budgetArgs, type Budget } from './bounds.ts';
import type { HostileCase } from './cases.ts';
import { startHostileTarget } from './hostile-targets.ts';
import { runCli, type CliRun } from './run-cli.ts';

export interface CaseOutcome {
  case: HostileCase;
  run: CliRun;
  /** What the target did (requests, bytes sent, deliveries posted, ...). */
  targetStats: Record<string, number>;
  broken: string[];
}

export interface CaseOptions {
  budget: Budget;
  /** Run only the case's --only scope (the test slice) instead of the whole ledger. */
  scoped: boolean;
  extraArgs?: string[];
}

export async function runCase(c: HostileCase, o: CaseOptions): Promise<CaseOutcome> {
  const target = await startHostileTarget(c.target, c.probe);
  try {
    const args = [
      ...budgetArgs({ ...o.budget, timeoutMs: c.timeoutMs ?? o.budget.timeoutMs }),
      ...(o.extraArgs ?? []),
    ];
    if (o.scoped) for (const only of c.only) args.push('--only', only);
    // The kill deadline lies past the promised bound, so a broken bound is measured, not hidden.
    const killAfterMs = 2 * (o.budget.budgetMs + o.budget.marginMs);
    const run = await runCli({ target, args, killAfterMs });
    return { case: c, run, targetStats: target.stats(), broken: brokenBounds(c, run, o.budget, o.scoped) };
  } finally {
    await target.close();
  }
}

/** Cases side by side: one per core (each CLI is mostly waiting on its target). */
export function defaultJobs(): number {
  return Math.max(1, availableParallelism());
}
