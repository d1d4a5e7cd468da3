// junit.xml for CI test-report readers: one testsuite per spec section, one testcase per
// requirement. fail -> <failure>, error -> <error>, not-applicable / not-exercised -> <skipped>,
// warn and info -> a passing testcase with a <system-out> note; baseline expectations applied; a
// check re-run after a transport fault -> Surefire's <flakyFailure> (passed) or <rerunFailure> (intermittent).
import { hostname } from 'node:os';
import type { BaselineDiff, RequirementResult, RunResult } from '../core/types.ts';
import { complianceOf, verdictLine } from './score.ts';
import {
  decidingChecks,
  findingOf,
  firstFinding,
  groupBySection,
  rerunLine,
  roleTarget,
  type SectionGroup,
} from './sections.ts';
import { attrs, escapeXml } from './xml.ts';

// A failure body quotes expected/actual and a curl line; huge request bodies are cut here.
const MAX_BODY_CHARS = 8_000;

export type Outcome =
  | { kind: 'pass'; note?: string }
  | { kind: 'failure' | 'error'; message: string; type: string; body: string }
  | { kind: 'skipped'; message: string };

function cap(text: string, max = MAX_BODY_CHARS): string {
  return text.length > max
    ? `${text.slice(0, max)}… [${text.length - max} more characters in report.json]`
    : text;
}

/** The deciding checks as text: expected beside actual, the message and how to reproduce. */
export function findingsText(r: RequirementResult): string {
  const lines = [`${r.id} (${r.level}): ${r.behaviour}`];
  for (const check of decidingChecks(r)) {
    const f = findingOf(check);
    lines.push('', `check: ${f.title}`);
    if (f.field !== undefined) lines.push(`  field:    ${f.field}`);
    if (f.expected !== undefined) lines.push(`  expected: ${f.expected}`, `  actual:   ${f.actual}`);
    if (f.message !== '') lines.push(`  message:  ${f.message}`);
    if (f.reruns !== undefined) lines.push(`  reruns:   ${f.reruns}`);
    lines.push(`  reproduce: ${f.reproduce}`);
    if (f.curl !== undefined) lines.push(`  curl: ${cap(f.curl, 2_000)}`);
  }
  if (r.message !== undefined) lines.push('', r.message);
  return cap(lines.join('\n'));
}

/** The message of a failure or error: the first finding, else the verdict. */
function headline(r: RequirementResult): string {
  return firstFinding(r) || r.verdict;
}

export function outcomeOf(r: RequirementResult, baseline?: BaselineDiff): Outcome {
  if (baseline?.stillFailing.includes(r.id)) {
    return { kind: 'skipped', message: `expected failure (baseline ${baseline.file}): ${headline(r)}` };
  }
  if (baseline?.nowPassing.includes(r.id)) {
    const message = `listed as an expected failure in baseline ${baseline.file} but now passes: remove it from the baseline`;
    return { kind: 'failure', type: 'baseline', message, body: message };
  }
  switch (r.verdict) {
    case 'pass':
      return { kind: 'pass' };
    case 'fail':
      return { kind: 'failure', type: r.level, message: headline(r), body: findingsText(r) };
    case 'error':
      return { kind: 'error', type: 'harness-error', message: headline(r), body: findingsText(r) };
    case 'warn':
      return { kind: 'pass', note: `WARN (${r.level}, legal but lax)\n${findingsText(r)}` };
    case 'info':
      return { kind: 'pass', note: `INFO (${r.level})\n${findingsText(r)}` };
    default:
      return { kind: 'skipped', message: `${r.verdict}: ${firstFinding(r)}` };
  }
}

/**
 * Surefire's shapes for re-runs: a passing testcase whose check passed after a re-run carries a
 * <flakyFailure> per run that met a transport fault; a failure proven in one run while another
 * passed (intermittent) carries a <rerunFailure> naming the runs.
 */
function rerunElements(r: RequirementResult, o: Outcome): string {
  let out = '';
  for (const check of r.checks) {
    const line = rerunLine(check);
    if (line === undefined) continue;
    if (o.kind === 'failure' && check.intermittent === true) {
      out += `      <rerunFailure${attrs({ message: line, type: 'intermittent' })}>${escapeXml(cap(`${check.title}: ${line}`))}</rerunFailure>\n`;
    } else if (o.kind === 'pass' && check.status === 'pass') {
      for (const run of check.runs ?? []) {
        if (run.faults.length === 0) continue;
        const said = run.faults.map((f) => `${f.kind} on ${f.method}: ${f.message}`).join('\n');
        out += `      <flakyFailure${attrs({ message: `${check.title}: ${line}`, type: 'transport-fault' })}>${escapeXml(cap(said))}</flakyFailure>\n`;
      }
    }
  }
  return out;
}

export function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

function requirementTime(r: RequirementResult): number {
  return r.checks.reduce((sum, c) => sum + c.durationMs, 0);
}

