// fleet.html: one self-contained page of a fleet report, opened offline from disk: report.html's
// styles and Content-Security-Policy (no fetch of any kind), the fleet's data embedded as JSON, and
// fleet-page.js, which draws a sortable, filterable table of agents linking to each report.html.
import { readFileSync } from 'node:fs';
import type { FleetAgentChange, FleetAgentOutcome, FleetReport } from '../../schemas/generated/types.ts';
import { embedJson, pageOpening } from '../html/html-report.ts';
import { COMPLIANCE_LABELS, formatScore } from '../score.ts';

const read = (file: string): string => readFileSync(new URL(file, import.meta.url), 'utf8');
const CSS = `${read('../html/page.css')}${read('./fleet-page.css')}`;
const SCRIPT = `\n(() => {\n${read('./fleet-page.js')}})();\n`;

function levelLabel(level: FleetAgentOutcome['level']): string {
  return level === null ? 'no report' : COMPLIANCE_LABELS[level];
}

function agentView(a: FleetAgentOutcome) {
  const n = (k: 'fail' | 'warn' | 'not-exercised' | 'error'): number => a.counts?.[k] ?? 0;
  return {
    name: a.name,
    target: a.target,
    agentId: a.agentId,
    level: a.level,
    levelLabel: levelLabel(a.level),
    score: a.score,
    partial: a.partial,
    fail: n('fail'),
    warn: n('warn'),
    notExercised: n('not-exercised'),
    error: n('error'),
    exitCode: a.exitCode,
    status: a.status,
    wallMs: a.wallMs,
    // Relative to fleet.html; each path segment is URL-encoded so a name cannot change the link.
    href: a.level === null ? null : `${a.reportDir.split('/').map(encodeURIComponent).join('/')}/report.html`,
    reason: a.exitReason,
  };
}

function changeView(c: FleetAgentChange) {
  const state = (s: FleetAgentChange['before']): string =>
    `${levelLabel(s.level)} ${formatScore(s.score)} (exit ${s.exitCode})`;
  return {
    name: c.name,
    before: state(c.before),
    after: state(c.after),
    newlyFailing: c.newlyFailing,
    nowPassing: c.nowPassing,
  };
}

export function fleetHtmlData(report: FleetReport) {
  return {
    title: `A2A fleet certification: ${report.summary.agents} agent(s)`,
    levels: Object.entries(COMPLIANCE_LABELS).map(([key, label]) => ({ key, label })),
    summary: report.summary,
    meta: {
      tool: `${report.tool.name} ${report.tool.version}`,
      generated: report.generatedAt,
      shards: `${report.shards.length} merged${report.missingShards.length > 0 ? `, missing ${report.missingShards.join(', ')} of ${report.shards[0]?.count}` : ''}`,
      'fleet file': report.fleet.file,
    },
    agents: report.agents.map(agentView),
    requirements: report.requirements.slice(0, 50),
    changes:
      report.changes === undefined
        ? null
        : {
            ...report.changes,
            regressed: report.changes.regressed.map(changeView),
            fixed: report.changes.fixed.map(changeView),
          },
  };
}

export function renderFleetHtml(report: FleetReport): string {
  const data = fleetHtmlData(report);
  return `${pageOpening(data.title, CSS, SCRIPT, 'fleet.json')}
<div id="summary"></div>
<div id="changes"></div>
<h2>Agents</h2>
<div id="filters"></div>
<p id="shown"></p>
<table id="agents"><thead></thead><tbody></tbody></table>
<h2>Requirements failed most often</h2>
<div id="requirements"></div>
<script type="application/json" id="fleet-data">${embedJson(data)}</script>
<script>${SCRIPT}</script>
</body>
</html>
`;
}
