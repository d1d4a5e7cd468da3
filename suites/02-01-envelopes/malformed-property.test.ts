// Property checks over malformed requests (spec 2.1-2.6, 7; rulings C-02, C-03, C-11 to C-14, C-26):
// every generated request that breaks one rule gets a well-formed JSON-RPC error with the ruled
// code and id, never a success, never a hang; at SHOULD level also HTTP 200 and the exact data.field.
import fc from 'fast-check';
import { cardClaims, type TargetClient } from '../../harness/check/index.ts';
import { validate } from '../../schemas/registry.ts';
import { isObject } from '../../schemas/json.ts';
import { completeAnswer, NoAnswerError, suiteFile, verifies, type CheckContext } from '../support/index.ts';
import { acceptedMimeType, servedMethods } from '../support/card.ts';
import { sendText } from '../support/messages.ts';
import { answerOf, resultOf } from '../support/rpc.ts';
import { buildBody, type BodyContext } from './malformed-body.ts';
import { arbMalformedEnvelope, arbMalformedParams, type MalformedCase } from './malformed.ts';

suiteFile({
  cost: { requests: 2, turns: 1 },
  span: 'request-chain',
});

interface Judge {
  client: TargetClient;
  timeoutMs: number;
  body: BodyContext;
  /** Cases the target did not answer within timeoutMs: a window the harness chose, so no counterexample. */
  unanswered: string[];
  /** Cases answered and judged. */
  judged: number;
}

// How long one case waits for its answer, so a silent target does not hold the property: a case not
// answered by then is told, never a counterexample (a loaded or distant agent answers later).
const HANG_MS = 5_000;
// Cases of one property in flight at once: each is one malformed request that leaves nothing behind,
// so behind a slow link their round trips overlap (the three properties' 1,200 cases are the run's
// longest chain of requests).
const LANES = { lanes: 8 };
const STREAMING = ['message/stream', 'tasks/resubscribe'];

async function judgeFor(c: CheckContext): Promise<Judge> {
  // One finished task of the agent, so cancel/resubscribe faults are about params, not the task.
  const task = resultOf(await sendText(c, 'malformed-property seed'));
  c.require('seed task id', typeof task?.id, 'string');
  // Bodies are capped in the evidence: a counterexample's request is rebuilt from its case anyway.
  const client = c.newClient({ recordBodyChars: 2_048 });
  const body = { taskId: task!.id as string, mimeType: acceptedMimeType(c) };
  return { client, timeoutMs: Math.min(c.config.timeoutMs, HANG_MS), body, unanswered: [], judged: 0 };
}

function methodOf(k: MalformedCase): unknown {
  if (!('envelope' in k.body)) return undefined;
  const method = k.body.envelope.method;
  return method !== null && 'value' in method ? method.value : undefined;
}

function idProblem(k: MalformedCase, sent: unknown, got: unknown): string | undefined {
  const ok = k.id === 'null' ? got === null : k.id === 'echo' ? got === sent : got === null || got === sent;
  return ok ? undefined : `id ${JSON.stringify(got)} (ruled: ${k.id === 'echo' ? 'the request id' : k.id})`;
}

/** Problems of one answer; `strict` adds the SHOULD-level rules (HTTP 200, data.field, full schema). */
async function problemsOf(j: Judge, k: MalformedCase, strict: boolean): Promise<string[]> {
  const { text, id } = buildBody(k, j.body);
  const ex = await j.client.rpc('', undefined, { rawBody: text, timeoutMs: j.timeoutMs });
  if (ex.response === undefined && ex.error?.kind === 'timeout') {
    j.unanswered.push(k.fault);
    return [];
  }
  // A reset, an answer cut short, a gateway's or throttle's page: no answer to judge; the property
  // discards the case and draws another (never a counterexample).
  if (!completeAnswer(ex)) throw new NoAnswerError(ex);
  j.judged += 1;
  const res = answerOf({ ...ex, response: ex.response });
  const status = ex.response.status;
  if (res === undefined)
    return [`HTTP ${status}, body is not a JSON-RPC response: ${ex.response.body.slice(0, 120)}`];
  const problems: string[] = [];
  const schema = validate('jsonrpc-error-response', res);
  const issues = schema.valid
    ? []
    : schema.errors.filter((e) => strict || !(e.path === 'error.data.field' && e.keyword === 'required'));
  if (issues.length > 0) problems.push(`not a valid error response: ${JSON.stringify(issues.slice(0, 3))}`);
  const code = isObject(res.error) ? res.error.code : undefined;
  if (!k.codes.includes(code as number))
    problems.push(`error.code ${String(code)} (ruled: ${k.codes.join(' or ')})`);
  const idIssue = idProblem(k, id, res.id);
  if (idIssue !== undefined) problems.push(idIssue);
  if (strict) problems.push(...strictProblems(k, ex.response, res));
  return problems;
}

