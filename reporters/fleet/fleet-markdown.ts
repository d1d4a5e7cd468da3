// fleet.md: the fleet report for a CI job summary ($GITHUB_STEP_SUMMARY): the verdict, agents by
// compliance level, what changed since --previous, the agents worst first with links to their
// report.html, and the requirements failed most often across the fleet.
import type { FleetAgentChange, FleetAgentOutcome, FleetReport } from '../../schemas/generated/types.ts';
import { cell } from '../markdown.ts';
import { COMPLIANCE_LABELS, formatScore } from '../score.ts';

const MAX_AGENTS = 200;
const MAX_REQUIREMENTS = 20;
// An interrupted fleet (130, 143) did not finish: marked as one that could not be run.
const ICON: Record<number, string> = { 0: '✅', 1: '❌', 2: '⚠️', 130: '⚠️', 143: '⚠️' };

/** Not run first, then failed, then passed; lower scores first; then by name. */
export function worstFirst(agents: readonly FleetAgentOutcome[]): FleetAgentOutcome[] {
  return [...agents].sort(
    (a, b) => b.exitCode - a.exitCode || (a.score ?? -1) - (b.score ?? -1) || a.name.localeCompare(b.name),
  );
}

function levelLabel(level: FleetAgentOutcome['level']): string {
  return level === null ? 'no report' : COMPLIANCE_LABELS[level];
}

function summaryLines(report: FleetReport): string[] {
  const s = report.summary;
  const levels = Object.entries(COMPLIANCE_LABELS).map(([k, label]) => [
    label,
    s.byLevel[k as keyof typeof s.byLevel],
  ]);
  const head = ['agents', 'passed', 'failed', 'not run', ...levels.map(([l]) => l), 'no report'];
  const row = [s.agents, s.passed, s.failed, s.notRun, ...levels.map(([, n]) => n), s.byLevel.none];
  const lines = [
    `| ${head.join(' | ')} |`,
    `|${head.map(() => '---:').join('|')}|`,
    `| ${row.join(' | ')} |`,
  ];
  if (report.missingShards.length > 0) {
    const count = report.shards[0]?.count ?? report.missingShards.length;
    lines.push(
      '',
      `**Missing shards:** ${report.missingShards.map((i) => `${i}/${count}`).join(', ')}: their agents are not in this report.`,
    );
  }
  return lines;
}

function changeLine(c: FleetAgentChange): string {
  const state = (s: FleetAgentChange['before']): string =>
    `${levelLabel(s.level)} ${formatScore(s.score)} (exit ${s.exitCode})`;
  const ids = (label: string, list: string[]): string =>
    list.length === 0 ? '' : `; ${label}: ${list.map((i) => `\`${i}\``).join(', ')}`;
  return `- **${c.name}**: ${state(c.before)} → ${state(c.after)}${ids('newly failing', c.newlyFailing)}${ids('now passing', c.nowPassing)}`;
}

function changesLines(report: FleetReport): string[] {
  const c = report.changes;
  if (c === undefined) return [];
  const lines = ['', `### Changes since ${c.previous} (${c.previousGeneratedAt})`, ''];
  lines.push(
    `${c.regressed.length} regressed, ${c.fixed.length} fixed, ${c.added.length} added, ${c.removed.length} removed.`,
  );
  if (c.regressed.length > 0) lines.push('', '**Regressed**', '', ...c.regressed.map(changeLine));
  if (c.fixed.length > 0) lines.push('', '**Fixed**', '', ...c.fixed.map(changeLine));
  if (c.added.length > 0) lines.push('', `**Added:** ${c.added.join(', ')}`);
  if (c.removed.length > 0) lines.push('', `**Removed:** ${c.removed.join(', ')}`);
  if (c.newlyFailing.length > 0)
    lines.push(
      '',
      `**Requirements newly failing across the fleet:** ${c.newlyFailing.map((i) => `\`${i}\``).join(', ')}`,
    );
  return lines;
}

function agentRow(a: FleetAgentOutcome): string {
  const n = (k: 'fail' | 'warn' | 'not-exercised' | 'error'): string =>
    a.counts === null ? '-' : String(a.counts[k]);
  const link =
    a.level === null ? cell(a.exitReason, 120) : `[report](${encodeURI(`${a.reportDir}/report.html`)})`;
  const partial = a.partial ? ' (partial)' : '';
  return `| ${cell(a.name, 80)} | ${levelLabel(a.level)}${partial} | ${formatScore(a.score)} | ${n('fail')} | ${n('warn')} | ${n('not-exercised')} | ${n('error')} | ${a.exitCode} | ${(a.wallMs / 1000).toFixed(1)} s | ${link} |`;
}

function agentLines(report: FleetReport): string[] {
  const agents = worstFirst(report.agents);
  const lines = [
    '',
    `### Agents (${agents.length}), worst first`,
    '',
    '| Agent | Level | Score | Fail | Warn | Not exercised | Error | Exit | Duration | Report |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---|',
    ...agents.slice(0, MAX_AGENTS).map(agentRow),
  ];
  if (agents.length > MAX_AGENTS)
    lines.push('', `…and ${agents.length - MAX_AGENTS} more in fleet.html and fleet.json.`);
  return lines;
}

function requirementLines(report: FleetReport): string[] {
  if (report.requirements.length === 0) return [];
  const total = report.summary.agents;
  return [
    '',
    `### Requirements failed most often`,
    '',
    '| Requirement | Level | Agents failing | |',
    '|---|---|---:|---|',
    ...report.requirements
      .slice(0, MAX_REQUIREMENTS)
      .map(
        (r) =>
          `| \`${r.id}\` | ${r.level} | ${r.agents.length} of ${total} | ${cell(r.agents.join(', '), 120)} |`,
      ),
  ];
}

export function renderFleetMarkdown(report: FleetReport): string {
  const s = report.summary;
  return [
    `## ${ICON[s.exitCode]} A2A fleet certification: ${s.exitReason}`,
    '',
    `\`${report.tool.name} ${report.tool.version}\` · ${report.shards.length} shard(s) merged · exit ${s.exitCode}`,
    '',
    ...summaryLines(report),
    ...changesLines(report),
    ...agentLines(report),
    ...requirementLines(report),
    '',
    'Full report: [fleet.html](fleet.html) · machine-readable: `fleet.json`, `junit.xml`',
    '',
  ].join('\n');
}
