// The checks of `a2a-conformance client`: what the scenario server saw the user's client send, and
// what the driver printed, graded per client requirement of the ledger (spec 2.1, 2.3, 2.5, 4, 4.1,
// 4.2, 4.4, 4.9, 7; rulings C-74 to C-77).
import { is } from '../check/matchers.ts';
import type { CheckRecorder } from '../check/recorder.ts';
import type { Exchange } from '../io/evidence.ts';
import type { SeenRequest } from './scenario-server.ts';
import type { Scenario } from './scenarios.ts';

/** How the driver process ended. */
export interface DriverOutcome {
  exitCode: number | null;
  signal: string | null;
  /** Killed at the scenario's budget. */
  killed: boolean;
  stdout: string;
  stderr: string;
  durationMs: number;
  /** The process could not be started (e.g. command not found). */
  spawnError?: string;
}

export interface ScenarioRun {
  scenario: Scenario;
  baseUrl: string;
  apiKey: string;
  requests: readonly SeenRequest[];
  driver: DriverOutcome;
  /** The bytes of A2A_FILE (`file`). */
  file?: Buffer;
}

export type ClientCheck = (run: ScenarioRun, rec: CheckRecorder, ev: Exchange[]) => void;

export interface ClientCheckDef {
  requirementId: string;
  title: string;
  check: ClientCheck;
}

/** C-75: the stream is closed within this time of the final event. */
export const CLOSE_WITHIN_MS = 3000;
/** C-74: at most 5 retries, 6 attempts in all. */
export const MAX_ATTEMPTS = 6;
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const MAX_EVIDENCE = 20;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export function exchangeOf(seen: SeenRequest, baseUrl: string): Exchange {
  const ex: Exchange = {
    id: `ex-${seen.seq}`,
    kind: seen.rpcMethod === 'message/stream' ? 'stream' : 'http',
    request: {
      method: seen.method,
      url: new URL(seen.url, baseUrl).href,
      headers: seen.headers,
      body: seen.body.length > 16_384 ? `${seen.body.slice(0, 16_384)}…[cut]` : seen.body,
    },
    timings: {
      startedAt: seen.startedAt,
      totalMs: seen.endedAtMs === undefined ? 0 : Math.round(seen.endedAtMs - seen.atMs),
    },
  };
  if (seen.answer !== undefined) {
    const body =
      seen.answer.events !== undefined
        ? seen.answer.events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('')
        : JSON.stringify(seen.answer.json ?? null);
    ex.response = {
      status: seen.answer.status,
      headers: {},
      body,
      bodyBytes: Buffer.byteLength(body),
      truncated: false,
      invalidUtf8: false,
      ...(seen.answer.json === undefined ? {} : { json: seen.answer.json }),
      redactions: 0,
    };
  }
  return ex;
}

const json = (s: SeenRequest): Json =>
  s.json !== null && typeof s.json === 'object' ? (s.json as Json) : {};
const isMessage = (s: SeenRequest): boolean =>
  s.rpcMethod === 'message/send' || s.rpcMethod === 'message/stream';
const is5xx = (s: SeenRequest): boolean => (s.answer?.status ?? 0) >= 500;

/** The text parts of a task's `status.message`, joined with a newline (C-76). */
export function replyText(result: unknown): string | undefined {
  const parts = (result as Json | undefined)?.status?.message?.parts;
  if (!Array.isArray(parts)) return undefined;
  return parts
    .filter((p: Json) => p?.type === 'text' && typeof p.text === 'string')
    .map((p: Json) => p.text as string)
    .join('\n');
}

function finalEvent(s: SeenRequest): Json | undefined {
  const events = (s.answer?.events ?? []) as Json[];
  return events.find((e) => e?.result?.final === true || e?.error !== undefined);
}

function evidence(run: ScenarioRun, ev: Exchange[], requests: readonly SeenRequest[]): void {
  for (const s of requests.slice(0, MAX_EVIDENCE)) ev.push(exchangeOf(s, run.baseUrl));
}

