// report.har: every exchange with the target that the run's report kept (as --evidence kept it), as
// one HTTP Archive 1.2 file for a browser's network panel or an HTTP debugging tool. Requests and
// responses are the recorded ones (redacted like every report, bodies cut at the same cap); an SSE
// stream's response body is the stream's text as received. Built from the run result alone.
import { STATUS_CODES } from 'node:http';
import type { Entry, Har, Header, Request, Response } from 'har-format';
import { requestOf } from '../core/evidence.ts';
import type { RunResult } from '../core/types.ts';
import type { ReportExchange } from '../schemas/generated/types.ts';
import { complianceOf, verdictLine } from './score.ts';

type HeaderValues = Record<string, string | string[]>;

function headerList(headers: HeaderValues | undefined): Header[] {
  const out: Header[] = [];
  for (const [name, value] of Object.entries(headers ?? {}))
    for (const v of Array.isArray(value) ? value : [value]) out.push({ name, value: v });
  return out;
}

function first(headers: HeaderValues | undefined, name: string): string | undefined {
  const v = headers?.[name];
  return Array.isArray(v) ? v[0] : v;
}

function harRequest(ex: ReportExchange): Request {
  const r = requestOf(ex);
  let query: Request['queryString'] = [];
  try {
    query = [...new URL(r.url).searchParams].map(([name, value]) => ({ name, value }));
  } catch {
    // A URL the harness sent on purpose malformed keeps no query list.
  }
  const request: Request = {
    method: r.method,
    url: r.url,
    httpVersion: 'HTTP/1.1',
    cookies: [],
    headers: headerList(r.headers),
    queryString: query,
    headersSize: -1,
    bodySize: r.body === undefined ? 0 : Buffer.byteLength(r.body),
  };
  if (r.body !== undefined)
    request.postData = { mimeType: first(r.headers, 'content-type') ?? '', text: r.body };
  return request;
}

/** A response, and the failure that cut it short (a custom field: HAR names them with a leading _). */
type HarResponse = Response & { _error?: string };

function harResponse(ex: ReportExchange): HarResponse {
  const t = ex.transcript;
  const res = ex.response;
  const status = res?.status ?? t?.status ?? 0;
  const headers = (res?.headers ?? t?.headers) as HeaderValues | undefined;
  // A stream's body is its text as received; an answer that was no stream keeps its body.
  const text = t !== undefined && res === undefined ? t.raw : (res?.body ?? '');
  const size = t !== undefined && res === undefined ? t.bytes : (res?.bodyBytes ?? 0);
  const response: HarResponse = {
    status,
    statusText: status === 0 ? '' : (STATUS_CODES[status] ?? ''),
    httpVersion: 'HTTP/1.1',
    cookies: [],
    headers: headerList(headers),
    content: { size, mimeType: first(headers, 'content-type') ?? 'x-unknown', text },
    redirectURL: first(headers, 'location') ?? '',
    headersSize: -1,
    bodySize: status === 0 ? -1 : size,
  };
  const error = ex.error ?? t?.error;
  if (error !== undefined) response._error = `${error.kind}: ${error.message}`;
  return response;
}

function harEntry(ex: ReportExchange, check: { requirement: string; check: string }): Entry {
  const total = Math.max(0, ex.timings.totalMs);
  const wait = Math.min(total, Math.max(0, ex.timings.headersMs ?? ex.transcript?.headersMs ?? total));
  const round = (n: number): number => Math.round(n * 1000) / 1000;
  return {
    startedDateTime: ex.timings.startedAt,
    time: round(total),
    request: harRequest(ex),
    response: harResponse(ex),
    cache: {},
    timings: {
      blocked: -1,
      dns: -1,
      connect: -1,
      ssl: -1,
      send: 0,
      wait: round(wait),
      receive: round(total - wait),
    },
    _requirement: check.requirement,
    _check: check.check,
    _exchange: ex.id,
  };
}

/** The run's exchanges with the target as an HTTP Archive 1.2 document, oldest first. */
function harDocument(result: RunResult): Har {
  const entries: Entry[] = [];
  for (const r of result.requirements)
    for (const c of r.checks)
      for (const ex of c.evidence.exchanges)
        entries.push(harEntry(ex, { requirement: r.id, check: c.title }));
  entries.sort((a, b) => Date.parse(a.startedDateTime) - Date.parse(b.startedDateTime));
  const omitted = result.requirements.reduce(
    (n, r) => n + r.checks.reduce((m, c) => m + (c.evidenceOmitted?.exchanges ?? 0), 0),
    0,
  );
  const evidence = result.options.evidence ?? 'all';
  const notes = [
    `${result.target.baseUrl} agent ${result.target.agentId}: ${verdictLine(complianceOf(result))}`,
    `--evidence ${evidence}${omitted > 0 ? `: ${omitted} exchange(s) of passing checks left out` : ''}`,
    ...(result.connection?.notes ?? []),
  ];
  return {
    log: {
      version: '1.2',
      creator: { name: result.tool.name, version: result.tool.version },
      pages: [],
      entries,
      comment: notes.join('\n'),
    },
  };
}

export function renderHar(result: RunResult): string {
  return `${JSON.stringify(harDocument(result), null, 2)}\n`;
}
