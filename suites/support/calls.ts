// One call of any method, read whichever way it answers (spec 4, 5; C-26: a refusal comes as plain
// JSON even on a streaming method), and whether the agent served it; a valid call of each section 4
// method (for the checks that try every method under one condition), and the answer's HTTP headers.
import {
  requireAnswer,
  type AnsweredExchange,
  type RpcOptions,
  type TargetClient,
} from '../../harness/check/index.ts';
import { METHODS } from '../../schemas/error-codes.ts';
import { isObject } from '../../schemas/json.ts';
import { messageParams, textPart } from './messages.ts';
import { CARD, type JsonObject } from './rpc.ts';

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
    const ex = requireAnswer(await client.rpc(method, params, opts));
    const json = ex.response.json;
    return {
      ex,
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
  // A reset, an answer cut short, a gateway's page: no answer (the check re-runs), never graded.
  if (ex?.error !== undefined && t.finalIndex === null) requireAnswer(ex);
  if (ex?.response === undefined || t.status === undefined) {
    throw new Error(`no answer to ${method}: ${t.error?.message ?? '?'}`);
  }
  const fromEvents = t.events.some((e) => isObject(e.json) && 'result' in e.json);
  const json = t.isEventStream ? t.events.map((e) => e.json) : t.json;
  const served = t.isEventStream ? fromEvents : isObject(json) && 'result' in json;
  return { ex: ex as AnsweredExchange, status: t.status, json, eventStream: t.isEventStream, served };
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

/** A response header of an exchange, its values joined (undefined when absent). */
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