function driverNote(rec: CheckRecorder, d: DriverOutcome): void {
  rec.info('driver', {
    exitCode: d.exitCode,
    signal: d.signal,
    killedAtBudget: d.killed,
    durationMs: d.durationMs,
    stdout: d.stdout.slice(0, 2000),
    stderr: d.stderr.slice(-2000),
    ...(d.spawnError === undefined ? {} : { spawnError: d.spawnError }),
  });
}

/** The driver exited 0 on its own and printed `expected` (trailing white space ignored, C-76). */
function expectOutput(rec: CheckRecorder, run: ScenarioRun, expected: string): void {
  const d = run.driver;
  rec.check(
    'driver exit',
    d.killed ? `killed at the scenario budget after ${d.durationMs} ms` : (d.spawnError ?? d.exitCode),
    0,
  );
  rec.check('driver output (stdout)', d.stdout.trimEnd(), expected.trimEnd());
}

function requests(
  run: ScenarioRun,
  rec: CheckRecorder,
  filter: (s: SeenRequest) => boolean,
  what: string,
): SeenRequest[] {
  const found = run.requests.filter(filter);
  driverNote(rec, run.driver);
  if (found.length === 0) {
    rec.check(
      `requests of the ${run.scenario} scenario (${what})`,
      0,
      is.where('at least one', (n) => (n as number) > 0),
    );
  }
  return found;
}

const perRequest = (
  requirementId: string,
  title: string,
  assert: (s: SeenRequest, rec: CheckRecorder, run: ScenarioRun) => void,
): ClientCheckDef => ({
  requirementId,
  title,
  check(run, rec, ev) {
    const all = run.requests;
    driverNote(rec, run.driver);
    if (all.length === 0)
      return rec.notExercised(`the driver sent no request in the ${run.scenario} scenario`);
    evidence(run, ev, all);
    for (const s of all) assert(s, rec, run);
  },
});

const perMessage = (
  requirementId: string,
  title: string,
  assert: (message: Json, rec: CheckRecorder, s: SeenRequest) => void,
): ClientCheckDef => ({
  requirementId,
  title,
  check(run, rec, ev) {
    const messages = run.requests.filter(isMessage);
    driverNote(rec, run.driver);
    if (messages.length === 0)
      rec.notExercised(`the driver sent no message/send or message/stream in the ${run.scenario} scenario`);
    evidence(run, ev, messages);
    for (const s of messages) assert((json(s).params?.message ?? {}) as Json, rec, s);
  },
});

export const EVERY_REQUEST_CHECKS: readonly ClientCheckDef[] = [
  perRequest('2.1/client-jsonrpc-2-0', 'every request has jsonrpc "2.0"', (s, rec) =>
    rec.check(`request ${s.seq} jsonrpc`, json(s).jsonrpc, '2.0'),
  ),
  perRequest(
    '2.1/client-unique-ids',
    'every request has a string id used by no other request (a retry may repeat it)',
    (s, rec, run) => {
      const id = json(s).id;
      rec.check(`request ${s.seq} id`, id, is.type('string'));
      const earlier = run.requests.filter((o) => o.seq < s.seq && json(o).id === id && id !== undefined);
      // C-74: a repeat is a retry only when every earlier request with that id was answered 5xx.
      const reused = earlier.filter((o) => !is5xx(o)).map((o) => o.seq);
      rec.check(
        `request ${s.seq}: earlier requests with id ${JSON.stringify(id)} that were not 5xx`,
        reused,
        [],
      );
    },
  ),
  perRequest(
    '4/client-content-type-json',
    'every request is sent with Content-Type: application/json',
    (s, rec) =>
      rec.check(
        `request ${s.seq} content-type`,
        s.headers['content-type'],
        is.matching(/^application\/json\s*(;|$)/i),
      ),
  ),
  perRequest(
    '4/client-sends-credential',
    'every request carries the API key (x-api-key, or a Bearer token)',
    (s, rec, run) =>
      rec.check(
        `request ${s.seq} credential`,
        s.headers['x-api-key'] ?? s.headers.authorization ?? 'none',
        is.where(
          'x-api-key: <A2A_API_KEY> or Authorization: Bearer <A2A_API_KEY>',
          (v) => v === run.apiKey || v === `Bearer ${run.apiKey}`,
        ),
      ),
  ),
];

