// A catalogue of requests that each provoke one error (spec 7, C-02, C-03, C-11..C-13, C-23, C-28,
// C-32, C-33), shared by the checks of the error object and of the HTTP status of errors. JSON-RPC-level
// errors come with HTTP 200; transport-level conditions with their own status and still a JSON-RPC body.
import { randomUUID } from 'node:crypto';
import type { Exchange } from '../../harness/check/index.ts';
import { ERROR_CODES, requireAnswer, SIDE_BY_SIDE, type CheckContext } from '../support/index.ts';
import { NO_CREDENTIAL } from '../support/credentials.ts';
import { CARD } from '../support/rpc.ts';
import { keptUnlessFault } from '../support/made-once.ts';
import { sampleTaskId } from '../support/samples.ts';

export interface ErrorCase {
  name: string;
  /** C-03: 200 for JSON-RPC-level errors; the transport status otherwise. */
  status: number;
  transport: boolean;
  /** Codes the rulings allow (C-06 lets a completed-task cancel answer -32000). */
  codes: readonly number[];
  /** A JSON-RPC 2.0 server may answer differently (drop a notification, serve a batch): graded elsewhere. */
  optional?: boolean;
  send(c: CheckContext): Promise<Exchange>;
}

const C = ERROR_CODES;
const UNKNOWN_METHOD = 'tasks/conformanceNoSuchMethod';

function rpc(method: string, params?: unknown, opts: Parameters<CheckContext['client']['rpc']>[2] = {}) {
  return (c: CheckContext) => c.client.rpc(method, params, opts);
}

function raw(body: string, headers: Record<string, string> = {}) {
  return (c: CheckContext) =>
    c.client.raw({
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', ...headers },
      auth: true,
    });
}

const jsonRpcLevel = (
  name: string,
  codes: number[],
  send: ErrorCase['send'],
  optional = false,
): ErrorCase => ({
  name,
  status: 200,
  transport: false,
  codes,
  send,
  ...(optional ? { optional } : {}),
});

export const ERROR_CASES: readonly ErrorCase[] = [
  jsonRpcLevel('a body that is not JSON (-32700)', [C.PARSE_ERROR], raw('this is not json')),
  jsonRpcLevel(
    'jsonrpc "1.0" (-32600)',
    [C.INVALID_REQUEST],
    rpc(CARD, {}, { envelope: { jsonrpc: '1.0' } }),
  ),
  jsonRpcLevel('an object id (-32600)', [C.INVALID_REQUEST], rpc(CARD, {}, { id: { n: 1 } })),
  jsonRpcLevel('a request without id (C-11)', [C.INVALID_REQUEST], rpc(CARD, {}, { omitId: true }), true),
  jsonRpcLevel(
    'a batch array (C-12)',
    [C.INVALID_REQUEST],
    raw(`[{"jsonrpc":"2.0","id":"b1","method":"${CARD}"}]`),
    true,
  ),
  jsonRpcLevel('an unknown method (-32601)', [C.METHOD_NOT_FOUND], rpc(UNKNOWN_METHOD, {})),
  jsonRpcLevel(
    'an unknown method with an integer id (C-13)',
    [C.METHOD_NOT_FOUND, C.INVALID_REQUEST],
    rpc(UNKNOWN_METHOD, {}, { id: 7 }),
  ),
  jsonRpcLevel('tasks/get without taskId (-32602)', [C.INVALID_PARAMS], rpc('tasks/get', {})),
  jsonRpcLevel(
    'message/send without messageId (-32602)',
    [C.INVALID_PARAMS],
    rpc('message/send', { message: { role: 'user', parts: [{ type: 'text', text: 'x' }] } }),
  ),
  jsonRpcLevel('tasks/get of an unknown task (-32000)', [C.TASK_NOT_FOUND], (c) =>
    c.client.rpc('tasks/get', { taskId: randomUUID() }),
  ),
  jsonRpcLevel(
    'tasks/cancel of a completed task (-32001, C-06)',
    [C.TASK_ALREADY_COMPLETED, C.TASK_NOT_FOUND],
    async (c) => c.client.rpc('tasks/cancel', { taskId: await sampleTaskId(c) }),
  ),
  {
    name: 'no credential (401, -32010)',
    status: 401,
    transport: true,
    codes: [C.UNAUTHORIZED],
    send: rpc(CARD, {}, { headers: NO_CREDENTIAL }),
  },
  {
    name: 'an unknown agent_id (404, -32011)',
    status: 404,
    transport: true,
    codes: [C.AGENT_NOT_FOUND],
    send: rpc(CARD, {}, { agentId: `a2a-conformance-no-such-agent-${randomUUID().slice(0, 8)}` }),
  },
  {
    name: 'an unknown route (404, -32600, C-32)',
    status: 404,
    transport: true,
    codes: [C.INVALID_REQUEST],
    send: rpc(CARD, {}, { path: '/api/v1/a2a-conformance-unknown-route' }),
  },
  {
    name: 'another API version /api/v2/ (404, -32600, C-33)',
    status: 404,
    transport: true,
    codes: [C.INVALID_REQUEST],
    send: (c) => c.client.rpc(CARD, {}, { path: `/api/v2/a2a/${encodeURIComponent(c.target.agentId)}` }),
  },
  {
    name: 'GET on the agent path (405, -32600, C-32)',
    status: 405,
    transport: true,
    codes: [C.INVALID_REQUEST],
    send: (c) => c.client.raw({ method: 'GET', auth: true }),
  },
  {
    name: 'PUT on the agent path (405, -32600, C-32)',
    status: 405,
    transport: true,
    codes: [C.INVALID_REQUEST],
    send: rpc(CARD, {}, { httpMethod: 'PUT' }),
  },
  {
    name: 'Content-Type text/plain (415, -32600, C-28)',
    status: 415,
    transport: true,
    codes: [C.INVALID_REQUEST],
    send: rpc(CARD, {}, { headers: { 'content-type': 'text/plain' } }),
  },
];

