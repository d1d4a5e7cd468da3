// The console's closing summary of a RunResult: a table by section and by level, each failure,
// warning and error with expected vs actual and its reproduce command, the baseline outcome, the
// compliance verdict (reporters/score.ts) and the exit line.
import type { Level } from '../../requirements/types.ts';
import type { RequirementResult, RunResult, Verdict, VerdictCounts } from '../../core/types.ts';
import { VERDICTS } from '../../core/types.ts';
import { complianceOf, unverifiedLines, verdictLine, type Compliance } from '../score.ts';
import {
  comparison,
  decidingChecks,
  findingOf,
  firstFinding,
  rerunSummary,
  groupBySection,
  roleTarget,
  type Finding,
} from '../sections.ts';
import { causeIndex } from '../root-causes.ts';
import { palette, type Palette } from './ansi.ts';
import { leadLines } from './console-lead.ts';
import type { ConsoleMode } from './console-mode.ts';
import { connectionLines } from '../connection.ts';
import { faultsLine, throttledLine } from '../traffic.ts';

const LEVELS: Level[] = ['MUST', 'SHOULD', 'MAY', 'INFO'];
/** Verdicts in at most six characters, for table columns. */
export const SHORT_VERDICT: Readonly<Record<Verdict, string>> = {
  pass: 'pass',
  fail: 'fail',
  warn: 'warn',
  info: 'info',
  'not-applicable': 'n/a',
  'not-exercised': 'n/e',
  error: 'error',
};
const NAME_WIDTH = 44;
const MAX_FINDINGS = 50;

function fit(text: string, width: number): string {
  return text.length > width ? `${text.slice(0, width - 1)}…` : text.padEnd(width);
}

function countsRow(name: string, counts: VerdictCounts, p: Palette): string {
  const cells = VERDICTS.map((v) => {
    const text = String(counts[v]).padStart(6);
    return counts[v] > 0 ? p.verdict(v, text) : p.style('grey', text);
  });
  return `  ${fit(name, NAME_WIDTH)}${cells.join('')}`;
}

function probed(result: RunResult): boolean {
  return result.reachability.reachable && result.reachability.authenticated;
}

export function summaryTable(result: RunResult, p: Palette): string[] {
  const header = `  ${fit('section', NAME_WIDTH)}${VERDICTS.map((v) => SHORT_VERDICT[v].padStart(6)).join('')}`;
  const lines = [p.style('bold', 'Summary by section'), p.style('grey', header)];
  // A run that could not be done has every requirement in error: one line per section says nothing.
  if (probed(result)) {
    for (const g of groupBySection(result.requirements)) lines.push(countsRow(g.name, g.counts, p));
  }
  lines.push(countsRow('all sections', result.summary.byVerdict, p));
  lines.push(p.style('bold', 'By level'));
  for (const level of LEVELS) {
    const counts = result.summary.byLevel[level];
    if (VERDICTS.some((v) => counts[v] > 0)) lines.push(countsRow(level, counts, p));
  }
  return lines;
}

// A comparison up to this long reads on one line (`result.canceled: expected true, actual false`).
const ONE_LINE = 110;
// A curl line longer than this (a large body) is left to report.html and junit.xml.
const MAX_CURL = 2_000;

function comparisonLines(f: Finding, p: Palette): string[] {
  const field = f.field === undefined ? '' : `${f.field}: `;
  const expected = f.expected ?? '';
  const actual = f.actual ?? '';
  if (comparison(f).length <= ONE_LINE && !/\n/.test(comparison(f)))
    return [`        ${field}expected ${p.style('green', expected)}, actual ${p.style('red', actual)}`];
  return [
    ...(f.field === undefined ? [] : [`        ${f.field}`]),
    `        expected: ${p.style('green', expected)}`,
    `        actual:   ${p.style('red', actual)}`,
  ];
}

function curlLine(f: Finding): string[] {
  if (f.curl === undefined) return [];
  if (f.curl.length <= MAX_CURL) return [`        curl: ${f.curl}`];
  return [`        curl: ${f.curl.length} characters, in report.html and junit.xml`];
}

function findingLines(r: RequirementResult, p: Palette, mode: ConsoleMode, expected: boolean): string[] {
  const tag = p.verdict(r.verdict, r.verdict.toUpperCase().padEnd(5));
  const note = expected ? p.style('grey', ' (expected failure, baseline)') : '';
  const lines = [`${tag} ${p.style('bold', r.id)} (${r.level})${note}  ${r.behaviour}`];
  const checks = decidingChecks(r);
  for (const check of mode === 'verbose' ? checks : checks.slice(0, 3)) {
    const f = findingOf(check);
    lines.push(`      check: ${f.title}`);
    if (f.expected !== undefined) lines.push(...comparisonLines(f, p));
    if (f.message !== '' && (f.expected === undefined || mode === 'verbose'))
      lines.push(`        ${f.message}`);
    if (f.reruns !== undefined) lines.push(`        ${f.reruns}`);
    lines.push(`        reproduce: ${f.reproduce}`, ...curlLine(f));
  }
  if (checks.length === 0) lines.push(`      ${firstFinding(r)}`);
  return lines;
}

const LISTED: Record<ConsoleMode, readonly Verdict[]> = {
  quiet: ['fail', 'error'],
  normal: ['fail', 'error', 'warn'],
  verbose: ['fail', 'error', 'warn', 'info', 'not-exercised'],
};

