// summary.md: a compact Markdown summary for pull-request comments and CI step summaries
// ($GITHUB_STEP_SUMMARY): the verdict line, counts by level, and the requirements that need
// attention with links into report.html by anchor.
import type { Level } from '../requirements/types.ts';
import type { RequirementResult, RunResult } from '../core/types.ts';
import { VERDICTS } from '../core/types.ts';
import { connectionLines } from './connection.ts';
import { complianceOf, formatScore, unverifiedLines, type Compliance } from './score.ts';
import {
  causeIndex,
  dialectCount,
  dialectHeadline,
  dialectOf,
  explainedCount,
  rootCausesOf,
} from './root-causes.ts';
import { anchorOf, ATTENTION, firstFinding, rerunSummary, roleTarget } from './sections.ts';
import { toolLabel } from '../core/tool-label.ts';
import { trafficFacts } from './traffic.ts';

const LEVELS: Level[] = ['MUST', 'SHOULD', 'MAY', 'INFO'];
const MAX_LISTED = 50;
const MAX_FINDING = 180;
const MAX_CAUSE_IDS = 6;

export interface MarkdownOptions {
  /** Where report.html is, relative to summary.md or absolute (default `report.html`). */
  htmlHref?: string;
}

const ICON: Record<Compliance['level'], string> = {
  'fully-compliant': '✅',
  'must-compliant': '☑️',
  unverified: '❔',
  'not-compliant': '❌',
};

/** One table cell: no line breaks, pipes escaped, long text cut. */
export function cell(text: string, max = MAX_FINDING): string {
  const flat = text.replace(/\s*[\r\n]+\s*/g, ' ').replace(/\|/g, '\\|');
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

function code(text: string): string {
  return `\`${text.replace(/`/g, "'")}\``;
}

function countsTable(result: RunResult): string[] {
  const head = `| Level | ${VERDICTS.join(' | ')} |`;
  const rule = `|---|${VERDICTS.map(() => '---:').join('|')}|`;
  const rows = LEVELS.filter((l) => VERDICTS.some((v) => result.summary.byLevel[l][v] > 0)).map(
    (l) => `| ${l} | ${VERDICTS.map((v) => result.summary.byLevel[l][v]).join(' | ')} |`,
  );
  const total = `| **all** | ${VERDICTS.map((v) => `**${result.summary.byVerdict[v]}**`).join(' | ')} |`;
  return [head, rule, ...rows, total];
}

function attentionRows(result: RunResult, href: string): string[] {
  const causes = causeIndex(result);
  // Worst verdict first; within a verdict, the findings no root cause explains (those above do).
  const order = (r: RequirementResult): number =>
    2 * ATTENTION.indexOf(r.verdict) + (causes.has(r.id) ? 1 : 0);
  const listed = result.requirements
    .filter((r) => ATTENTION.includes(r.verdict))
    .sort((a, b) => order(a) - order(b));
  if (listed.length === 0) return [];
  const expected = new Set(result.baseline?.stillFailing ?? []);
  const row = (r: RequirementResult): string => {
    const mark = expected.has(r.id) ? ' (expected, baseline)' : '';
    const link = `[${r.id}](${href}#${anchorOf(r.id)})`;
    const cause = causes.has(r.id) ? `root cause ${causes.get(r.id)}: ` : '';
    return `| ${r.verdict.toUpperCase()}${mark} | ${r.level} | ${link} | ${cause}${cell(firstFinding(r))} |`;
  };
  const lines = [
    '',
    `### Requirements that need attention (${listed.length})`,
    '',
    '| Verdict | Level | Requirement | Finding |',
    '|---|---|---|---|',
    ...listed.slice(0, MAX_LISTED).map(row),
  ];
  if (listed.length > MAX_LISTED)
    lines.push('', `…and ${listed.length - MAX_LISTED} more in [the HTML report](${href}).`);
  return lines;
}

/** Not exercised MUST and SHOULD requirements count against the score: listed, folded away. */
function notExercisedLines(result: RunResult, href: string): string[] {
  const listed = result.requirements.filter(
    (r) => r.verdict === 'not-exercised' && (r.level === 'MUST' || r.level === 'SHOULD'),
  );
  if (listed.length === 0) return [];
  const items = listed
    .slice(0, MAX_LISTED)
    .map((r) => `- [${r.id}](${href}#${anchorOf(r.id)}) (${r.level}): ${cell(firstFinding(r), 120)}`);
  const more = listed.length > MAX_LISTED ? [`- …and ${listed.length - MAX_LISTED} more`] : [];
  return [
    '',
    `<details><summary>${listed.length} MUST/SHOULD requirement(s) not exercised (they count against the score)</summary>`,
    '',
    ...items,
    ...more,
    '',
    '</details>',
  ];
}

