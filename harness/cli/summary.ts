// A compact console summary of a RunResult: counts by verdict and level, each failing requirement
// with expected beside actual, and the exit reason. The full console reporter is in reporters/.
import type { Level } from '../../requirements/types.ts';
import type { RequirementResult, RunResult, Verdict, VerdictCounts } from '../types.ts';
import { VERDICTS } from '../types.ts';
import { describeValue } from '../check/recorder.ts';

const LEVELS: Level[] = ['MUST', 'SHOULD', 'MAY', 'INFO'];
const SHOWN: Verdict[] = ['fail', 'warn', 'error', 'info'];
const MAX_LISTED = 40;

function counts(c: VerdictCounts): string {
  return VERDICTS.filter((v) => c[v] > 0)
    .map((v) => `${c[v]} ${v}`)
    .join(', ');
}

function firstFinding(r: RequirementResult): string {
  const check = r.checks.find((c) => c.status === 'fail') ?? r.checks.find((c) => c.status === 'error');
  if (!check) return r.message ?? '';
  if (check.status === 'fail' && 'expected' in check) {
    return `${check.title}: expected ${describeValue(check.expected)}, actual ${describeValue(check.actual)}`;
  }
  return `${check.title}: ${check.message}`;
}

export function formatSummary(result: RunResult): string {
  const lines: string[] = [];
  lines.push(
    `target: ${result.target.baseUrl} agent ${result.target.agentId} (${result.reachability.message})`,
  );
  lines.push(`requirements: ${result.summary.total} (${counts(result.summary.byVerdict) || 'none'})`);
  for (const level of LEVELS) {
    const text = counts(result.summary.byLevel[level]);
    if (text !== '') lines.push(`  ${level.padEnd(6)} ${text}`);
  }
  // When the probe failed every requirement carries the same message: the exit line says it once.
  const probed = result.reachability.reachable && result.reachability.authenticated;
  const shown = probed ? result.requirements.filter((r) => SHOWN.includes(r.verdict)) : [];
  for (const r of shown.slice(0, MAX_LISTED)) {
    lines.push(`  ${r.verdict.toUpperCase().padEnd(5)} ${r.id}  ${firstFinding(r)}`);
  }
  if (shown.length > MAX_LISTED) lines.push(`  ... and ${shown.length - MAX_LISTED} more in report.json`);
  for (const e of result.harnessErrors.slice(0, 10)) {
    lines.push(`  HARNESS ${e.file ? `${e.file}: ` : ''}${e.message.split('\n')[0]}`);
  }
  if (result.baseline) {
    const b = result.baseline;
    lines.push(
      `baseline ${b.file}: ${b.regressions.length} regression(s), ${b.improvements.length} improvement(s)`,
    );
    for (const r of b.regressions) lines.push(`  REGRESSED ${r.id}: ${r.before} -> ${r.after}`);
  }
  lines.push(`exit ${result.exitCode}: ${result.exitReason} (${(result.durationMs / 1000).toFixed(1)} s)`);
  return lines.join('\n');
}