export function testcase(r: RequirementResult, classname: string, baseline?: BaselineDiff): string {
  const o = outcomeOf(r, baseline);
  const open = `    <testcase${attrs({ name: r.id, classname, time: seconds(requirementTime(r)) })}`;
  let inner = '';
  if (o.kind === 'failure' || o.kind === 'error') {
    inner = `      <${o.kind}${attrs({ message: o.message, type: o.type })}>${escapeXml(o.body)}</${o.kind}>\n`;
  } else if (o.kind === 'skipped') {
    inner = `      <skipped${attrs({ message: o.message })}/>\n`;
  } else if (o.kind === 'pass' && o.note !== undefined) {
    inner = `      <system-out>${escapeXml(o.note)}</system-out>\n`;
  }
  inner += rerunElements(r, o);
  return inner === '' ? `${open}/>` : `${open}>\n${inner}    </testcase>`;
}

export interface Tally {
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
}

export function tally(outcomes: Outcome[]): Tally {
  const n = (kind: Outcome['kind']): number => outcomes.filter((o) => o.kind === kind).length;
  return { tests: outcomes.length, failures: n('failure'), errors: n('error'), skipped: n('skipped') };
}

export interface SuiteHead extends Tally {
  name: string;
  id: number;
  time: number;
  timestamp: string;
  properties: Record<string, string>;
}

/** Opening lines of a testsuite with every attribute and the <properties> the Ant JUnit XSD requires. */
export function suiteHead(h: SuiteHead): string[] {
  const { properties, time, ...rest } = h;
  const props = Object.entries(properties).map(
    ([name, value]) => `      <property${attrs({ name, value })}/>`,
  );
  return [
    `  <testsuite${attrs({ ...rest, package: 'a2a-conformance', hostname: hostname(), time: seconds(time) })}>`,
    '    <properties>',
    ...props,
    '    </properties>',
  ];
}

// The Ant JUnit XSD requires both elements after the testcases.
export const SUITE_TAIL = ['    <system-out/>', '    <system-err/>', '  </testsuite>'];

function testsuite(g: SectionGroup, index: number, timestamp: string, baseline?: BaselineDiff): string {
  const t = tally(g.requirements.map((r) => outcomeOf(r, baseline)));
  const time = g.requirements.reduce((sum, r) => sum + requirementTime(r), 0);
  const properties = { section: g.section, ...countsOf(g) };
  const head = suiteHead({ name: g.name, id: index, ...t, time, timestamp, properties });
  const cases = g.requirements.map((r) => testcase(r, g.name, baseline));
  return [...head, ...cases, ...SUITE_TAIL].join('\n');
}

/** Verdict counts of a section as properties (`verdict.warn` = 2), zeros left out. */
function countsOf(g: SectionGroup): Record<string, string> {
  const entries = Object.entries(g.counts).filter(([, n]) => n > 0);
  return Object.fromEntries(entries.map(([v, n]) => [`verdict.${v}`, String(n)]));
}

/** Harness failures (a suite that did not load, a spent budget) as errors of their own suite. */
function harnessSuite(result: RunResult, index: number): string | undefined {
  if (result.harnessErrors.length === 0) return undefined;
  const cases = result.harnessErrors.map((e, i) => {
    const name = `harness error ${i + 1}${e.file === undefined ? '' : ` (${e.file})`}`;
    const message = e.message.split('\n')[0] ?? '';
    const body = [e.message, e.stack ?? ''].join('\n').trim();
    return `    <testcase${attrs({ name, classname: 'harness', time: '0.000' })}>\n      <error${attrs({ message, type: 'harness-error' })}>${escapeXml(cap(body))}</error>\n    </testcase>`;
  });
  const n = result.harnessErrors.length;
  const timestamp = result.startedAt.slice(0, 19);
  const head = suiteHead({
    name: 'harness',
    id: index,
    tests: n,
    failures: 0,
    errors: n,
    skipped: 0,
    time: 0,
    timestamp,
    properties: {},
  });
  return [...head, ...cases, ...SUITE_TAIL].join('\n');
}

export function renderJunit(result: RunResult): string {
  const groups = groupBySection(result.requirements);
  const timestamp = result.startedAt.slice(0, 19);
  const suites = groups.map((g, i) => testsuite(g, i, timestamp, result.baseline));
  const harness = harnessSuite(result, groups.length);
  if (harness !== undefined) suites.push(harness);
  const all = result.requirements.map((r) => outcomeOf(r, result.baseline));
  const t = tally(all);
  const extra = result.harnessErrors.length;
  const who = roleTarget(result) ?? `${result.target.agentId} at ${result.target.baseUrl}`;
  const name = `${result.tool.name} ${who}: ${verdictLine(complianceOf(result))}`;
  const root = `<testsuites${attrs({ name, tests: t.tests + extra, failures: t.failures, errors: t.errors + extra, skipped: t.skipped, time: seconds(result.durationMs), timestamp })}>`;
  return ['<?xml version="1.0" encoding="UTF-8"?>', root, ...suites, '</testsuites>', ''].join('\n');
}
