// Whether a task a check needed running had already ended on its own when the check's request (a
// cancel) reached it: on a rate-limited, slow or remote agent the request may wait seconds on the
// pace while the task finishes or meets the system timeout (C-05). Spec 3 (final states are terminal)
// and C-06/C-08 make a refusal then legal: the check could not hold its precondition (not-exercised).
import {
  methodOf as requestMethodOf,
  type CheckContext,
  type Exchange,
  type SseEvent,
  type SseStream,
} from '../../harness/check/index.ts';
import { isObject, type JsonObject } from '../../schemas/json.ts';
import { answeredAt, sentAt } from './rpc.ts';
import { isFinalState, stateOf, statusOf } from './tasks.ts';

/** One thing the harness heard of the task: its state, and when (epoch ms) the news arrived. */
interface Heard {
  state: unknown;
  reason: unknown;
  at: number;
  via: string;
}

// C-05: the reason of a task ended by the system timeout.
const SYSTEM_TIMEOUT = 'system timeout';

/**
 * The task (a tasks/get result) was ended by the agent's system timeout (C-05: canceled, reason
 * "system timeout"): a legal end whenever a check waited for another one, so no finding.
 */
export function endedBySystemTimeout(task: JsonObject | undefined): boolean {
  return stateOf(task) === 'canceled' && statusOf(task)?.reason === SYSTEM_TIMEOUT;
}

function methodOf(ex: Exchange): string {
  return requestMethodOf(ex) ?? 'request';
}

function taskOf(json: unknown, taskId: string): JsonObject | undefined {
  const result = isObject(json) ? json.result : undefined;
  return isObject(result) && result.id === taskId ? result : undefined;
}

function heardOf(task: JsonObject, at: number, via: string): Heard {
  return { state: stateOf(task), reason: statusOf(task)?.reason, at: Math.round(at), via };
}

function fromEvents(events: readonly SseEvent[], startedAt: number, taskId: string, via: string): Heard[] {
  return events.flatMap((ev) => {
    const task = taskOf(ev.json, taskId);
    return task === undefined ? [] : [heardOf(task, startedAt + ev.atMs, via)];
  });
}

/** Every state of `taskId` the check's client heard (answers and stream events), with arrival times. */
function heard(c: CheckContext, taskId: string, streams: readonly SseStream[]): Heard[] {
  const live = new Map(streams.map((s) => [s.transcript.exchangeId, s.transcript]));
  return c.client.exchanges().flatMap((ex) => {
    const startedAt = sentAt(ex);
    const method = methodOf(ex);
    const transcript = live.get(ex.id) ?? ex.transcript;
    if (ex.kind === 'stream' && transcript !== undefined) {
      return fromEvents(transcript.events, startedAt, taskId, `its ${method} events`);
    }
    const task = taskOf(ex.response?.json, taskId);
    return task === undefined ? [] : [heardOf(task, startedAt + ex.timings.totalMs, `a ${method} answer`)];
  });
}

/** A task the check keeps an eye on: its id and, when it was opened with message/stream, its stream. */
export interface WatchedTask {
  taskId: string;
  stream?: SseStream | undefined;
}

function answerSummary(ex: Exchange): string {
  const json = ex.response?.json;
  const error = isObject(json) && isObject(json.error) ? json.error.code : undefined;
  if (error !== undefined) return `error ${JSON.stringify(error)}`;
  return ex.response === undefined ? 'no answer' : `HTTP ${ex.response.status}`;
}

/**
 * What shows that the task ended on its own before `request` could act on it, or undefined: a final
 * state the harness heard before the request left it, or an end by the system timeout (C-05) heard
 * before the request's answer came back (the two crossed on the wire). Call it only when the answer
 * would otherwise be a finding (a refused cancel), never to skip a passing check.
 */
export function endedBefore(c: CheckContext, task: WatchedTask, request: Exchange): string | undefined {
  const left = sentAt(request);
  const answered = answeredAt(request);
  const streams = task.stream === undefined ? [] : [task.stream];
  const ended = heard(c, task.taskId, streams)
    .filter((h) => isFinalState(h.state))
    .sort((a, b) => a.at - b.at)[0];
  if (ended === undefined) return undefined;
  const first = ended.at <= left;
  if (!first && !(ended.reason === SYSTEM_TIMEOUT && ended.at <= answered)) return undefined;
  const reason = typeof ended.reason === 'string' ? ` (reason ${JSON.stringify(ended.reason)})` : '';
  const when = first
    ? `${left - ended.at} ms before the ${methodOf(request)} left the harness`
    : `while the ${methodOf(request)} was on its way (${answered - ended.at} ms before its answer)`;
  return (
    `the task was already ${String(ended.state)}${reason}, heard from ${ended.via} ${when}; ` +
    `the ${methodOf(request)} (answered ${answerSummary(request)}) found no running task (a slow or rate-limited agent)`
  );
}

/**
 * The check's last tasks/get of the task read a final state while the check needed it running: what
 * shows the task had ended on its own first (endedBefore of that read), or undefined. A read that
 * waited on a slow or rate-limited agent may arrive after the task met its system timeout (C-05).
 * Without such a read (the check watched the task's stream, awaitStateOf), a final event on the
 * stream before the check acted shows the same.
 */
export function readTooLate(c: CheckContext, task: WatchedTask): string | undefined {
  const reads = c.client
    .exchanges()
    .filter((ex) => methodOf(ex) === 'tasks/get' && taskOf(ex.response?.json, task.taskId) !== undefined);
  const last = reads.at(-1);
  const read = last === undefined ? undefined : taskOf(last.response?.json, task.taskId);
  if (last !== undefined) return isFinalState(stateOf(read)) ? endedBefore(c, task, last) : undefined;
  const t = task.stream?.transcript;
  if (t === undefined) return undefined;
  const ended = fromEvents(t.events, 0, task.taskId, 'its stream').find((h) => isFinalState(h.state));
  if (ended === undefined) return undefined;
  const reason = typeof ended.reason === 'string' ? ` (reason ${JSON.stringify(ended.reason)})` : '';
  return `the task was already ${String(ended.state)}${reason} on its stream before the check could act on it (a slow or rate-limited agent)`;
}
