// RunResult fixtures for the reporter tests: one requirement per verdict over real ledger ids, with
// HTTP, SSE and webhook evidence, built with the harness's own verdict folding and summary.
import type { Exchange, StreamTranscript } from '../../core/evidence.ts';
import type { ProgressEvent } from '../../core/progress.ts';
import type { CheckResult, CheckStatus, RequirementResult, RunResult, Verdict } from '../../core/types.ts';
import { decideExit, summarize } from '../../core/verdict.ts';
import { getRequirement } from '../../requirements/index.ts';
import type { Level } from '../../requirements/types.ts';

export const TARGET = 'http://127.0.0.1:8080';
const AGENT_PATH = `${TARGET}/api/v1/a2a/agent-1`;

export function exchange(id: string, body: unknown, response: unknown, status = 200): Exchange {
  const text = JSON.stringify(response);
  return {
    id,
    kind: 'http',
    request: {
      method: 'POST',
      url: AGENT_PATH,
      headers: { 'content-type': 'application/json', 'x-api-key': '[redacted]' },
      body: JSON.stringify(body),
      json: body,
    },
    response: {
      status,
      headers: { 'content-type': 'application/json' },
      body: text,
      bodyBytes: text.length,
      truncated: false,
      invalidUtf8: false,
      json: response,
      redactions: 0,
    },
    timings: { startedAt: '2026-01-01T00:00:00.000Z', headersMs: 3, totalMs: 4 },
  };
}

function sseEvent(index: number, atMs: number, state: string, final: boolean) {
  const json = { jsonrpc: '2.0', id: 's1', result: { id: 't1', status: { state }, final } };
  return {
    index,
    atMs,
    data: JSON.stringify(json),
    hasEventField: false,
    hasIdField: false,
    dataLines: 1,
    multiLineData: false,
    otherFields: [],
    json,
    isFinal: final,
    isError: false,
  };
}

export function transcript(exchangeId: string): StreamTranscript {
  const events = [sseEvent(0, 10, 'submitted', false), sseEvent(1, 12, 'working', false)];
  events.push(sseEvent(2, 250, 'completed', true));
  return {
    exchangeId,
    status: 200,
    headers: { 'content-type': 'text/event-stream' },
    contentType: 'text/event-stream',
    isEventStream: true,
    headersMs: 8,
    events,
    comments: [{ atMs: 200, text: ' ping' }],
    finalIndex: 2,
    afterFinal: [],
    afterFinalBytes: 0,
    afterFinalText: '',
    closedByServer: true,
    closedBy: 'server',
    closedAtMs: 260,
    raw: events.map((e) => `data: ${e.data}\n\n`).join(''),
    rawTruncated: false,
    redactions: 0,
    bytes: 400,
    invalidUtf8: false,
    lineEndings: ['lf'],
    parserErrors: [],
    incompleteTail: '',
  };
}

/** Three attempts of one event answered 500, 1 s and 2 s apart as the default policy asks. */
export function deliveries(path = '/hooks/retry-1'): CheckResult['evidence']['deliveries'] {
  return [0, 1, 2].map((i) => {
    const receivedAtMs = 1000 + [0, 1005, 3010][i]!;
    const json = { event: 'task.completed', taskId: 't1', delivery: { attempt: i + 1, maxAttempts: 4 } };
    return {
      seq: i + 1,
      token: 'retry-1',
      receivedAtMs,
      bodyCompleteAtMs: receivedAtMs + 1,
      timestamp: '2026-01-01T00:00:01.000Z',
      method: 'POST',
      path,
      headers: { 'x-webhook-delivery': 'd-1', 'x-webhook-event': 'task.completed' },
      text: JSON.stringify(json),
      bodyBytes: 80,
      bodyTruncated: false,
      json,
      response: { status: 500, atMs: receivedAtMs + 2 },
    };
  });
}

export function check(id: string, status: CheckStatus, extra: Partial<CheckResult> = {}): CheckResult {
  return {
    requirementId: id,
    title: `${id.split('/')[1]} check`,
    status,
    message: status === 'pass' ? '1 assertion(s) held' : `${status} message`,
    assertions: [{ label: 'value', expected: 1, actual: status === 'pass' ? 1 : 2, pass: status === 'pass' }],
    notes: [],
    evidence: { exchanges: [], streams: [], deliveries: [] },
    durationMs: 12,
    reproduce: { command: `npx a2a-conformance run --only ${id} --seed 1 --runs 5` },
    ...extra,
  };
}

export function requirement(
  id: string,
  verdict: Verdict,
  checks: CheckResult[],
  message?: string,
): RequirementResult {
  const r = getRequirement(id);
  const out: RequirementResult = {
    id,
    section: r.section,
    level: r.level,
    behaviour: r.behaviour,
    rulings: [...(r.rulings ?? [])],
    verdict,
    checks,
  };
  if (message !== undefined) out.message = message;
  return out;
}