export const EVERY_MESSAGE_CHECKS: readonly ClientCheckDef[] = [
  perMessage('2.3/client-role-user', 'every message has role "user"', (m, rec, s) =>
    rec.check(`request ${s.seq} params.message.role`, m.role, 'user'),
  ),
  perMessage('2.3/client-message-id-uuid-v4', 'every message has a UUID v4 messageId', (m, rec, s) =>
    rec.check(`request ${s.seq} params.message.messageId`, m.messageId, is.matching(UUID_V4)),
  ),
];

function streamOutcome(run: ScenarioRun, rec: CheckRecorder, ev: Exchange[]): void {
  const streams = requests(run, rec, (s) => s.rpcMethod === 'message/stream', 'message/stream');
  evidence(run, ev, streams);
  const final = streams.map(finalEvent).find((e) => e !== undefined);
  // The stream had begun (the server sends `: ping` first): a client that left before its end failed it.
  if (final === undefined && streams.some((s) => s.stream !== undefined)) {
    return rec.fail('the client closed the stream before its final event');
  }
  if (final === undefined) return rec.notExercised('no stream was answered with an event stream');
  expectOutput(rec, run, replyText(final.result) ?? '');
}

const acceptsStream: ClientCheckDef = {
  requirementId: '4/client-accept-event-stream',
  title: 'message/stream is sent with Accept: text/event-stream',
  check(run, rec, ev) {
    const streams = requests(run, rec, (s) => s.rpcMethod === 'message/stream', 'message/stream');
    evidence(run, ev, streams);
    for (const s of streams) {
      rec.check(
        `request ${s.seq} accept`,
        s.headers.accept,
        is.matching(/(^|,)\s*text\/event-stream\s*(;|,|$)/i),
      );
    }
  },
};

const closesOnFinal: ClientCheckDef = {
  requirementId: '4.2/client-closes-on-final',
  title: `the stream is closed within ${CLOSE_WITHIN_MS} ms of the final event (the server holds it open)`,
  check(run, rec, ev) {
    const streams = requests(
      run,
      rec,
      (s) => s.stream?.finalAtMs !== undefined,
      'a stream that reached its final event',
    );
    evidence(run, ev, streams);
    for (const s of streams) {
      const ms =
        s.stream!.closedAtMs === undefined
          ? 'never closed by the client'
          : Math.round(s.stream!.closedAtMs - s.stream!.finalAtMs!);
      rec.check(
        `request ${s.seq}: ms from the final event to the client closing`,
        ms,
        is.where(`at most ${CLOSE_WITHIN_MS}`, (v) => typeof v === 'number' && v <= CLOSE_WITHIN_MS),
      );
    }
  },
};

