// Helpers of the access and error suites (spec 2.14, 4.8, 5, 7; C-01, C-03, C-30, C-37, C-38): the
// run's credentials in either header form, refused-credential header sets, one valid call per method
// that tells served from refused, the extended card reader and a catalogue of error-provoking requests.
import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import {
  completeAnswer,
  NoAnswerError,
  type AnsweredExchange,
  type CheckContext,
  type SseStream,
  type RpcOptions,
  type TargetClient,
} from '../../harness/check/index.ts';
import { METHODS } from '../../schemas/error-codes.ts';
import { isObject } from '../../schemas/json.ts';
import {
  directivePart,
  messageParams,
  resultOf,
  textPart,
  waitForTask,
  type JsonObject,
} from './messages.ts';
import { CARD } from './rpc-request.ts';

/** An Origin no deployment is likely to list: only a wildcard (the default of C-38) allows it. */
export const TEST_ORIGIN = 'https://a2a-conformance-client.example';
const WRONG_KEY = 'a2a-conformance-wrong-key-0000000000';
const WRONG_TOKEN = 'a2a-conformance-wrong-token-000000000';

export type Headers = Record<string, string | null>;

export interface RefusedCase {
  name: string;
  /** C-01 data.reason. */
  reason: 'missing' | 'invalid';
  headers: Headers;
}

export const NO_CREDENTIAL: Headers = { 'x-api-key': null, authorization: null };

export const REFUSED_CASES: readonly RefusedCase[] = [
  { name: 'no credential', reason: 'missing', headers: NO_CREDENTIAL },
  { name: 'a wrong x-api-key', reason: 'invalid', headers: { 'x-api-key': WRONG_KEY, authorization: null } },
  {
    name: 'a wrong Bearer token',
    reason: 'invalid',
    headers: { 'x-api-key': null, authorization: `Bearer ${WRONG_TOKEN}` },
  },
];

export function wrongKeyHeader(): string {
  return WRONG_KEY;
}

export function wrongBearerHeader(): string {
  return `Bearer ${WRONG_TOKEN}`;
}

/** The run's credentials (the context hides them; the injected run carries them). */
export function runCredentials(): { apiKey?: string; bearer?: string } {
  return inject('a2aRun').auth;
}

/** A dotted path read, e.g. 'capabilities.fileUpload.maxFileSize'. */
export function pathValue(obj: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((v, key) => (isObject(v) ? v[key] : undefined), obj);
}

export function header(ex: { response?: { headers: Record<string, string | string[]> } }, name: string) {
  const v = ex.response?.headers[name.toLowerCase()];
  return Array.isArray(v) ? v.join(', ') : v;
}

/** A header's comma-separated list, lower-cased. */
export function headerList(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter((s) => s !== '');
}

export interface Answer {
  ex: AnsweredExchange;
  status: number;
  json: unknown;
  eventStream: boolean;
  /** A result came back: a JSON result member, or an SSE event carrying one. */
  served: boolean;
}

const STREAMING = new Set(['message/stream', 'tasks/resubscribe']);

/** One call, by a stream read for the two streaming methods (C-26: refusals come as plain JSON). */
export async function answer(
  client: TargetClient,
  method: string,
  params: unknown,
  opts: RpcOptions = {},
): Promise<Answer> {
  if (!STREAMING.has(method)) {
    const ex = await client.rpc(method, params, opts);
    // A deadline or reset mid-answer is no answer (the check ends as a harness error, never graded).
    if (!completeAnswer(ex)) throw new NoAnswerError(ex);
    const json = ex.response.json;
    return {
      ex: ex as AnsweredExchange,
      status: ex.response.status,
      json,
      eventStream: false,
      served: isObject(json) && 'result' in json,
    };
  }
  const s = await client.stream(method, params, {
    ...opts,
    closeOnFinal: true,
    firstEventMs: 3_000,
    totalMs: 5_000,
  });
  const t = await s.done;
  const ex = client.exchanges().find((e) => e.id === t.exchangeId);
  if (ex?.response === undefined || t.status === undefined) {
    throw new Error(`no answer to ${method}: ${t.error?.message ?? '?'}`);
  }
  const fromEvents = t.events.some((e) => isObject(e.json) && 'result' in e.json);
  const json = t.isEventStream ? t.events.map((e) => e.json) : t.json;
  const served = t.isEventStream ? fromEvents : isObject(json) && 'result' in json;
  return { ex: ex as AnsweredExchange, status: t.status, json, eventStream: t.isEventStream, served };
}

/** The JSON-RPC error object of a plain answer or of an SSE stream's only event. */
export function answerError(a: Answer): JsonObject | undefined {
  const body = Array.isArray(a.json) && a.eventStream ? a.json[0] : a.json;
  return isObject(body) && isObject(body.error) ? body.error : undefined;
}

