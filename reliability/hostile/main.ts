// `npm run hostile`: runs the CLI against every hostile target (reliability/hostile/cases.ts) on the
// whole ledger, in parallel where the cores allow, prints a table (exit code, wall time, peak RSS
// of the CLI and of its vitest worker, report, verdict counts) and exits 1 when a bound is broken.
// Options: --jobs N, --case NAME (repeatable), --scoped (each case's small --only scope).
import { collect } from '../../harness/cli/shared.ts';
import { positiveInt, scriptCommand } from '../../scripts/args.ts';
import { mapInOrder } from '../../harness/pool.ts';
import type { Budget } from './bounds.ts';
import { CASES } from './cases.ts';
import { defaultJobs, runCase, type CaseOutcome } from './run-case.ts';
import { printTable } from './table.ts';

// Why these figures: a 2 s request budget and 8 s per check make a hostile run reach its 60 s
// budget instead of finishing early, so the budget itself is what is tested; the margin covers
// the CLI's start (vitest, tsx) on a loaded machine, the runner's 5 s grace and the report files.
const BUDGET: Budget = {
  timeoutMs: 2000,
  checkTimeoutMs: 8000,
  budgetMs: 60_000,
  marginMs: 30_000,
  // A run of the bundled server peaks near 420 MiB in the CLI (vitest, the reporters) and 150 MiB in
  // the worker; a hostile target must not push either far past that.
  maxCliRssBytes: 768 * 1024 * 1024,
  maxWorkerRssBytes: 768 * 1024 * 1024,
};

const values = scriptCommand(
  'npm run hostile --',
  'Run the CLI against every hostile target and check its bounds.',
)
  .option('--jobs <n>', 'cases run at once (default: one per core)', positiveInt)
  .option('--case <name>', 'only this case; repeatable', collect)
  .option('--scoped', 'each case on its small --only scope instead of the whole ledger')
  .parse()
  .opts<{ jobs?: number; case?: string[]; scoped?: boolean }>();
const scoped = values.scoped === true;
const jobs = values.jobs ?? defaultJobs();
const picked = values.case ?? [];
const cases = picked.length === 0 ? CASES : CASES.filter((c) => picked.includes(c.name));
if (cases.length === 0) {
  console.error(`no such case: ${picked.join(', ')}; cases: ${CASES.map((c) => c.name).join(', ')}`);
  process.exit(2);
}

console.log(
  `hostile targets: ${cases.length} case(s), ${jobs} at a time; per run --timeout-ms ${BUDGET.timeoutMs} ` +
    `--check-timeout-ms ${BUDGET.checkTimeoutMs} --budget-ms ${BUDGET.budgetMs} --runs 20 --seed 1` +
    (scoped ? ', each case on its --only scope' : ', whole ledger'),
);
const outcomes: CaseOutcome[] = await mapInOrder(cases, jobs, async (c) => {
  const o = await runCase(c, {
    budget: BUDGET,
    scoped,
    extraArgs: ['--runs', '20', '--seed', '1'],
  });
  console.log(`  ${c.name}: exit ${String(o.run.exitCode)} in ${(o.run.wallMs / 1000).toFixed(1)} s`);
  return o;
});
printTable(outcomes, BUDGET, (line) => console.log(line));
const broken = outcomes.filter((o) => o.broken.length > 0);
process.exit(broken.length > 0 ? 1 : 0);
