// Streams (spec 4.2, 4.5, 6.6; C-09, C-10, C-26, C-31): small SSE budgets grown by the agent's turn
// latency so a broken target cannot stall the run, the rules of a 4.2 stream as reusable recorded
// checks, the C-26 reading of an error answered before a stream starts, the states a stream showed
// (graded only as far as the agent sent them), and a task kept live for resubscribing.
import {
  completeAnswer,
  is,
  NoAnswerError,
  type CheckContext,
  type SseEvent,
  type SseStream,
  type StreamOptions,
  type StreamTranscript,
  type TargetClient,
} from '../../harness/check/index.ts';
import { validate } from '../../schemas/registry.ts';
import { isObject } from '../../schemas/json.ts';
import { directivePart, directivesHonoured, type DirectiveFields } from './directives.ts';
import { messageParams, textPart } from './messages.ts';
import { requestId, resultOfEvent, type JsonObject } from './rpc.ts';
import { eventState, FINAL_STATES } from './tasks.ts';

/**
 * Budgets of every stream a check reads on a fast unpaced agent: a target silent for 3 s is reported,
 * never waited on. streamBudgets() grows them by the agent's turn latency and pace (c.scaled).
 */
export const STREAM_BUDGETS = Object.freeze({ firstEventMs: 3_000, idleMs: 3_000, totalMs: 8_000 });

/** STREAM_BUDGETS grown by what this agent takes per turn and its pace (c.scaled): a slow agent's stream is waited for. */
export function streamBudgets(c: CheckContext): { firstEventMs: number; idleMs: number; totalMs: number } {
  return {
    firstEventMs: c.scaled(STREAM_BUDGETS.firstEventMs),
    idleMs: c.scaled(STREAM_BUDGETS.idleMs),
    totalMs: c.scaled(STREAM_BUDGETS.totalMs),
  };
}

/**
 * How long a scripted task stays `working` on a fast unpaced agent: long enough to resubscribe on
 * loopback, short for the run. liveDelayMs() grows it by the agent's turn latency and by what a
 * request lately waited on its pace (c.scaled).
 */
export const LIVE_DELAY_MS = 300;

/** LIVE_DELAY_MS for this agent: its next request must still find the task running (c.scaled). */
export function liveDelayMs(c: CheckContext): number {
  return c.scaled(LIVE_DELAY_MS);
}

export interface StreamRun {
  requestId: string;
  t: StreamTranscript;
}

/** Opens a streaming request with the stream budgets and waits for its end. */
export async function runStream(
  c: CheckContext,
  method: string,
  params: unknown,
  opts: StreamOptions & { client?: TargetClient } = {},
): Promise<StreamRun> {
  const id = requestId();
  const { client, ...rest } = opts;
  const open = client === undefined ? c.stream.bind(c) : client.stream.bind(client);
  const s = await open(method, params, { id, ...streamBudgets(c), ...rest });
  const t = await s.done;
  // Ended on a transport fault before its final event (a reset, a gateway's page): no answer to grade.
  const ex = t.finalIndex === null ? c.exchanges().find((e) => e.id === t.exchangeId) : undefined;
  if (ex?.error !== undefined && !completeAnswer(ex)) throw new NoAnswerError(ex);
  return { requestId: id, t };
}

/** No HTTP answer at all is the harness's problem (`error`), never a finding against the target. */
export function requireAnswered(t: StreamTranscript): void {
  if (t.status === undefined) {
    throw new Error(`no HTTP answer to the streaming request: ${t.error?.message ?? t.closedBy}`);
  }
}

/**
 * A stream still open when its budget ran out cannot be judged on its end: the check waited on the
 * agent within a window the harness chose, not exercised (never a harness error, never a fail).
 */
export function requireEnded(c: CheckContext, t: StreamTranscript): void {
  requireAnswered(t);
  if (t.closedBy === 'error' && t.finalIndex === null) {
    throw new Error(`the connection failed before a final event: ${t.error?.message ?? 'unknown error'}`);
  }
  if (t.budgetExceeded !== undefined && t.finalIndex === null) {
    c.notExercised(
      `the stream sent no final event within the harness's budget (${t.budgetExceeded}; ` +
        `first event ${STREAM_BUDGETS.firstEventMs} ms, idle ${STREAM_BUDGETS.idleMs} ms, ` +
        `total ${STREAM_BUDGETS.totalMs} ms, each grown by the agent's measured turns: ` +
        `${c.turnLatencyMs()} ms now)`,
    );
  }
}

