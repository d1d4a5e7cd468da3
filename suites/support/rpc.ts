// JSON-RPC as the suites write and read it (spec 2.1, 2.2, 4.8, 7): a fresh request id, the cheapest
// valid call, and readers of a response that return what is there, typed loosely, so a check can
// record the actual value even when the target sent something malformed. An answer may come as plain
// JSON or as the first event of an SSE stream (C-26), and each SSE event carries one response (4.2).
import { randomUUID } from 'node:crypto';
import type { AnsweredExchange, CheckContext, Exchange, SseEvent } from '../../harness/check/index.ts';
import { isObject, type JsonObject } from '../../schemas/json.ts';
import { requireObject } from './schemas.ts';

export { basePathOf } from '../../harness/check/index.ts';
export type { JsonObject };

/** agent/authenticatedExtendedCard (spec 4.8): answered without a task, params optional. */
export const CARD = 'agent/authenticatedExtendedCard';

/** A request id no other request of the run uses. */
export function requestId(): string {
  return `conf-${randomUUID()}`;
}

export interface RpcResponse {
  jsonrpc?: unknown;
  id?: unknown;
  result?: unknown;
  error?: { code?: unknown; message?: unknown; data?: unknown };
}

/** The response object, or undefined when the body is not a JSON object. */
export function responseOf(ex: AnsweredExchange): RpcResponse | undefined {
  return isObject(ex.response.json) ? (ex.response.json as RpcResponse) : undefined;
}

/**
 * The response object, required: a body that is no JSON object ends the check failed (the body's JSON
 * type is recorded; the body itself is in the exchange evidence), since no envelope check means
 * anything then.
 */
export function requireResponse(c: CheckContext, ex: AnsweredExchange): RpcResponse {
  return requireObject(c, 'type of the response body', ex.response.json) as RpcResponse;
}

/** The error member when it is an object. */
export function errorOf(ex: AnsweredExchange): RpcResponse['error'] | undefined {
  const error = responseOf(ex)?.error;
  return isObject(error) ? error : undefined;
}

/** The `result` member when it is an object. */
export function resultOf(ex: AnsweredExchange): JsonObject | undefined {
  const result = responseOf(ex)?.result;
  return isObject(result) ? result : undefined;
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

/** The result of one SSE event, when it is a JSON-RPC success response with an object result. */
export function resultOfEvent(ev: SseEvent | undefined): JsonObject | undefined {
  const json = ev?.json;
  return isObject(json) && isObject(json.result) ? json.result : undefined;
}

/**
 * When the request left the harness (epoch ms): after any wait on the agent's pace, a Retry-After or
 * a task slot, so a time measured from it (a delivery's lag) is the agent's, never the harness's.
 */
export function sentAt(ex: Pick<Exchange, 'timings'>): number {
  return Date.parse(ex.timings.startedAt);
}

/** When the answer was in (a stream's: when it ended), epoch ms. */
export function answeredAt(ex: Pick<Exchange, 'timings'>): number {
  return sentAt(ex) + ex.timings.totalMs;
}
