// The shared reading of a run's dialect and root causes (harness/analysis) for the console, summary.md
// and report.html: what leads a report when many findings share a cause. Old reports have neither
// field, so every reader here takes them as absent.
import type { DialectReport, RootCause } from '../core/analysis.ts';
import type { RunResult } from '../core/types.ts';

export function rootCausesOf(result: Pick<RunResult, 'rootCauses'>): RootCause[] {
  return Array.isArray(result.rootCauses) ? result.rootCauses : [];
}

export function dialectOf(result: Pick<RunResult, 'dialect'>): DialectReport | undefined {
  return result.dialect ?? undefined;
}

/** Requirement id -> the 1-based number of the root cause that explains it. */
export function causeIndex(result: Pick<RunResult, 'rootCauses'>): Map<string, number> {
  const index = new Map<string, number>();
  rootCausesOf(result).forEach((cause, i) => {
    for (const r of cause.requirements) if (!index.has(r.id)) index.set(r.id, i + 1);
  });
  return index;
}

/** `this agent speaks the official A2A v0.3 JSON-RPC, not this spec's`. */
export function dialectHeadline(d: DialectReport): string {
  return `this agent speaks ${d.name}, not this spec's`;
}

/** `160 of 198 finding(s) follow from 6 difference(s)`: the differences seen that explain a finding. */
export function dialectCount(d: DialectReport): string {
  const differences = d.differences.filter((x) => x.requirements > 0).length;
  return `${d.explained} of ${d.findings} finding(s) follow from ${differences} difference(s)`;
}

/** One line per difference: what the agent did, what the spec asks, how many findings it explains. */
export function differenceLines(d: DialectReport): string[] {
  return d.differences.map((x) => `${x.seen} (spec: ${x.spec}): ${x.requirements} finding(s)`);
}

/** `41 findings: tasks/get answered -32001 "Task not found" (in this spec -32001 means …)`. */
export function causeHeadline(cause: RootCause): string {
  const n = cause.requirements.length;
  const expected = cause.expected === undefined ? '' : ` (spec: ${cause.expected})`;
  const tag = cause.kind === 'dialect' ? 'dialect: ' : '';
  return `${n} finding(s): ${tag}${cause.cause}${expected}`;
}

/** `2.14/card-agent-id, 2.14/card-agent-name and 39 more`. */
export function idList(cause: RootCause, max: number): string {
  const ids = cause.requirements.slice(0, max).map((r) => r.id);
  const more = cause.requirements.length - ids.length;
  return `${ids.join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
}

/** Findings (fail, warn, error) the root causes explain, of all findings. */
export function explainedCount(result: Pick<RunResult, 'rootCauses'>): number {
  return causeIndex(result).size;
}
