// Judges one HTTP answer of the server under test with the project's JSON Schemas (schemas/, Ajv
// 2020-12): a well-formed JSON-RPC response (spec 2.2, 7; C-02, C-40) on a status the rulings allow
// for its error code (C-03, C-32, C-42, C-47), whose result, when the method is known, matches that
// method's result schema; or a well-formed SSE stream (spec 4.2; C-26, C-31). Anything else is a
// violation, named so it can be fixed.
import { ERROR_CODES } from '../schemas/error-codes.ts';
import { validate, type SchemaName } from '../schemas/registry.ts';

export type Verdict = { ok: true; outcome: string } | { ok: false; outcome: 'violation'; reason: string };

const CODES = new Set<number>(Object.values(ERROR_CODES));
const { INVALID_REQUEST, INTERNAL_ERROR, UNAUTHORIZED, AGENT_NOT_FOUND, RATE_LIMITED } = ERROR_CODES;

/** The error codes each transport status may carry (C-03 table, C-32, C-42, C-47); 200 is apart. */
const CODES_BY_STATUS: Readonly<Record<number, readonly number[]>> = Object.freeze({
  400: [INVALID_REQUEST],
  401: [UNAUTHORIZED],
  404: [AGENT_NOT_FOUND, INVALID_REQUEST],
  405: [INVALID_REQUEST],
  408: [INVALID_REQUEST],
  413: [INVALID_REQUEST],
  414: [INVALID_REQUEST],
  415: [INVALID_REQUEST],
  429: [RATE_LIMITED],
  431: [INVALID_REQUEST],
  503: [INTERNAL_ERROR],
});
/** Codes that only ever travel with their own HTTP status, never on a 200 (C-01, C-04, C-23). */
const TRANSPORT_ONLY = new Set<number>([UNAUTHORIZED, AGENT_NOT_FOUND, RATE_LIMITED]);

/** The result schema of each method answered with a plain JSON body. */
const RESULT_SCHEMAS: Readonly<Record<string, SchemaName>> = Object.freeze({
  'message/send': 'send-result',
  'tasks/get': 'tasks-get-result',
  'tasks/cancel': 'cancel-result',
  'tasks/resubscribe': 'resubscribe-result',
  'tasks/pushNotificationConfig/set': 'push-config-set-result',
  'tasks/pushNotificationConfig/get': 'push-config-get-result',
  'agent/authenticatedExtendedCard': 'agent-extended-card',
});

const violation = (reason: string): Verdict => ({ ok: false, outcome: 'violation', reason });

function schemaProblem(name: SchemaName, value: unknown): string | undefined {
  const result = validate(name, value);
  if (result.valid) return undefined;
  const first = result.errors[0];
  return `not a valid ${name} (${first?.path || '<root>'}: ${first?.message ?? '?'})`;
}

/** The shape of a JSON-RPC response object: its error code or 'result', or what is wrong with it. */
export function responseShape(value: unknown): { code: number | 'result' } | { problem: string } {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { problem: 'not a JSON object' };
  const problem = schemaProblem('jsonrpc-response', value);
  if (problem !== undefined) return { problem };
  const error = (value as { error?: { code: number } }).error;
  if (error === undefined) return { code: 'result' };
  if (!CODES.has(error.code)) return { problem: `error code ${error.code} is not in the frozen table` };
  return { code: error.code };
}

function checkSse(body: string): Verdict {
  const frames = body.split('\n\n').filter((frame) => frame !== '');
  let finals = 0;
  let last = '';
  for (const frame of frames) {
    if (frame === ': ping') continue;
    if (!frame.startsWith('data: ') || frame.includes('\n'))
      return violation(`bad SSE frame ${frame.slice(0, 80)}`);
    let parsed: unknown;
    try {
      parsed = JSON.parse(frame.slice(6));
    } catch {
      return violation('SSE data is not JSON');
    }
    if (finals > 0) return violation('SSE event after the final or error event');
    const isError = typeof parsed === 'object' && parsed !== null && 'error' in parsed;
    const problem = schemaProblem(isError ? 'jsonrpc-error-response' : 'stream-event', parsed);
    if (problem !== undefined) return violation(`SSE event: ${problem}`);
    const result = (parsed as { result?: { final?: unknown; status?: { state?: string } } }).result;
    if (isError || result?.final === true) finals += 1;
    last = isError ? 'error' : (result?.status?.state ?? '?');
  }
  // C-31: exactly one final event (or one error event, C-26), and it ends the stream.
  if (finals !== 1) return violation(`SSE stream with ${finals} final or error events`);
  return { ok: true, outcome: `200 sse ${last}` };
}

/**
 * Judges an answer. `requestMethod` is the HTTP method (a HEAD answer has no body); `rpcMethod`,
 * when the request named a method the server knows, selects the result schema of a success.
 */
export function checkResponse(
  status: number,
  contentType: string | undefined,
  body: string,
  requestMethod: string,
  rpcMethod?: string,
): Verdict {
  if (status === 204) {
    return requestMethod === 'OPTIONS' && body === ''
      ? { ok: true, outcome: '204 preflight' }
      : violation('204 not for a preflight');
  }
  if (status === 200 && contentType === 'text/event-stream') return checkSse(body);
  if (status !== 200 && CODES_BY_STATUS[status] === undefined) {
    return violation(`HTTP ${status} is not a ruled status: ${body.slice(0, 200)}`);
  }
  if (contentType !== 'application/json') return violation(`HTTP ${status} with Content-Type ${contentType}`);
  if (requestMethod === 'HEAD') return { ok: true, outcome: `${status} head` };
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return violation(`HTTP ${status} body is not JSON: ${body.slice(0, 80)}`);
  }
  const shape = responseShape(parsed);
  if ('problem' in shape) return violation(`HTTP ${status}: ${shape.problem}`);
  const { code } = shape;
  if (status === 200) {
    if (code !== 'result' && TRANSPORT_ONLY.has(code)) return violation(`error ${code} on HTTP 200`);
    const schema = code === 'result' && rpcMethod !== undefined ? RESULT_SCHEMAS[rpcMethod] : undefined;
    if (schema !== undefined) {
      const problem = schemaProblem(schema, (parsed as { result: unknown }).result);
      if (problem !== undefined) return violation(`${rpcMethod} result ${problem}`);
    }
  } else if (code === 'result' || !CODES_BY_STATUS[status]?.includes(code)) {
    return violation(`HTTP ${status} carries ${code}`);
  }
  return { ok: true, outcome: `${status} ${code}` };
}