/** The states of the events with consecutive repeats folded: [submitted, working, completed]. */
export function foldedStates(t: StreamTranscript): unknown[] {
  const out: unknown[] = [];
  for (const ev of t.events) {
    const state = eventState(ev);
    if (out.length === 0 || out[out.length - 1] !== state) out.push(state);
  }
  return out;
}

/** Events as short evidence: index, state, final, and the JSON-RPC id. */
export function eventSummary(t: StreamTranscript): unknown[] {
  return t.events.map((ev) => ({
    index: ev.index,
    state: eventState(ev),
    final: resultOfEvent(ev)?.final,
    id: isObject(ev.json) ? ev.json.id : undefined,
    error: ev.isError,
  }));
}

// ---- the rules of a 4.2 stream, each one recorded check (reused by 4.5 and 6.6) ----

export function checkContentType(c: CheckContext, t: StreamTranscript, p = ''): boolean {
  requireAnswered(t);
  return c.check(
    `${p}Content-Type`,
    t.contentType,
    is.where('text/event-stream (parameters allowed)', () => t.isEventStream),
  );
}

/** 4.2: every event's data is one JSON-RPC response object (C-31). */
export function checkDataIsResponse(c: CheckContext, t: StreamTranscript, p = ''): boolean {
  requireAnswered(t);
  c.require(`${p}number of SSE events`, t.events.length, is.atLeast(1));
  const bad = t.events.flatMap((ev): unknown[] => {
    if (ev.json === undefined)
      return [{ index: ev.index, data: ev.data.slice(0, 200), error: ev.parseError }];
    const v = validate('jsonrpc-response', ev.json);
    return v.valid ? [] : [{ index: ev.index, schemaErrors: v.errors.slice(0, 5) }];
  });
  return c.check(`${p}events whose data is not one JSON-RPC response`, bad, []);
}

/** 4.2: every result is a task with id, status.state and final (stream-task schema). */
export function checkEventTasks(c: CheckContext, t: StreamTranscript, p = ''): boolean {
  requireAnswered(t);
  const bad = t.events.flatMap((ev) => {
    if (ev.isError) return [];
    const v = validate('stream-task', resultOfEvent(ev));
    return v.valid ? [] : [{ index: ev.index, schemaErrors: v.errors.slice(0, 5) }];
  });
  return c.check(`${p}events whose result is not a task with id, status.state and final`, bad, []);
}

/** 4.2: every event before the last carries final false. */
export function checkIntermediateNotFinal(c: CheckContext, t: StreamTranscript, p = ''): boolean {
  const bad = t.events
    .slice(0, -1)
    .filter((ev) => resultOfEvent(ev)?.final !== false)
    .map((ev) => ({ index: ev.index, final: resultOfEvent(ev)?.final, error: ev.isError }));
  return c.check(`${p}events before the last without final false`, bad, []);
}

/** 4.2 / C-31: exactly one final event, in a final state, the last event of the stream. */
export function checkSingleFinal(c: CheckContext, t: StreamTranscript, p = ''): boolean {
  requireEnded(c, t);
  const finals = t.events.filter((ev) => resultOfEvent(ev)?.final === true).map((ev) => ev.index);
  const last = t.events[t.events.length - 1];
  const ok = [
    c.check(`${p}indexes of the events with final true`, finals, [t.events.length - 1]),
    c.check(`${p}state of the final event`, eventState(last), is.oneOf([...FINAL_STATES])),
    c.check(`${p}events after the final one`, t.afterFinal.length, 0),
  ];
  return ok.every(Boolean);
}

/** 6.6 / C-31: every event's JSON-RPC id equals the request id. */
export function checkEventIds(c: CheckContext, run: StreamRun, p = ''): boolean {
  requireAnswered(run.t);
  c.require(`${p}number of SSE events`, run.t.events.length, is.atLeast(1));
  const ids = run.t.events.map((ev) => (isObject(ev.json) ? ev.json.id : undefined));
  return c.check(
    `${p}event ids (request id ${run.requestId})`,
    ids,
    is.where(`every id equal to ${JSON.stringify(run.requestId)}`, () =>
      ids.every((id) => id === run.requestId),
    ),
  );
}

/** Every MUST rule of a 4.2 stream at once (6.6: resubscribe streams follow section 4.2). */
export function checkStreamRules(c: CheckContext, run: StreamRun, p = ''): void {
  requireAnswered(run.t);
  checkContentType(c, run.t, p);
  checkDataIsResponse(c, run.t, p);
  checkEventTasks(c, run.t, p);
  checkIntermediateNotFinal(c, run.t, p);
  checkSingleFinal(c, run.t, p);
  checkEventIds(c, run, p);
}

// ---- C-26: an error before the stream starts ----