/** The dialect the agent speaks when it is not this spec's: said first, since it explains the rest. */
function dialectBlock(result: RunResult): string[] {
  const d = dialectOf(result);
  if (d === undefined) return [];
  const probe = d.evidence.filter((line) => line.includes(' is served ('));
  return [
    '',
    `> **Dialect: ${dialectHeadline(d)}.** ${dialectCount(d)}, each a root cause below.`,
    ...probe.map((line) => `> - ${cell(line, 300)}`),
  ];
}

function rootCauseTable(result: RunResult, href: string): string[] {
  const causes = rootCausesOf(result);
  if (causes.length === 0) return [];
  const link = (id: string): string => `[${id}](${href}#${anchorOf(id)})`;
  const findings = result.requirements.filter((r) => ['fail', 'warn', 'error'].includes(r.verdict)).length;
  const rows = causes.map((cause, i) => {
    const ids = cause.requirements.slice(0, MAX_CAUSE_IDS).map((r) => link(r.id));
    const more = cause.requirements.length - ids.length;
    const spec = cause.expected === undefined ? '' : ` (spec: ${cause.expected})`;
    const what = `${cause.kind === 'dialect' ? 'dialect: ' : ''}${cause.cause}${spec}`;
    return `| ${i + 1} | ${cause.requirements.length} | ${cell(what, 400)} | ${ids.join(', ')}${more > 0 ? ` and ${more} more` : ''} |`;
  });
  return [
    '',
    `### Root causes (${explainedCount(result)} of ${findings} findings)`,
    '',
    '| # | Findings | Cause | Requirements |',
    '|---:|---:|---|---|',
    ...rows,
  ];
}

function trafficTable(result: RunResult): string[] {
  const facts = trafficFacts(result);
  if (facts.length === 0) return [];
  return ['', '| Traffic | |', '|---|---|', ...facts.map((f) => `| ${f.label} | ${cell(f.value, 400)} |`)];
}

function baselineLines(result: RunResult): string[] {
  const b = result.baseline;
  if (b === undefined) return [];
  const lines = ['', `### Baseline ${code(b.file)}`, ''];
  lines.push(
    `${b.expectedFailures.length} expected failure(s): ${b.stillFailing.length} still fail, ${b.nowPassing.length} now pass; ${b.newFailures.length} new failure(s).`,
  );
  for (const f of b.newFailures) lines.push(`- new failure: ${code(f.id)} (${f.verdict})`);
  for (const id of b.nowPassing) lines.push(`- now passes, remove it from the baseline: ${code(id)}`);
  return lines;
}

export function renderMarkdown(result: RunResult, options: MarkdownOptions = {}): string {
  const href = options.htmlHref ?? 'report.html';
  const c = complianceOf(result);
  const partial = c.partial ? ' (partial run: `--only`)' : '';
  // How the target was reached comes first: verification off must not hide below the tables.
  const connection = connectionLines(result).map(
    (l) => `- ${l.tone === 'plain' ? '' : `**${l.tone.toUpperCase()}** `}${cell(l.text, 400)}`,
  );
  const lines = [
    `## ${ICON[c.level]} A2A conformance: ${c.label}, score ${formatScore(c.score)}${partial}`,
    '',
    ...(connection.length > 0 ? [...connection, ''] : []),
    `${code(toolLabel(result.tool))} · ${roleTarget(result) === undefined ? `agent ${code(result.target.agentId)} at ${code(result.target.baseUrl)}` : code(roleTarget(result)!)} · ${result.summary.total} requirement(s) · ${(result.durationMs / 1000).toFixed(1)} s · exit ${result.exitCode}: ${cell(result.exitReason, 300)}`,
    '',
    `Score: ${c.passed} of ${c.counted} MUST and SHOULD requirements pass (not-exercised and error count against it).`,
  ];
  lines.push(...dialectBlock(result), ...rootCauseTable(result, href), ...trafficTable(result));
  if (c.reasons.length > 0) lines.push('', ...c.reasons.map((r) => `- ${r}`));
  if (c.level === 'unverified' && c.unverified.length > 0)
    lines.push('', '**Not verified (MUST)**', '', ...unverifiedLines(c).map((l) => `- ${cell(l, 400)}`));
  lines.push('', ...countsTable(result));
  const reruns = rerunSummary(result);
  if (reruns !== undefined) lines.push('', `**Re-runs**: ${reruns}.`);
  lines.push(...attentionRows(result, href));
  lines.push(...notExercisedLines(result, href));
  if (result.harnessErrors.length > 0) {
    lines.push('', `### Harness errors (${result.harnessErrors.length})`, '');
    for (const e of result.harnessErrors.slice(0, 10)) lines.push(`- ${cell(e.message, 300)}`);
  }
  lines.push(...baselineLines(result));
  lines.push(
    '',
    `Full report: [report.html](${href}) · machine-readable: \`report.json\`, \`junit.xml\``,
    '',
  );
  return lines.join('\n');
}
