// The data report.html embeds: each requirement with its spec text (requirements/spec-text.ts),
// the rulings it cites (CLARIFICATIONS.md), expected vs actual, the wire exchanges, SSE and webhook
// timelines. Evidence is trimmed here so that a full run's page stays a few megabytes.
import { loadClarifications } from '../../core/clarifications.ts';
import { requestOf, type Exchange } from '../../core/evidence.ts';
import type { CheckResult, RequirementResult, RunResult } from '../../core/types.ts';
import { VERDICTS } from '../../core/types.ts';
import { getRequirement, hasRequirement, specExcerpt } from '../../requirements/index.ts';
import { complianceOf, type Compliance } from '../score.ts';
import { connectionLines, type ConnectionLine } from '../connection.ts';
import { causeHeadline, dialectCount, dialectHeadline, dialectOf, rootCausesOf } from '../root-causes.ts';
import { anchorOf, groupBySection, roleTarget } from '../sections.ts';
import { toolLabel } from '../../core/tool-label.ts';
import { trafficFacts, type TrafficFact } from '../traffic.ts';
import { streamTimeline, webhookTimelines, type StreamTimeline, type WebhookTimeline } from './timelines.ts';

/** Evidence kept per check: decided checks keep more than passing ones. */
const CAPS = {
  decided: { exchanges: 30, bodyChars: 8_000, points: 200, deliveries: 60 },
  passed: { exchanges: 6, bodyChars: 1_500, points: 60, deliveries: 20 },
} as const;
type Caps = (typeof CAPS)[keyof typeof CAPS];

export interface HtmlExchange {
  id: string;
  kind: Exchange['kind'];
  request: string;
  response: string;
  startedAt: string;
  totalMs: number;
  status?: number;
  error?: string;
}

export interface HtmlCheck {
  title: string;
  status: CheckResult['status'];
  message: string;
  expected?: string;
  actual?: string;
  failedAssertions: { label: string; expected: string; actual: string }[];
  assertions: number;
  notes: string[];
  durationMs: number;
  reproduce: string;
  curl?: string;
  file?: string;
  exchanges: HtmlExchange[];
  omittedExchanges: number;
  /** Set when `--evidence` left the check's evidence out: what there was. */
  evidenceNote?: string;
  streams: StreamTimeline[];
  webhooks: WebhookTimeline[];
}

export interface HtmlRequirement {
  id: string;
  anchor: string;
  section: string;
  level: RequirementResult['level'];
  verdict: RequirementResult['verdict'];
  behaviour: string;
  message?: string;
  /** `expected`: a baseline failure that still fails; `now-passing`; `new`: a failure the baseline lacks. */
  baseline?: 'expected' | 'now-passing' | 'new';
  spec?: { heading: string; line?: number; text: string; origin?: string };
  rulings: string[];
  checks: HtmlCheck[];
}

export interface HtmlData {
  title: string;
  meta: Record<string, string>;
  compliance: Compliance;
  /** The dialect the agent speaks when it is not this spec's (absent otherwise, and in old reports). */
  dialect?: { headline: string; count: string; evidence: string[] };
  /** Causes many findings share, each with its finding ids, largest first. */
  rootCauses: { headline: string; example?: string; requirements: string[] }[];
  /** How the run went on the wire (reporters/traffic.ts). */
  traffic: TrafficFact[];
  /** How the run reached the target: TLS, proxy, headers, notes (reporters/connection.ts). */
  connection: ConnectionLine[];
  verdicts: readonly string[];
  sections: { section: string; name: string; counts: Record<string, number> }[];
  rulings: Record<string, { title: string; body: string }>;
  requirements: HtmlRequirement[];
  harnessErrors: string[];
}

function cut(text: string, max: number): string {
  return text.length > max
    ? `${text.slice(0, max)}\n… [${text.length - max} more characters in report.json]`
    : text;
}

function show(value: unknown, max: number): string {
  if (value === undefined) return 'undefined';
  return cut(
    typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value, null, 2) ?? String(value)),
    max,
  );
}

function headerLines(headers: Record<string, string | string[]> | undefined): string[] {
  return Object.entries(headers ?? {}).flatMap(([k, v]) =>
    (Array.isArray(v) ? v : [v]).map((x) => `${k}: ${x}`),
  );
}

export function exchangeView(ex: Exchange, max: number): HtmlExchange {
  const req = requestOf(ex);
  const request = [`${req.method} ${req.url}`, ...headerLines(req.headers), '', req.body ?? ''].join('\n');
  const res = ex.response;
  const response = res
    ? [`HTTP ${res.status}`, ...headerLines(res.headers), '', res.body ?? ''].join('\n')
    : ex.error
      ? `no response: ${ex.error.kind}: ${ex.error.message}`
      : 'no response recorded';
  const view: HtmlExchange = {
    id: ex.id,
    kind: ex.kind,
    request: cut(request, max),
    response: cut(ex.kind === 'stream' && ex.transcript ? `${response}${ex.transcript.raw}` : response, max),
    startedAt: ex.timings.startedAt,
    totalMs: Math.round(ex.timings.totalMs),
  };
  if (res) view.status = res.status;
  if (ex.error) view.error = `${ex.error.kind}: ${ex.error.message}`;
  return view;
}

