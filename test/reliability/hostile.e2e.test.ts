// The harness against hostile targets (reliability/hostile/), short slice: each case runs the CLI as
// a child process on a small --only scope with tight budgets. Every run must end by itself within
// its budget plus a generous margin (a bound the harness promises, not a benchmark), exit as the
// case says, write a schema-valid report.json, and never pass a requirement the target broke.
import { beforeAll, describe, expect, it } from 'vitest';
import { mapInOrder } from '../../harness/pool.ts';
import type { Budget } from '../../reliability/hostile/bounds.ts';
import { CASES, sliceExits } from '../../reliability/hostile/cases.ts';
import { defaultJobs, runCase, type CaseOutcome } from '../../reliability/hostile/run-case.ts';
import { printTable } from '../../reliability/hostile/table.ts';

const BUDGET: Budget = { timeoutMs: 800, checkTimeoutMs: 3000, budgetMs: 30_000, marginMs: 45_000 };
const SLICE = CASES.filter((c) => c.inSlice);

let outcomes: CaseOutcome[] = [];

beforeAll(async () => {
  outcomes = await mapInOrder(SLICE, defaultJobs(), (c) =>
    runCase(c, { budget: BUDGET, scoped: true, extraArgs: ['--runs', '3', '--seed', '1'] }),
  );
  const lines: string[] = [];
  printTable(outcomes, BUDGET, (line) => lines.push(line));
  console.log(lines.join('\n'));
}, 240_000);

describe('the harness against hostile targets', () => {
  it.each(SLICE.map((c) => [c.name, c] as const))('%s: ends within budget and keeps its promises', (name) => {
    const o = outcomes.find((x) => x.case.name === name);
    expect(o, 'the case ran').toBeDefined();
    const { run, broken } = o!;
    const context = `${name}: ${run.tail.slice(-600)}`;
    expect(run.killed, context).toBe(false);
    expect(sliceExits(o!.case), context).toContain(run.exitCode);
    expect(run.report, run.reportError).toBeDefined();
    expect(broken, context).toEqual([]);
    const verdicts = new Map(run.report!.requirements.map((r) => [r.id, r.verdict]));
    for (const id of o!.case.affected)
      expect(['fail', 'warn', 'info', 'error', 'not-exercised'], id).toContain(verdicts.get(id));
    if (o!.case.probeFails) {
      expect(run.report!.reachability.authenticated).toBe(false);
      expect(run.report!.summary.byVerdict.pass).toBe(0);
    }
  });
});