function strictProblems(
  k: MalformedCase,
  response: { status: number; headers: Record<string, string | string[]> },
  res: NonNullable<ReturnType<typeof answerOf>>,
): string[] {
  const out: string[] = [];
  if (response.status !== 200) out.push(`HTTP ${response.status} (C-03: 200)`);
  const type = String(response.headers['content-type'] ?? '');
  const sseAllowed = STREAMING.includes(methodOf(k) as string); // C-26: an SSE error event is accepted
  if (!/^application\/json/i.test(type) && !(sseAllowed && /^text\/event-stream/i.test(type))) {
    out.push(`Content-Type ${JSON.stringify(type)} (C-03: application/json)`);
  }
  const data = isObject(res.error) && isObject(res.error.data) ? res.error.data : undefined;
  if (k.field !== undefined && res.error?.code === -32602 && data?.field !== k.field) {
    out.push(`error.data.field ${JSON.stringify(data?.field)} (C-14: "${k.field}")`);
  }
  return out;
}

// The three properties are independent (each sends its own requests and reads only its answers), so
// they run side by side: on a remote agent their ~1,200 requests would otherwise be one long chain of
// round trips (40 ms per request: 53 s, most of the run).
// Each generated case after the first is one malformed request: no agent turn.
const concurrent = { concurrent: true, property: { requests: 1, turns: 0 } };

function tellUnanswered(c: CheckContext, j: Judge): void {
  if (j.unanswered.length === 0) return;
  if (j.judged === 0) c.notExercised(`no generated case was answered within ${j.timeoutMs} ms`);
  c.info(`cases not answered within ${j.timeoutMs} ms (not judged)`, {
    count: j.unanswered.length,
    faults: [...new Set(j.unanswered)].slice(0, 10),
  });
}

function predicate(j: Judge, strict: boolean) {
  return async (k: MalformedCase): Promise<void> => {
    const problems = await problemsOf(j, k, strict);
    if (problems.length > 0) throw new Error(`${k.fault}: ${problems.join('; ')}`);
  };
}

verifies(
  '2.2/error-on-failure',
  'any request breaking a MUST rule of 2.1-2.6 gets an error object with the ruled code and id',
  async (c) => {
    const served = servedMethods(c);
    const j = await judgeFor(c);
    const arb = fc
      .oneof(arbMalformedEnvelope(served), arbMalformedParams(served, cardClaims(c.card, 'fileUpload')))
      .filter((k) => k.level === 'MUST');
    await c.property(
      'malformed request (MUST rules) -> JSON-RPC error, ruled code and id',
      arb,
      predicate(j, false),
      LANES,
    );
    tellUnanswered(c, j);
  },
  concurrent,
);

verifies(
  '7/jsonrpc-errors-http-200',
  'any malformed envelope gets HTTP 200, application/json and a schema-valid error with the ruled code',
  async (c) => {
    const j = await judgeFor(c);
    const arb = arbMalformedEnvelope(servedMethods(c));
    await c.property(
      'malformed envelope -> HTTP 200 JSON-RPC error, ruled code and id',
      arb,
      predicate(j, true),
      LANES,
    );
    tellUnanswered(c, j);
  },
  { ...concurrent, crossSection: 'graded on the malformed-envelope property run' },
);

verifies(
  '7/invalid-params-field',
  'any malformed params (missing, wrong type, huge, deep) get -32602 naming the field, on HTTP 200',
  async (c) => {
    const served = servedMethods(c);
    const j = await judgeFor(c);
    const arb = arbMalformedParams(served, cardClaims(c.card, 'fileUpload'));
    await c.property(
      'malformed params -> HTTP 200, -32602 with data.details and data.field',
      arb,
      predicate(j, true),
      LANES,
    );
    tellUnanswered(c, j);
  },
  { ...concurrent, crossSection: 'graded on the malformed-envelope property run' },
);