/** One requirement per verdict; ids are real so spec text and rulings resolve. */
export function fixtureRequirements(): RequirementResult[] {
  const idEx = exchange(
    'ex-1',
    { jsonrpc: '2.0', id: 'r1', method: 'tasks/get' },
    { jsonrpc: '2.0', id: 'not-your-id' },
  );
  const streamEx: Exchange = {
    ...exchange('ex-2', { method: 'message/stream' }, {}),
    kind: 'stream',
    transcript: transcript('ex-2'),
  };
  const config = { url: 'http://127.0.0.1:9/hooks/retry-1', secret: '[redacted]' };
  const configEx = exchange(
    'ex-3',
    { method: 'tasks/pushNotificationConfig/set', params: { config } },
    { result: {} },
  );
  return [
    requirement('2.1/jsonrpc-required', 'pass', [
      check('2.1/jsonrpc-required', 'pass', { evidence: { exchanges: [idEx], streams: [], deliveries: [] } }),
    ]),
    requirement('2.2/response-id-equals-request-id', 'fail', [
      check('2.2/response-id-equals-request-id', 'fail', {
        field: 'id',
        expected: 'r1',
        actual: 'not-your-id',
        evidence: { exchanges: [idEx], streams: [], deliveries: [] },
        reproduce: {
          command: 'npx a2a-conformance run --only 2.2/response-id-equals-request-id --seed 1 --runs 5',
          curl: "curl -sS -X POST 'http://127.0.0.1:8080/api/v1/a2a/agent-1'",
        },
      }),
      check('2.2/response-id-equals-request-id', 'pass'),
    ]),
    requirement('4.2/stream-single-final-event', 'pass', [
      check('4.2/stream-single-final-event', 'pass', {
        evidence: { exchanges: [streamEx], streams: [transcript('ex-2')], deliveries: [] },
      }),
    ]),
    requirement('2.1/id-required', 'warn', [
      check('2.1/id-required', 'fail', { expected: null, actual: 'r1' }),
    ]),
    requirement('1/sync-or-streaming-calls', 'info', [
      check('1/sync-or-streaming-calls', 'fail', { expected: 'sse', actual: 'json' }),
    ]),
    requirement(
      '4.9/files-alongside-text',
      'not-applicable',
      [],
      'capability absent from the agent card: fileUpload',
    ),
    requirement('1/json-rpc-over-http', 'not-exercised', [], 'no check registered'),
    requirement('7/method-not-found-code', 'error', [
      check('7/method-not-found-code', 'error', {
        message: 'harness error: no answer: timeout after 10000 ms',
      }),
    ]),
    requirement('6.5/retry-backoff', 'pass', [
      check('6.5/retry-backoff', 'pass', {
        evidence: { exchanges: [configEx], streams: [], deliveries: deliveries() },
      }),
    ]),
  ];
}

export function fixtureRun(
  requirements: RequirementResult[] = fixtureRequirements(),
  overrides: Partial<RunResult> = {},
): RunResult {
  return {
    tool: { name: 'a2a-conformance', version: '0.1.0' },
    target: { baseUrl: TARGET, agentId: 'agent-1', authKind: 'api-key', bundled: false },
    startedAt: '2026-01-01T00:00:00.000Z',
    finishedAt: '2026-01-01T00:00:05.000Z',
    durationMs: 5000,
    options: {
      ...{
        level: 'all',
        only: [],
        timeoutMs: 10000,
        checkTimeoutMs: 30000,
        budgetMs: 600000,
        seed: 1,
        runs: 5,
      },
      ...{
        out: '/tmp/out',
        webhookListen: '127.0.0.1:0',
        webhookPublicUrl: null,
        baseline: null,
        apiKey: '[redacted]',
      },
    },
    card: { agent: { id: 'agent-1' } },
    reachability: {
      reachable: true,
      authenticated: true,
      status: 200,
      message: 'extended card fetched',
      durationMs: 5,
    },
    requirements,
    summary: summarize(requirements),
    harnessErrors: [],
    ...decideExit(requirements, 'all', null),
    ...overrides,
  };
}

/** Requirements all with one verdict per level: for score and compliance cases. */
export function withVerdicts(entries: [id: string, verdict: Verdict][]): RequirementResult[] {
  return entries.map(([id, verdict]) => requirement(id, verdict, []));
}

/**
 * The `start` and `plan` progress events of a run of `checks` (each: its requirement and level, its
 * title, the ms the plan gives it), as the runner reports them: the requirements in the order of
 * their first check, the estimate the sum of the weights, `requests` the plan's count.
 */
export function startAndPlan(
  checks: ReadonlyArray<[id: string, level: Level, title: string, weightMs: number]>,
  requests: number,
): [ProgressEvent, ProgressEvent] {
  const levels = new Map(checks.map(([id, level]) => [id, level]));
  const start: ProgressEvent = {
    kind: 'start',
    tool: { name: 'a2a-conformance', version: '0.0.0' },
    target: { baseUrl: TARGET, agentId: 'agent-1' },
    requirements: [...levels].map(([id, level]) => ({ id, level })),
  };
  const plan: ProgressEvent = {
    kind: 'plan',
    checks: checks.map(([requirementId, , title, weightMs]) => ({ requirementId, title, weightMs })),
    estimateMs: checks.reduce((ms, [, , , weightMs]) => ms + weightMs, 0),
    budgetMs: 600_000,
    fits: 'everything',
    requirements: levels.size,
    requests,
    turns: 0,
  };
  return [start, plan];
}