/** The checks of one scenario's own requirements. */
export const SCENARIO_CHECKS: Readonly<Record<Scenario, readonly ClientCheckDef[]>> = {
  send: [
    {
      requirementId: '4.1/client-reads-reply-text',
      title: 'send: the driver prints the text parts of result.status.message',
      check(run, rec, ev) {
        const sends = requests(run, rec, (s) => s.rpcMethod === 'message/send', 'message/send');
        evidence(run, ev, sends);
        const answered = sends.find((s) => (s.answer?.json as Json | undefined)?.result !== undefined);
        if (answered === undefined) return rec.notExercised('no message/send got a result');
        expectOutput(rec, run, replyText((answered.answer!.json as Json).result) ?? '');
      },
    },
  ],
  stream: [
    acceptsStream,
    {
      requirementId: '4.2/client-reads-final-event',
      title: 'stream: the driver prints the reply of the final event',
      check: streamOutcome,
    },
    {
      requirementId: '4.2/client-ignores-ping',
      title: 'stream: `: ping` before and between events change nothing the driver prints',
      check: streamOutcome,
    },
    {
      requirementId: '4.2/client-reassembles-split-events',
      title: 'stream: events written in pieces are read whole',
      check: streamOutcome,
    },
    closesOnFinal,
  ],
  'multi-turn': [
    {
      requirementId: '4.9/client-carries-context-id',
      title: 'multi-turn: the second message carries the contextId of the first answer; both replies printed',
      check(run, rec, ev) {
        const messages = requests(run, rec, isMessage, 'messages');
        evidence(run, ev, messages);
        rec.check(
          'messages sent',
          messages.length,
          is.where('at least 2', (n) => (n as number) >= 2),
        );
        const [first, second] = messages;
        if (first === undefined || second === undefined) return;
        const result = (first.answer?.json as Json | undefined)?.result ?? finalEvent(first)?.result;
        const contextId = result?.contextId;
        if (typeof contextId !== 'string') return rec.notExercised('the first answer carried no contextId');
        rec.check('second message params.contextId', json(second).params?.contextId, contextId);
        const secondResult = (second.answer?.json as Json | undefined)?.result ?? finalEvent(second)?.result;
        expectOutput(rec, run, `${replyText(result) ?? ''}\n${replyText(secondResult) ?? ''}`);
      },
    },
  ],
  file: [
    {
      requirementId: '2.5/client-file-bytes-base64',
      title: 'file: file.bytes is the Base64 of A2A_FILE, without a data: prefix',
      check(run, rec, ev) {
        for (const part of fileParts(run, rec, ev)) {
          const bytes = part.file?.bytes;
          rec.check(
            'file.bytes',
            typeof bytes === 'string' && bytes.startsWith('data:') ? bytes.slice(0, 40) : typeof bytes,
            'string',
          );
          if (typeof bytes !== 'string') continue;
          rec.check('file.bytes is Base64', BASE64.test(bytes), true);
          rec.check(
            'file.bytes decodes to the bytes of A2A_FILE',
            Buffer.from(bytes, 'base64').equals(run.file!),
            true,
          );
        }
      },
    },
    {
      requirementId: '2.5/client-file-name-mime',
      title: 'file: the file part has a name and a mimeType',
      check(run, rec, ev) {
        for (const part of fileParts(run, rec, ev)) {
          rec.check('file.name', part.file?.name, is.nonEmptyString());
          rec.check('file.mimeType', part.file?.mimeType, is.nonEmptyString());
        }
      },
    },
    {
      requirementId: '4.9/client-sends-file-part',
      title: 'file: one message carries the text "file" and a part of type file',
      check(run, rec, ev) {
        const parts = fileParts(run, rec, ev);
        const message = run.requests
          .filter(isMessage)
          .map((s) => json(s).params?.message as Json | undefined)
          .find((m) => Array.isArray(m?.parts) && m.parts.some((p: Json) => p?.type === 'file'));
        rec.check(
          'text parts beside the file part',
          (message?.parts ?? []).filter((p: Json) => p?.type === 'text').map((p: Json) => p.text),
          is.where('includes "file"', (t) => Array.isArray(t) && t.includes('file')),
        );
        rec.check(
          'file parts',
          parts.length,
          is.where('at least one', (n) => (n as number) > 0),
        );
        rec.check(
          'driver exit',
          run.driver.killed
            ? 'killed at the scenario budget'
            : (run.driver.spawnError ?? run.driver.exitCode),
          0,
        );
      },
    },
  ],
  cancel: [
    acceptsStream,
    closesOnFinal,
    {
      requirementId: '4.4/client-cancels-by-task-id',
      title:
        'cancel: tasks/cancel names the streamed task in params.taskId; the driver prints the state of the cancel result',
      check(run, rec, ev) {
        const streams = requests(run, rec, (s) => s.rpcMethod === 'message/stream', 'message/stream');
        const cancels = run.requests.filter((s) => s.rpcMethod === 'tasks/cancel');
        evidence(run, ev, [...streams, ...cancels]);
        const taskId = ((streams[0]?.answer?.events ?? []) as Json[])
          .map((e) => e?.result?.id)
          .find((id) => typeof id === 'string');
        if (taskId === undefined) return rec.notExercised('the stream carried no task id');
        rec.check(
          'tasks/cancel requests',
          cancels.length,
          is.where('at least one', (n) => (n as number) > 0),
        );
        const cancel = cancels.at(-1);
        if (cancel === undefined) return;
        rec.check('tasks/cancel params.taskId', json(cancel).params?.taskId, taskId);
        const state = (cancel.answer?.json as Json | undefined)?.result?.status?.state;
        expectOutput(rec, run, typeof state === 'string' ? state : 'canceled');
      },
    },
  ],
  retry: [
    {
      requirementId: '7/client-retries-transient',
      title: "retry: the message/send answered 503 is retried and the retry's reply printed",
      check(run, rec, ev) {
        const sends = requests(run, rec, (s) => s.rpcMethod === 'message/send', 'message/send');
        evidence(run, ev, sends);
        rec.check(
          'message/send attempts',
          sends.length,
          is.where('at least 2 (the 503, then a retry)', (n) => (n as number) >= 2),
        );
        const answered = sends.find(
          (s) => !is5xx(s) && (s.answer?.json as Json | undefined)?.result !== undefined,
        );
        expectOutput(
          rec,
          run,
          replyText((answered?.answer?.json as Json | undefined)?.result) ?? '(no retry was answered)',
        );
      },
    },
    {
      requirementId: '7/client-retries-bounded',
      title: `retry: at most ${MAX_ATTEMPTS} attempts, none after an answer that is not 5xx`,
      check(run, rec, ev) {
        const sends = requests(run, rec, (s) => s.rpcMethod === 'message/send', 'message/send');
        evidence(run, ev, sends);
        rec.check(
          'message/send attempts',
          sends.length,
          is.where(`at most ${MAX_ATTEMPTS}`, (n) => (n as number) <= MAX_ATTEMPTS),
        );
        const settled = sends.findIndex((s) => !is5xx(s));
        rec.check(
          'attempts after the first answer that is not 5xx',
          settled < 0 ? 0 : sends.length - settled - 1,
          0,
        );
      },
    },
  ],
  error: [
    {
      requirementId: '7/client-no-retry-non-transient',
      title:
        'error: the message/send answered with a JSON-RPC error is sent once; the driver prints the code',
      check(run, rec, ev) {
        const sends = requests(run, rec, (s) => s.rpcMethod === 'message/send', 'message/send');
        evidence(run, ev, sends);
        rec.check('message/send attempts', sends.length, 1);
        const code = (sends[0]?.answer?.json as Json | undefined)?.error?.code;
        expectOutput(rec, run, String(code ?? -32603));
      },
    },
  ],
};

function fileParts(run: ScenarioRun, rec: CheckRecorder, ev: Exchange[]): Json[] {
  const messages = requests(run, rec, isMessage, 'messages');
  evidence(run, ev, messages);
  const parts = messages.flatMap((s) => {
    const p = json(s).params?.message?.parts;
    return Array.isArray(p) ? (p as Json[]).filter((x) => x?.type === 'file') : [];
  });
  if (parts.length === 0)
    rec.check(
      'parts of type file',
      0,
      is.where('at least one', (n) => (n as number) > 0),
    );
  return parts;
}