export function findings(result: RunResult, p: Palette, mode: ConsoleMode): string[] {
  // When the probe failed every requirement carries the same message: the exit line says it once.
  if (!probed(result)) return [];
  const order = LISTED[mode];
  // A finding a root cause explains is listed under its cause; --verbose prints it here too.
  const explained = mode === 'verbose' ? new Map<string, number>() : causeIndex(result);
  const all = result.requirements.filter((r) => order.includes(r.verdict));
  const listed = all
    .filter((r) => !explained.has(r.id))
    .sort((a, b) => order.indexOf(a.verdict) - order.indexOf(b.verdict));
  const underCauses = all.length - listed.length;
  if (listed.length === 0)
    return underCauses > 0
      ? [`${underCauses} finding(s), each under its root cause above (report.html has them all)`]
      : [];
  const expected = new Set(result.baseline?.stillFailing ?? []);
  const max = mode === 'verbose' ? Infinity : MAX_FINDINGS;
  if (mode === 'quiet') {
    return listed
      .slice(0, 20)
      .map((r) => `${p.verdict(r.verdict, r.verdict.toUpperCase())} ${r.id}  ${firstFinding(r)}`);
  }
  const title =
    underCauses > 0
      ? `Other findings (${listed.length}; ${underCauses} more under the root causes above)`
      : `Findings (${listed.length})`;
  const lines = [p.style('bold', title)];
  for (const r of listed.slice(0, max)) lines.push(...findingLines(r, p, mode, expected.has(r.id)));
  if (listed.length > max) lines.push(`... and ${listed.length - max} more in report.html`);
  return lines;
}

function baselineLines(result: RunResult, p: Palette): string[] {
  const b = result.baseline;
  if (b === undefined) return [];
  const lines = [
    `baseline ${b.file}: ${b.expectedFailures.length} expected failure(s), ${b.stillFailing.length} still fail, ${b.nowPassing.length} now pass, ${b.newFailures.length} new failure(s)`,
  ];
  for (const f of b.newFailures) lines.push(`  ${p.verdict('fail', 'NEW')} ${f.id}: ${f.verdict}`);
  for (const id of b.nowPassing)
    lines.push(`  ${p.verdict('fail', 'STALE')} ${id} passes now: remove it from the baseline`);
  if (b.ledger !== undefined && b.ledger.baseline !== b.ledger.current) {
    const was = b.ledger.baseline === null ? 'an older ledger' : `ledger ${b.ledger.baseline}`;
    lines.push(
      `  ${p.verdict('warn', 'LEDGER')} the baseline was graded against ${was}, this run against ledger ${b.ledger.current}: a requirement may have changed between them`,
    );
  }
  return lines;
}

/** Why a run is `unverified`: its unverified MUST requirements grouped by reason. */
function notVerifiedLines(result: RunResult, c: Compliance, p: Palette): string[] {
  if (c.level !== 'unverified' || !probed(result)) return [];
  return [
    p.style('bold', 'Not verified (MUST)'),
    ...unverifiedLines(c).map((l) => `  ${p.verdict('not-exercised', '~')} ${l}`),
  ];
}

export function formatRunSummary(result: RunResult, p: Palette, mode: ConsoleMode): string {
  const c = complianceOf(result);
  const tone = { 'not-compliant': 'fail', unverified: 'not-exercised' } as const;
  const verdict = p.style('bold', p.verdict(tone[c.level as keyof typeof tone] ?? 'pass', verdictLine(c)));
  const exit = `exit ${result.exitCode}: ${result.exitReason} (${(result.durationMs / 1000).toFixed(1)} s)`;
  const connection = connectionLines(result).map((l) =>
    l.tone === 'plain' ? l.text : `${p.verdict(l.tone, l.tone.toUpperCase())} ${l.text}`,
  );
  const lead = [...connection, ...(probed(result) ? leadLines(result, p, mode) : [])];
  if (mode === 'quiet') return [...lead, ...findings(result, p, mode), verdict, exit].join('\n');
  const lines = [
    `target: ${roleTarget(result) ?? `${result.target.baseUrl} agent ${result.target.agentId}`} (${result.reachability.message})`,
    ...lead,
    ...summaryTable(result, p),
    ...findings(result, p, mode),
  ];
  for (const e of result.harnessErrors.slice(0, mode === 'verbose' ? Infinity : 10)) {
    lines.push(`${p.verdict('error', 'HARNESS')} ${e.file ? `${e.file}: ` : ''}${e.message.split('\n')[0]}`);
  }
  const faults = faultsLine(result);
  const reruns = rerunSummary(result);
  lines.push(
    ...baselineLines(result, p),
    ...notVerifiedLines(result, c, p),
    ...(reruns === undefined ? [] : [reruns]),
  );
  const throttled = throttledLine(result);
  if (faults !== null) lines.push(faults);
  if (throttled !== null) lines.push(throttled);
  lines.push(verdict, exit);
  return lines.join('\n');
}

/** The closing summary the CLI prints, without colour: the API's `formatSummary`. */
export function formatSummary(result: RunResult, mode: ConsoleMode = 'normal'): string {
  return formatRunSummary(result, palette(false), mode);
}