/** A valid call of each section 4 method (and of any extra name the card lists). */
export function methodCalls(taskId: string, hookUrl: string, extra: readonly string[] = []) {
  const calls: Array<{ method: string; params: JsonObject }> = [
    { method: 'message/send', params: messageParams([textPart('conformance: access check')]) },
    { method: 'message/stream', params: messageParams([textPart('conformance: access check')]) },
    { method: 'tasks/get', params: { taskId } },
    { method: 'tasks/cancel', params: { taskId } },
    { method: 'tasks/resubscribe', params: { taskId } },
    { method: 'tasks/pushNotificationConfig/set', params: { taskId, config: { url: hookUrl } } },
    { method: 'tasks/pushNotificationConfig/get', params: { taskId } },
    { method: CARD, params: {} },
  ];
  for (const method of extra)
    if (!(METHODS as readonly string[]).includes(method)) calls.push({ method, params: {} });
  return calls;
}

const samples = new Map<string, Promise<string>>();

/** A finished task of the run's agent, created once per suite file; a fresh UUID if none could be. */
export function sampleTaskId(c: CheckContext): Promise<string> {
  const key = `${c.target.baseUrl} ${c.target.agentId}`;
  let p = samples.get(key);
  if (p === undefined) {
    p = c.client.rpc('message/send', messageParams([textPart('conformance: sample task')])).then((ex) => {
      const id = ex.response === undefined ? undefined : resultOf(ex as AnsweredExchange)?.id;
      return typeof id === 'string' ? id : randomUUID();
    });
    samples.set(key, p);
  }
  return p;
}

export interface UsableCredentials {
  apiKey?: string;
  bearer?: string;
  /** Why a form is missing: the run has no such credential and the other one was refused in it. */
  notes: string[];
}

const usable = new Map<string, Promise<UsableCredentials>>();

/**
 * The credential usable in each header form. A run gives one form (or both); the same value is then
 * tried in the other form: accepted, it serves both; refused, that form cannot be exercised (keys and
 * tokens may differ, spec 5 line 266).
 */
export function usableCredentials(c: CheckContext): Promise<UsableCredentials> {
  const key = `${c.target.baseUrl} ${c.target.agentId}`;
  let p = usable.get(key);
  if (p === undefined) {
    p = probeForms(c.client);
    usable.set(key, p);
  }
  return p;
}

async function probeForms(client: TargetClient): Promise<UsableCredentials> {
  const { apiKey, bearer } = runCredentials();
  const out: UsableCredentials = { notes: [] };
  if (apiKey !== undefined) out.apiKey = apiKey;
  if (bearer !== undefined) out.bearer = bearer;
  if (apiKey !== undefined && bearer === undefined) {
    const a = await answer(
      client,
      CARD,
      {},
      { headers: { 'x-api-key': null, authorization: `Bearer ${apiKey}` } },
    );
    if (a.served) out.bearer = apiKey;
    else out.notes.push('the run has no Bearer token and its API key is refused as a Bearer token');
  }
  if (bearer !== undefined && apiKey === undefined) {
    const a = await answer(client, CARD, {}, { headers: { 'x-api-key': bearer, authorization: null } });
    if (a.served) out.apiKey = bearer;
    else out.notes.push('the run has no API key and its Bearer token is refused as an x-api-key');
  }
  return out;
}

/** Headers carrying exactly one credential form. */
export function onlyApiKey(key: string): Headers {
  return { 'x-api-key': key, authorization: null };
}

export function onlyBearer(token: string, scheme = 'Bearer'): Headers {
  return { 'x-api-key': null, authorization: `${scheme} ${token}` };
}

/** The extended card with the given params (undefined: no params member). */
export async function fetchCard(
  c: CheckContext,
  params?: unknown,
): Promise<{ ex: AnsweredExchange; card: JsonObject | undefined }> {
  const ex = await c.rpc(CARD, params);
  return { ex, card: resultOf(ex) };
}

/** The card's supportedMethods when it lists them, else undefined (the card says nothing). */
export function listedMethods(card: JsonObject | undefined): string[] | undefined {
  const m = pathValue(card, 'capabilities.supportedMethods');
  return Array.isArray(m) ? m.filter((x): x is string => typeof x === 'string') : undefined;
}

/**
 * A task kept `working` by a directive (docs/directives.md), opened with message/stream; the caller
 * ends it (tasks/cancel) and closes the stream. Requires the directive contract and streaming
 * (not-exercised without streaming).
 */
export async function startLiveTask(
  c: CheckContext,
  directive: JsonObject,
): Promise<{ taskId: string; stream: SseStream; close: () => Promise<unknown> }> {
  if (pathValue(c.card, 'capabilities.streaming') === false) {
    c.notExercised(
      'a live task is started with message/stream, which this agent does not serve (streaming false)',
    );
  }
  const params = messageParams([textPart('conformance: live task'), directivePart(directive)]);
  const s = await c.stream('message/stream', params, { firstEventMs: 3_000, totalMs: 10_000 });
  let taskId: unknown;
  for await (const e of s.events()) {
    taskId = isObject(e.json) && isObject(e.json.result) ? e.json.result.id : undefined;
    if (typeof taskId === 'string') break;
  }
  c.require('message/stream: task id of the first event', typeof taskId, 'string');
  await waitForTask(c, taskId as string, (st) => st === 'working', 2_000);
  return { taskId: taskId as string, stream: s, close: () => s.close() };
}
