// Reading a run's findings for root-cause analysis: which requirements are findings, which checks
// decided them, what their failed assertions say, and what their recorded exchanges answered
// (JSON-RPC errors, results, SSE event results), secrets already redacted.
import { requestOf, type Exchange } from '../../core/evidence.ts';
import { isObject } from '../../schemas/json.ts';
import type { CheckResult, RequirementResult, Verdict } from '../../core/types.ts';

/** Verdicts a root cause can explain: a MUST failure, a SHOULD warning, a harness error. */
export const FINDING_VERDICTS: readonly Verdict[] = ['fail', 'warn', 'error'];

export function isFinding(r: Pick<RequirementResult, 'verdict'>): boolean {
  return FINDING_VERDICTS.includes(r.verdict);
}

/** The checks that decided a finding: its failed checks, or its errored ones for an error. */
export function decidingChecks(r: RequirementResult): CheckResult[] {
  return r.checks.filter((c) => c.status === (r.verdict === 'error' ? 'error' : 'fail'));
}

export interface RpcError {
  code: number;
  message: string;
}

export function rpcErrorOf(ex: Exchange): RpcError | undefined {
  const json = ex.response?.json;
  if (!isObject(json) || !isObject(json.error) || typeof json.error.code !== 'number') return undefined;
  const message = typeof json.error.message === 'string' ? json.error.message : '';
  return { code: json.error.code, message };
}

export function methodOf(ex: Exchange): string | undefined {
  const json = requestOf(ex).json;
  return isObject(json) && typeof json.method === 'string' ? json.method : undefined;
}

export function paramsOf(ex: Exchange): Record<string, unknown> {
  const json = requestOf(ex).json;
  return isObject(json) && isObject(json.params) ? json.params : {};
}

/** Every `result` object the exchange carried: the response's, and each SSE event's. */
export function resultsOf(ex: Exchange): Record<string, unknown>[] {
  const results: Record<string, unknown>[] = [];
  const json = ex.response?.json;
  if (isObject(json) && isObject(json.result)) results.push(json.result);
  for (const event of ex.transcript?.events ?? []) {
    if (isObject(event.json) && isObject(event.json.result)) results.push(event.json.result);
  }
  return results;
}

/**
 * What a check's failure says, as one lower-case text: its message, expected and actual, and the
 * label, expected and actual of each failed assertion. Rules match words in it when the evidence has no exchange.
 */
export function failureText(check: CheckResult): string {
  const failed = check.assertions.filter((a) => !a.pass);
  const parts = [
    check.message,
    `${JSON.stringify(check.expected) ?? ''} ${JSON.stringify(check.actual) ?? ''}`,
    ...failed.map((a) => `${a.label} ${JSON.stringify(a.expected) ?? ''} ${JSON.stringify(a.actual) ?? ''}`),
  ];
  return parts.join('\n').toLowerCase();
}

/** Error codes a check expects (JSON-RPC codes named in its assertions), so they are never a cause. */
export function expectedCodes(check: CheckResult): Set<number> {
  const codes = new Set<number>();
  const scan = (v: unknown): void => {
    for (const m of (JSON.stringify(v) ?? '').matchAll(/-32\d{3}\b/g)) codes.add(Number(m[0]));
  };
  scan(check.expected);
  for (const a of check.assertions) scan(a.expected);
  return codes;
}

/** HTTP statuses a check expects (3-digit numbers of its assertions' expected values). */
export function expectedStatuses(check: CheckResult): Set<number> {
  const statuses = new Set<number>();
  for (const a of [{ expected: check.expected }, ...check.assertions]) {
    for (const m of (JSON.stringify(a.expected) ?? '').matchAll(/\b[1-5]\d\d\b/g)) statuses.add(Number(m[0]));
  }
  return statuses;
}

/** `POST /api/v1/a2a/a` for a request with no JSON-RPC method; `(no request)` when none was recorded. */
function requestLine(ex: Exchange): string {
  const req = requestOf(ex);
  if (req.url === '') return req.method;
  let path = String(req.url);
  try {
    path = new URL(path, 'http://x').pathname;
  } catch {
    // A URL the record holds as text only: shown as it is.
  }
  return `${req.method} ${path}`;
}

/** The first characters of an answer's body, or what stands for it (a record may lack the text). */
function bodyStart(body: unknown): string {
  if (typeof body !== 'string') return '(no body)';
  return body === '' ? '(empty body)' : body.slice(0, 120);
}

/**
 * `tasks/get {"taskId":"t-1"} -> HTTP 200 {"code":-32001,"message":"Task not found: t-1"}`, cut to one
 * line. It reads any exchange the evidence holds: one with no request, method, response or body too.
 */
export function exchangeLine(ex: Exchange, max = 240): string {
  const method = methodOf(ex) ?? requestLine(ex);
  const params = JSON.stringify(paramsOf(ex));
  const error = rpcErrorOf(ex);
  const answer =
    ex.response === undefined
      ? `no answer (${ex.error?.kind ?? 'none'})`
      : `HTTP ${ex.response.status} ${error === undefined ? bodyStart(ex.response.body) : JSON.stringify({ code: error.code, message: error.message.slice(0, 120) })}`;
  const line = `${method} ${params.length > 80 ? `${params.slice(0, 80)}…` : params} -> ${answer}`.replace(
    /\s+/g,
    ' ',
  );
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