export interface ErrorAnswer {
  errorCase: ErrorCase;
  ex: Exchange;
  status: number | undefined;
  json: unknown;
}

const provoked = new Map<string, Promise<ErrorAnswer>>();

/**
 * One case's answer, sent once per suite file: the checks only read the answers, so an exchange is
 * the evidence of the first check that asked for it (`shared`: another check did). No HTTP answer to
 * a case is a harness error.
 */
export async function provoke(
  c: CheckContext,
  errorCase: ErrorCase,
): Promise<{ answer: ErrorAnswer; shared: boolean }> {
  const key = `${c.target.baseUrl} ${c.target.agentId} ${errorCase.name}`;
  const { answer, shared } = keptUnlessFault(provoked, key, async () => {
    const ex = requireAnswer(await errorCase.send(c));
    return { errorCase, ex, status: ex.response.status, json: ex.response.json };
  });
  return { answer: await answer, shared };
}

/**
 * `run` on the answer of each case `filter` keeps, in catalogue order: an enumerated property (c.each),
 * so a paced run's first pass reads the first case only, the one every check of the file reads first,
 * and one request serves them all. Optional cases that came back without an error are left out
 * (gradable) unless `optional` is 'keep'.
 */
export async function eachError(
  c: CheckContext,
  filter: (e: ErrorCase) => boolean,
  run: (a: ErrorAnswer) => void,
  optional: 'keep' | 'gradable' = 'gradable',
): Promise<void> {
  const shared: string[] = [];
  await c.each(
    'each provoked error',
    ERROR_CASES.filter(filter),
    async (errorCase) => {
      const { answer, shared: reused } = await provoke(c, errorCase);
      if (reused) shared.push(errorCase.name);
      if (optional === 'keep' || gradable([answer], c).length > 0) run(answer);
    },
    SIDE_BY_SIDE,
  );
  // Sorted: cases side by side note their reuse in the order their answers came.
  if (shared.length > 0)
    c.info('answers provoked by another check of this file (the exchanges are its evidence)', shared.sort());
}

/** The error member of an answer, or undefined (no JSON object, or no error member). */
export function errorMember(a: ErrorAnswer): Record<string, unknown> | undefined {
  const body = a.json;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const error = (body as Record<string, unknown>).error;
  return typeof error === 'object' && error !== null && !Array.isArray(error)
    ? (error as Record<string, unknown>)
    : undefined;
}

/**
 * Optional cases (a dropped notification, a served batch) are left out unless they came back as an
 * error: they are graded by 2.1/id-required and 2.1/batch-not-supported.
 */
export function gradable(answers: readonly ErrorAnswer[], c: CheckContext): ErrorAnswer[] {
  return answers.filter((a) => {
    if (a.errorCase.optional !== true || errorMember(a) !== undefined) return true;
    c.info(`${a.errorCase.name}: no JSON-RPC error came back; graded by the 2.1 checks`, {
      status: a.status,
    });
    return false;
  });
}
