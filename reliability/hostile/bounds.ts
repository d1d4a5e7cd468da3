// What the harness promises against a hostile target, checked on one finished CLI run: it ends by
// itself within its budget, exits as the case says, writes a schema-valid report.json that never
// passes what it could not exercise, and its memory stays under a fixed ceiling.
import { validate } from '../../schemas/registry.ts';
import { sliceExits, wholeLedgerExits, type HostileCase } from './cases.ts';
import type { CliRun } from './run-cli.ts';

export interface Budget {
  timeoutMs: number;
  checkTimeoutMs: number;
  budgetMs: number;
  /** Allowance on top of --budget-ms: CLI start, the runner's 5 s grace, writing the reports. */
  marginMs: number;
  /** Peak RSS ceilings; undefined skips the memory bound. */
  maxCliRssBytes?: number;
  maxWorkerRssBytes?: number;
}

export function budgetArgs(b: Budget): string[] {
  return [
    '--timeout-ms',
    String(b.timeoutMs),
    '--check-timeout-ms',
    String(b.checkTimeoutMs),
    '--budget-ms',
    String(b.budgetMs),
  ];
}

/** The bounds `run` broke, as sentences; empty when it kept every promise. */
export function brokenBounds(c: HostileCase, run: CliRun, b: Budget, scoped: boolean): string[] {
  const broken: string[] = [];
  if (run.killed) broken.push(`still running after ${run.wallMs} ms: killed`);
  const exits: ReadonlyArray<number> = scoped ? sliceExits(c) : wholeLedgerExits(c);
  if (run.exitCode === null || !exits.includes(run.exitCode)) {
    broken.push(`exit ${String(run.exitCode ?? run.signal)}, expected ${exits.join(' or ')}`);
  }
  if (run.wallMs > b.budgetMs + b.marginMs) {
    broken.push(`wall ${run.wallMs} ms over the budget ${b.budgetMs} ms + ${b.marginMs} ms`);
  }
  broken.push(...reportProblems(c, run));
  if (b.maxCliRssBytes !== undefined && run.rss.rootBytes > b.maxCliRssBytes) {
    broken.push(`CLI peak RSS ${mib(run.rss.rootBytes)} MiB over ${mib(b.maxCliRssBytes)} MiB`);
  }
  if (b.maxWorkerRssBytes !== undefined && run.rss.descendantBytes > b.maxWorkerRssBytes) {
    broken.push(`worker peak RSS ${mib(run.rss.descendantBytes)} MiB over ${mib(b.maxWorkerRssBytes)} MiB`);
  }
  return broken;
}

function reportProblems(c: HostileCase, run: CliRun): string[] {
  const report = run.report;
  if (report === undefined) return [run.reportError ?? 'no report.json'];
  const problems: string[] = [];
  const valid = validate('report', report);
  if (!valid.valid) {
    const first = valid.errors[0];
    problems.push(`report.json is not schema-valid: ${first?.path ?? ''} ${first?.message ?? ''}`);
  }
  if (report.exitCode !== run.exitCode) problems.push(`report exitCode ${report.exitCode} != process exit`);
  const passed = report.requirements.filter((r) => r.verdict === 'pass').map((r) => r.id);
  if (c.probeFails) {
    if (passed.length > 0) problems.push(`probe failed but ${passed.length} requirement(s) pass`);
    const other = report.requirements.filter((r) => r.verdict !== 'error');
    if (other.length > 0)
      problems.push(`probe failed but ${other[0]!.id} is ${other[0]!.verdict}, not error`);
  }
  for (const id of c.affected.filter((a) => passed.includes(a))) problems.push(`${id} passes`);
  const counted = report.requirements.filter((r) => ['MUST', 'SHOULD'].includes(r.level));
  const scored = counted.filter((r) => r.verdict !== 'not-applicable');
  if (scored.length > 0 && scored.every((r) => r.verdict === 'pass')) problems.push('scores 100%');
  return problems;
}

export function mib(bytes: number): number {
  return Math.round(bytes / (1024 * 1024));
}