export interface EarlyError {
  /** 'plain JSON', 'one SSE error event', or a description of anything else. */
  form: string;
  error: JsonObject | undefined;
  id: unknown;
}

/** Reads an answer that should be a JSON-RPC error sent before streaming started (C-26). */
export function earlyError(t: StreamTranscript): EarlyError {
  requireAnswered(t);
  if (!t.isEventStream) {
    const json = isObject(t.json) ? t.json : undefined;
    const error = isObject(json?.error) ? json.error : undefined;
    return {
      form: error === undefined ? `${t.contentType ?? 'no'} body without error` : 'plain JSON',
      error,
      id: json?.id,
    };
  }
  const only = t.events.length === 1 ? t.events[0] : undefined;
  if (only?.isError === true && isObject(only.json) && isObject(only.json.error)) {
    return { form: 'one SSE error event', error: only.json.error, id: only.json.id };
  }
  return {
    form: `SSE stream of ${t.events.length} event(s): ${JSON.stringify(eventSummary(t))}`,
    error: undefined,
    id: undefined,
  };
}

/**
 * Records the C-26 form, the error code (a value or matcher) and the response id of an answer refused
 * before the stream started. `id` defaults to the request id (2.2).
 */
export function checkEarlyError(
  c: CheckContext,
  run: StreamRun,
  code: unknown,
  id: unknown = run.requestId,
): JsonObject | undefined {
  const early = earlyError(run.t);
  c.check('answer form (C-26)', early.form, is.oneOf(['plain JSON', 'one SSE error event']));
  c.check('error.code', early.error?.code, code);
  c.check('id', early.id, id);
  return early.error;
}

// ---- what a stream showed of its task ----

/**
 * What a stream showed of its task: the states of its events in order, repeats collapsed (several
 * `working` events, progress updates, are one state), and whether it got to the end.
 */
export interface StreamSeen {
  states: unknown[];
  /** The stream carried its final event (or an error event). */
  complete: boolean;
  /**
   * What the agent said is all there: the stream is complete, or the agent itself closed it. False
   * when the harness stopped it short (its budget, its own close) or the connection failed.
   */
  whole: boolean;
  /** Why it stopped short, when it did. */
  cut?: string;
}

export async function streamSeen(stream: SseStream): Promise<StreamSeen> {
  const t = await stream.done;
  const all = t.events.map(eventState);
  const states = all.filter((s, i) => i === 0 || s !== all[i - 1]);
  if (t.finalIndex !== null) return { states, complete: true, whole: true };
  const cut =
    t.budgetExceeded !== undefined
      ? `the harness's ${t.budgetExceeded} budget ran out`
      : t.closedBy === 'client'
        ? 'the harness closed it'
        : t.closedBy === 'error'
          ? `the connection failed (${t.error?.message ?? 'unknown error'})`
          : 'the agent closed it';
  return { states, complete: false, whole: t.closedBy === 'server', cut };
}

function isPrefix(seen: readonly unknown[], whole: readonly unknown[]): boolean {
  return seen.length <= whole.length && seen.every((s, i) => s === whole[i]);
}

/**
 * Checks the states a task's stream carried against `expected`. A stream the harness stopped short
 * (its own budget, a pace that outlasted it, its own close) shows only a beginning: when that
 * beginning agrees with `expected` it is no evidence either way and is only noted; a state out of
 * line is a finding whatever the end. A stream the agent closed before its final event is graded
 * whole. Returns whether nothing contradicted `expected`.
 */
export async function checkStreamStates(
  c: CheckContext,
  label: string,
  stream: SseStream,
  expected: readonly unknown[],
): Promise<boolean> {
  return checkSeenStates(c, label, await streamSeen(stream), expected);
}

/** checkStreamStates() of a stream read earlier (streamSeen), e.g. by a scenario several checks share. */
export function checkSeenStates(
  c: CheckContext,
  label: string,
  seen: StreamSeen,
  expected: readonly unknown[],
): boolean {
  if (!seen.whole && isPrefix(seen.states, expected)) {
    c.info(
      `${label}: ${JSON.stringify(seen.states)} before ${seen.cut}; the rest of ${JSON.stringify(expected)} was not seen (not graded)`,
    );
    return true;
  }
  return c.check(label, seen.states, expected);
}

/** The task objects of a stream's events (the `result` of each success event). */
export function streamResults(t: StreamTranscript): JsonObject[] {
  if (!t.isEventStream && isObject(t.json) && isObject(t.json.result)) return [t.json.result];
  return t.events
    .map((e: SseEvent) => (isObject(e.json) ? e.json.result : undefined))
    .filter((r): r is JsonObject => isObject(r));
}

