// Groups a run's requirements by spec section (in spec order, titled from the spec's headings) and
// picks each requirement's findings: the shared reading of a RunResult for every reporter.
import { ROLES, SECTIONS } from '../requirements/index.ts';
import { describeValue } from '../core/describe.ts';
import type { Role } from '../requirements/types.ts';
import type { CheckResult, RequirementResult, RunResult, Verdict, VerdictCounts } from '../core/types.ts';
import { emptyCounts } from '../core/verdict.ts';

export interface SectionGroup {
  section: string;
  role: Role;
  /** `4.2 message/stream` (`client 4.2 message/stream` for a client or receiver requirement); the bare number when the spec has no heading for it. */
  name: string;
  requirements: RequirementResult[];
  counts: VerdictCounts;
}

/** Numeric order of dotted section numbers: 2.2 before 2.10. */
export function compareSections(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? -1) - (pb[i] ?? -1);
    if (d !== 0 && !Number.isNaN(d)) return d;
  }
  return a.localeCompare(b);
}

/**
 * What a receiver or client run certified, in words (`receiver at http://…`, `client node driver.mjs`);
 * undefined for a service run, which each reporter names by its agent as before.
 */
export function roleTarget(result: Pick<RunResult, 'role' | 'target'>): string | undefined {
  if (result.role === 'receiver') return `receiver at ${result.target.baseUrl}`;
  if (result.role === 'client') return `client ${result.target.baseUrl}`;
  return undefined;
}

export function sectionName(section: string): string {
  const title = SECTIONS[section];
  return title === undefined ? section : `${section} ${title}`;
}

/** Groups by role, then by section: the service's sections keep their names, the others' name their role. */
export function groupBySection(requirements: readonly RequirementResult[]): SectionGroup[] {
  const groups = new Map<string, SectionGroup>();
  for (const r of requirements) {
    const role = r.role ?? 'service';
    const key = `${role} ${r.section}`;
    let g = groups.get(key);
    if (g === undefined) {
      const name = role === 'service' ? sectionName(r.section) : `${role} ${sectionName(r.section)}`;
      g = { section: r.section, role, name, requirements: [], counts: emptyCounts() };
      groups.set(key, g);
    }
    g.requirements.push(r);
    g.counts[r.verdict] += 1;
  }
  return [...groups.values()].sort(
    (a, b) => ROLES.indexOf(a.role) - ROLES.indexOf(b.role) || compareSections(a.section, b.section),
  );
}

/** Verdicts a reader must look at, worst first. */
export const ATTENTION: readonly Verdict[] = ['fail', 'error', 'warn', 'info'];

export function needsAttention(r: RequirementResult): boolean {
  return ATTENTION.includes(r.verdict);
}

/** The checks that decided a fail/warn/info/error verdict. */
export function decidingChecks(r: Pick<RequirementResult, 'verdict' | 'checks'>): CheckResult[] {
  if (r.verdict === 'error') return r.checks.filter((c) => c.status === 'error');
  if (r.verdict === 'fail' || r.verdict === 'warn' || r.verdict === 'info')
    return r.checks.filter((c) => c.status === 'fail');
  return [];
}

export interface Finding {
  title: string;
  message: string;
  /** What was compared: the field path the failed assertion read (`result.canceled`). */
  field?: string;
  expected?: string;
  actual?: string;
  reproduce: string;
  curl?: string;
  /** The check ran more than once (a re-run after a transport fault): what its runs did (rerunLine). */
  reruns?: string;
}

/**
 * What a check's re-runs after transport faults came to, in one line; undefined when it ran once.
 * An intermittent fail names the run that proved the violation and the one that passed.
 */
export function rerunLine(check: CheckResult): string | undefined {
  const runs = check.runs;
  if (runs === undefined || runs.length < 2) return undefined;
  const faults = runs.flatMap((r) => r.faults.map((f) => `${f.kind} on ${f.method}`));
  const said = `${runs.length} runs, ${faults.length} transport fault(s): ${[...new Set(faults)].join(', ')}`;
  if (check.intermittent === true) {
    const failed = runs.findIndex((r) => r.status === 'fail') + 1;
    const passed = runs.findIndex((r) => r.status === 'pass') + 1;
    return `intermittent: run ${failed} proved the violation, run ${passed} passed (${said})`;
  }
  const by = runs.findIndex((r) => r.decided) + 1;
  return `${check.status} decided by run ${by} after re-runs from scratch (${said})`;
}

/** `N check(s) re-run after a transport fault (M intermittent fail(s))`, or undefined when none was. */
export function rerunSummary(result: Pick<RunResult, 'requirements'>): string | undefined {
  const checks = result.requirements.flatMap((r) => r.checks);
  const rerun = checks.filter((c) => (c.runs?.length ?? 0) > 1).length;
  if (rerun === 0) return undefined;
  const intermittent = checks.filter((c) => c.intermittent === true).length;
  const marked =
    intermittent > 0
      ? ` (${intermittent} intermittent fail(s): a violation in one run, a pass in another)`
      : '';
  return `${rerun} check(s) re-run from scratch after a transport fault${marked}`;
}

export function findingOf(check: CheckResult): Finding {
  const f: Finding = { title: check.title, message: check.message, reproduce: check.reproduce.command };
  if (check.status === 'fail' && ('expected' in check || 'actual' in check)) {
    f.expected = describeValue(check.expected);
    f.actual = describeValue(check.actual);
    if (check.field !== undefined) f.field = check.field;
  }
  if (check.reproduce.curl !== undefined) f.curl = check.reproduce.curl;
  const reruns = rerunLine(check);
  if (reruns !== undefined) f.reruns = reruns;
  return f;
}

/** `result.canceled: expected true, actual false`: what was compared, expected beside actual. */
export function comparison(f: Finding): string {
  const field = f.field === undefined ? '' : `${f.field}: `;
  return `${field}expected ${f.expected ?? ''}, actual ${f.actual ?? ''}`;
}

/** One line: the first deciding check's expected vs actual, or the requirement's own message. */
export function firstFinding(r: Pick<RequirementResult, 'verdict' | 'checks' | 'message'>): string {
  const check = decidingChecks(r)[0];
  if (check === undefined)
    return r.message ?? r.checks.find((c) => c.status !== 'pass' && c.message !== '')?.message ?? '';
  const f = findingOf(check);
  const mark = check.intermittent === true ? 'intermittent: ' : '';
  return f.expected === undefined ? `${mark}${f.title}: ${f.message}` : `${mark}${f.title}: ${comparison(f)}`;
}

/** The requirement's anchor in report.html (`#req-4.2/stream-final`); ids are kept readable. */
export function anchorOf(id: string): string {
  return `req-${id.replace(/[^A-Za-z0-9._/-]/g, '-')}`;
}