function omittedNote(o: NonNullable<CheckResult['evidenceOmitted']>): string {
  const counts = [
    `${o.exchanges} exchange(s)`,
    `${o.streams} stream(s)`,
    `${o.deliveries} webhook delivery(ies)`,
  ];
  return `wire evidence not kept (--evidence ${o.evidence}): ${counts.join(', ')}`;
}

function checkView(c: CheckResult): HtmlCheck {
  const caps: Caps = c.status === 'pass' ? CAPS.passed : CAPS.decided;
  const failed = c.assertions.filter((a) => !a.pass).slice(0, 20);
  const view: HtmlCheck = {
    title: c.title,
    status: c.status,
    message: c.message,
    failedAssertions: failed.map((a) => ({
      label: a.label,
      expected: show(a.expected, 2_000),
      actual: show(a.actual, 2_000),
    })),
    assertions: c.assertions.length + (c.evidenceOmitted?.assertions ?? 0),
    notes: c.notes.slice(0, 50).map((n) => cut(n, 2_000)),
    durationMs: Math.round(c.durationMs),
    reproduce: c.reproduce.command,
    exchanges: c.evidence.exchanges.slice(0, caps.exchanges).map((ex) => exchangeView(ex, caps.bodyChars)),
    omittedExchanges: Math.max(0, c.evidence.exchanges.length - caps.exchanges),
    streams: c.evidence.streams.slice(0, caps.exchanges).map((s) => streamTimeline(s, caps.points)),
    webhooks: webhookTimelines(c.evidence.deliveries.slice(0, caps.deliveries), c.evidence.exchanges),
  };
  if (c.status === 'fail' && ('expected' in c || 'actual' in c)) {
    view.expected = show(c.expected, 4_000);
    view.actual = show(c.actual, 4_000);
  }
  if (c.reproduce.curl !== undefined) view.curl = cut(c.reproduce.curl, caps.bodyChars);
  if (c.file !== undefined) view.file = c.file;
  if (c.evidenceOmitted !== undefined) view.evidenceNote = omittedNote(c.evidenceOmitted);
  return view;
}

function baselineMark(r: RequirementResult, result: RunResult): HtmlRequirement['baseline'] {
  const b = result.baseline;
  if (b === undefined) return undefined;
  if (b.stillFailing.includes(r.id)) return 'expected';
  if (b.nowPassing.includes(r.id)) return 'now-passing';
  if (b.newFailures.some((f) => f.id === r.id)) return 'new';
  return undefined;
}

function requirementView(r: RequirementResult, result: RunResult): HtmlRequirement {
  const view: HtmlRequirement = {
    id: r.id,
    anchor: anchorOf(r.id),
    section: r.section,
    level: r.level,
    verdict: r.verdict,
    behaviour: r.behaviour,
    rulings: [...r.rulings],
    checks: r.checks.map(checkView),
  };
  if (r.message !== undefined) view.message = r.message;
  const mark = baselineMark(r, result);
  if (mark !== undefined) view.baseline = mark;
  if (hasRequirement(r.id)) view.spec = specExcerpt(getRequirement(r.id));
  return view;
}

function metaOf(result: RunResult): Record<string, string> {
  const o = result.options;
  return {
    tool: toolLabel(result.tool),
    target:
      roleTarget(result) ??
      `${result.target.baseUrl} agent ${result.target.agentId}${result.target.bundled ? ' (bundled reference server)' : ''}`,
    reachability: result.reachability.message,
    started: result.startedAt,
    duration: `${(result.durationMs / 1000).toFixed(1)} s`,
    options: `--level ${o.level}${o.only.length > 0 ? ` --only ${o.only.join(',')}` : ''} --seed ${o.seed} --runs ${o.runs}${o.evidence === undefined ? '' : ` --evidence ${o.evidence}`}`,
    exit: `${result.exitCode}: ${result.exitReason}`,
  };
}

function dialectView(result: RunResult): Pick<HtmlData, 'dialect'> {
  const d = dialectOf(result);
  if (d === undefined) return {};
  return { dialect: { headline: dialectHeadline(d), count: dialectCount(d), evidence: d.evidence } };
}

export function htmlData(result: RunResult): HtmlData {
  const all = loadClarifications();
  const cited = new Set(result.requirements.flatMap((r) => r.rulings));
  const rulings = Object.fromEntries(
    [...cited].flatMap((id) => {
      const r = all.get(id);
      return r === undefined ? [] : [[id, { title: r.title, body: r.body }]];
    }),
  );
  return {
    title: `A2A conformance: ${roleTarget(result) ?? `${result.target.agentId} at ${result.target.baseUrl}`}`,
    meta: metaOf(result),
    compliance: complianceOf(result),
    ...dialectView(result),
    rootCauses: rootCausesOf(result).map((c) => ({
      headline: causeHeadline(c),
      ...(c.example === undefined ? {} : { example: c.example }),
      requirements: c.requirements.map((r) => r.id),
    })),
    traffic: trafficFacts(result),
    connection: connectionLines(result),
    verdicts: VERDICTS,
    sections: groupBySection(result.requirements).map((g) => ({
      section: g.section,
      name: g.name,
      counts: g.counts,
    })),
    rulings,
    requirements: result.requirements.map((r) => requirementView(r, result)),
    harnessErrors: result.harnessErrors.map(
      (e) => `${e.file === undefined ? '' : `${e.file}: `}${e.message}`,
    ),
  };
}