export function statusesOf(results: readonly (JsonObject | undefined)[]): JsonObject[] {
  return results.map((r) => r?.status).filter((s): s is JsonObject => isObject(s));
}

/** message/stream of `parts`, read to its end within a few seconds (c.scaled). */
export async function streamToEnd(c: CheckContext, parts: readonly JsonObject[], extra: JsonObject = {}) {
  const stream = await c.stream('message/stream', messageParams(parts, extra), {
    closeOnFinal: true,
    totalMs: c.scaled(10_000),
  });
  return stream.done;
}

// ---- a task kept live for resubscribing ----

export interface StreamedTask {
  stream: SseStream;
  taskId: string;
  /** Whether the task is scripted to stay working (the directive contract is honoured). */
  scripted: boolean;
  /** How long it is scripted to stay working (its delayMs; 0 when not scripted). */
  scriptedMs: number;
}

/** Progress updates of a live task: its scripted time in this many equal slices (docs/directives.md). */
const LIVE_STEPS = 2;

/** The parts of a task that stays `working` for `delayMs` (liveDelayMs()) when directives are honoured. */
export async function liveParts(
  c: CheckContext,
  extra: DirectiveFields = {},
  delayMs = liveDelayMs(c),
): Promise<JsonObject[]> {
  if (!(await directivesHonoured(c))) return [textPart('conformance live task')];
  return [textPart('conformance live task'), directivePart({ delayMs, progressSteps: LIVE_STEPS, ...extra })];
}

/**
 * The budgets of a stream that watches the rest of `live` (a resubscribe): streamBudgets() at least as
 * long as the harness scripted the task, one slice between events and the whole script in all. The
 * script was grown by the pace the run waited when it was made (c.scaled), which may be over by the
 * time the watch opens: a budget taken then alone would end the watch before the task does.
 */
export function watchBudgets(c: CheckContext, live: StreamedTask): ReturnType<typeof streamBudgets> {
  const b = streamBudgets(c);
  return {
    firstEventMs: b.firstEventMs,
    idleMs: Math.max(b.idleMs, Math.ceil(live.scriptedMs / LIVE_STEPS) + STREAM_BUDGETS.idleMs),
    totalMs: Math.max(b.totalMs, live.scriptedMs + STREAM_BUDGETS.totalMs),
  };
}

/**
 * Starts a message/stream task and returns once it reported `state` (default: any first event).
 * Black-box: without the directive contract the task is a plain one, which a slow agent keeps live.
 * `followUps`: the requests that must reach the agent while the task runs (its resubscribes); on a
 * paced agent the stream leaves only once the window also has room for them, kept for them: send
 * each with `{ pace: { prepaid: true } }` (harness PaceRoom), and it goes at once.
 */
export async function startLiveTask(c: CheckContext, state?: string, followUps = 1): Promise<StreamedTask> {
  const scripted = await directivesHonoured(c);
  const scriptedMs = scripted ? liveDelayMs(c) : 0;
  const stream = await c.stream('message/stream', messageParams(await liveParts(c, {}, scriptedMs)), {
    id: requestId(),
    ...streamBudgets(c),
    pace: { keep: followUps },
  });
  for await (const ev of stream.events()) {
    const taskId = resultOfEvent(ev)?.id;
    if (typeof taskId !== 'string') break;
    if (state === undefined || eventState(ev) === state) return { stream, taskId, scripted, scriptedMs };
    if (ev.isFinal) break;
  }
  const t = await stream.close();
  return c.notExercised(
    `could not start a live task with message/stream (wanted state ${state ?? 'any'}): ` +
      `events ${JSON.stringify(eventSummary(t))}, content type ${t.contentType ?? 'none'}`,
  );
}

/** The resubscribe answered the final status at once: the task ended first, nothing live was tested. */
export function endedBeforeResubscribe(c: CheckContext, run: StreamRun, live: StreamedTask): void {
  // The finished task's final status, as plain JSON or as a stream of that one event (C-09).
  const only = run.t.isEventStream && run.t.events.length === 1 ? resultOfEvent(run.t.events[0]) : undefined;
  const state = isObject(only?.status) ? only.status.state : undefined;
  const oneFinalEvent = only?.final === true && ['completed', 'failed', 'canceled'].includes(String(state));
  if (!oneFinalEvent) {
    if (run.t.isEventStream || !isObject(run.t.json) || !isObject(run.t.json.result)) return;
    if (run.t.json.result.final !== true) return;
  }
  c.notExercised(
    live.scripted
      ? 'the scripted task had already ended when the resubscribe arrived'
      : 'the task ended before the resubscribe arrived; an agent honouring the directive contract ' +
          '(docs/directives.md) lets the harness keep it running',
  );
}
