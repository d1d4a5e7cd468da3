// Helpers of the resources area (spec 1, 2.1-2.10, 9): result samples memoised per suite file,
// readers of answers that may come as plain JSON or as SSE (C-26, C-09), the -32602 expectation of
// C-14, schema checks recorded as data; the RFC 3339 test of C-39 re-exported from timestamps.ts.
import { randomUUID } from 'node:crypto';
import {
  is,
  type AnsweredExchange,
  type CheckContext,
  type SseEvent,
  type StreamTranscript,
} from '../../harness/check/index.ts';
import { METHODS, ERROR_CODES } from '../../schemas/error-codes.ts';
import { isObject } from '../../schemas/json.ts';
import { validate, type SchemaName } from '../../schemas/registry.ts';
import {
  directivePart,
  messageParams,
  resultOf,
  sendText,
  textPart,
  type DirectiveFields,
  type JsonObject,
} from './messages.ts';
import { endedBefore } from './ended-first.ts';
import { errorOf, responseOf, type RpcResponse } from './rpc-response.ts';
export { isRfc3339 } from './timestamps.ts';

/**
 * One sample per file: the first check that asks makes it with its own client (so the exchange is
 * that check's evidence); later checks reuse the answer and note where it came from.
 */
export function sharedSample<T>(kind: string, make: (c: CheckContext) => Promise<T>) {
  let made: Promise<T> | undefined;
  let origin = '';
  return async (c: CheckContext): Promise<T> => {
    if (made === undefined) {
      origin = c.requirement.id;
      made = make(c);
    } else {
      c.info(`${kind}: the file's shared sample, first recorded as evidence by the check of ${origin}`);
    }
    return made;
  };
}

/** The methods the card lists (C-41), or the eight of section 4 when the card does not say. */
export function servedMethods(c: CheckContext): readonly string[] {
  const caps = c.card?.capabilities;
  const listed = isObject(caps) ? caps.supportedMethods : undefined;
  return Array.isArray(listed) ? listed.filter((m): m is string => typeof m === 'string') : METHODS;
}

/** A MIME type the card says the agent accepts (C-22), so only the field under test can be refused. */
export function acceptedMimeType(c: CheckContext): string {
  const upload = isObject(c.card?.capabilities) ? c.card.capabilities.fileUpload : undefined;
  const types = isObject(upload) && Array.isArray(upload.supportedTypes) ? upload.supportedTypes : [];
  const exact = types.find((t): t is string => typeof t === 'string' && !t.includes('*'));
  return exact ?? 'text/plain';
}

/** The first `data:` event of an SSE body, parsed; C-26 lets an error travel as one SSE event. */
function firstSseData(body: string): unknown {
  const line = body.split(/\r\n|\r|\n/).find((l) => l.startsWith('data:'));
  if (line === undefined) return undefined;
  try {
    return JSON.parse(line.slice(5).trimStart());
  } catch {
    return undefined;
  }
}

/** The JSON-RPC response of an exchange: the JSON body, or the first event of an SSE body. */
export function answerOf(ex: AnsweredExchange): RpcResponse | undefined {
  const direct = responseOf(ex);
  if (direct !== undefined) return direct;
  const fromSse = firstSseData(ex.response.body);
  return isObject(fromSse) ? (fromSse as RpcResponse) : undefined;
}

export function answerError(ex: AnsweredExchange): RpcResponse['error'] | undefined {
  const error = answerOf(ex)?.error;
  return isObject(error) ? error : errorOf(ex);
}

/**
 * C-14: -32602 with data.details. `field` is checked too when `strict` (the requirement's own level
 * covers data.field: SHOULD ids); under a MUST id it is only noted, since C-14 grades it SHOULD.
 */
export function expectInvalidParams(
  c: CheckContext,
  ex: AnsweredExchange,
  field: string,
  strict: boolean,
  label = '',
): void {
  const at = label === '' ? '' : `${label}: `;
  const error = answerError(ex);
  const data = isObject(error?.data) ? error.data : undefined;
  c.check(`${at}error.code`, error?.code, ERROR_CODES.INVALID_PARAMS);
  c.check(`${at}error.data.details`, data?.details, is.nonEmptyString());
  if (strict) c.check(`${at}error.data.field`, data?.field, field);
  else if (data?.field !== field) {
    c.info(`${at}error.data.field is ${JSON.stringify(data?.field)}, C-14 rules "${field}"`);
  }
}

/** Records a schema validation of `value` as an assertion; the schema errors are the actual. */
export function checkSchema(c: CheckContext, label: string, name: SchemaName, value: unknown): boolean {
  const result = validate(name, value);
  return c.check(`${label} conforms to schema ${name}`, result.valid ? 'valid' : result.errors, 'valid');
}

/** Fields of results the spec lists (2.7 Task, 2.9, 2.10, 2.14 card); others are extras (C-36). */
const LISTED_FIELDS = [
  'id',
  'status',
  'contextId',
  'final',
  'createdAt',
  'updatedAt',
  'canceled',
  'subscribed',
];

/** Notes the fields a result carries beyond the spec's tables: tolerated, reported (C-36). */
export function reportExtras(c: CheckContext, label: string, value: unknown, listed = LISTED_FIELDS): void {
  const extra = isObject(value) ? Object.keys(value).filter((k) => !listed.includes(k)) : [];
  if (extra.length > 0) c.info(`${label} carries fields the spec does not list (tolerated, C-36)`, extra);
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

/**
 * One plain text message answered both ways: its message/send result, and the results of the events
 * of a message/stream of the same text (undefined when the card does not serve message/stream).
 */
export async function sentAndStreamed(
  c: CheckContext,
  text: string,
): Promise<{ send: JsonObject | undefined; streamed?: JsonObject[] }> {
  const send = resultOf(await sendText(c, text));
  if (!servedMethods(c).includes('message/stream')) return { send };
  return { send, streamed: streamResults(await streamToEnd(c, [textPart(text)])) };
}

/** message/stream of `parts`, read to its end within a few seconds. */
export async function streamToEnd(c: CheckContext, parts: readonly JsonObject[], extra: JsonObject = {}) {
  const stream = await c.stream('message/stream', messageParams(parts, extra), {
    closeOnFinal: true,
    totalMs: 10_000,
  });
  return stream.done;
}

export interface CancelSample {
  taskId: string;
  reason: string;
  ex: AnsweredExchange;
  result: JsonObject | undefined;
  /** The stream of the canceled task, read to its end. */
  transcript: StreamTranscript;
}

/**
 * A task cancelled while running, with a supplied reason. With the directive contract the task runs
 * until cancelled; without it the cancel races a plain stream and may lose (then undefined). A task
 * heard ending on its own before the cancel left (endedBefore: its system timeout met while the cancel
 * waited on the agent's pace) gives no sample either: undefined, with a note saying what was seen.
 */
export async function cancelRunningTask(
  c: CheckContext,
  useDirective: boolean,
  reasonText = 'conformance cancel',
): Promise<CancelSample | undefined> {
  const fields: DirectiveFields = { runUntilCanceled: true };
  const parts = useDirective ? [directivePart(fields)] : [{ type: 'text', text: 'cancel me' }];
  const stream = await c.stream('message/stream', messageParams(parts), { totalMs: 10_000 });
  let taskId: string | undefined;
  for await (const ev of stream.events()) {
    const id = isObject(ev.json) && isObject(ev.json.result) ? ev.json.result.id : undefined;
    if (typeof id === 'string') taskId = id;
    break;
  }
  if (taskId === undefined) {
    await stream.close();
    return undefined;
  }
  const reason = `${reasonText} ${randomUUID()}`;
  const ex = await c.rpc('tasks/cancel', { taskId, reason });
  const result = resultOf(ex);
  // Met its system timeout while the cancel waited on a slow or rate-limited agent: no sample.
  const ended = result === undefined ? endedBefore(c, { taskId, stream }, ex) : undefined;
  if (ended !== undefined) {
    c.info(`no running task was cancelled: ${ended}`);
    await stream.close();
    return undefined;
  }
  const transcript = result === undefined ? await stream.close() : await stream.done;
  return result === undefined && !useDirective ? undefined : { taskId, reason, ex, result, transcript };
}
