// Builders of message params (spec 2.3-2.6) and readers of task results (2.7, 2.8) shared by the
// suites, plus the `a2a:directive` contract (docs/directives.md) with its honour probe, so a check
// that needs scripted behaviour reports not-exercised on an agent that does not implement it.
import { randomUUID } from 'node:crypto';
import type { AnsweredExchange, CheckContext } from '../../harness/check/index.ts';
import { FINAL_STATES as TASK_FINAL_STATES } from '../../schemas/error-codes.ts';
import { isObject, type JsonObject } from '../../schemas/json.ts';
import { responseOf } from './rpc-response.ts';

export type { JsonObject };

export interface DirectiveFields {
  delayMs?: number;
  progressSteps?: number;
  fail?: string;
  runUntilCanceled?: boolean;
  finishOnCancel?: boolean;
  echoFiles?: boolean;
  turn?: boolean;
  /** Fault fields (docs/directives.md): the task refuses resubscription while live. */
  streamable?: boolean;
  /** The task fails after its first event; the stream carries a JSON-RPC error event. */
  streamError?: boolean;
  /** message/send and message/stream answer -32603 and create no task. */
  internalError?: boolean;
}

/** The final states (spec 3) as a list, for `is.oneOf`. */
export const FINAL_STATES: readonly string[] = Object.freeze([...TASK_FINAL_STATES]);

export function textPart(text: string): JsonObject {
  return { type: 'text', text };
}

export function filePart(name: string, mimeType: string, content: Buffer | string): JsonObject {
  const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  return { type: 'file', file: { name, mimeType, bytes: bytes.toString('base64') } };
}

/** The text part that carries a directive (docs/directives.md section 1). */
export function directivePart(fields: DirectiveFields): JsonObject {
  return textPart(`a2a:directive ${JSON.stringify(fields)}`);
}

/** A request Message (2.3): role user, a fresh UUID v4 messageId, the given parts. */
export function userMessage(parts: readonly JsonObject[]): JsonObject {
  return { role: 'user', messageId: randomUUID(), parts: [...parts] };
}

/** message/send or message/stream params (2.6); `extra` adds contextId, sessionId or id. */
export function messageParams(parts: readonly JsonObject[], extra: JsonObject = {}): JsonObject {
  return { message: userMessage(parts), ...extra };
}

/** The `result` member when it is an object. */
/** message/send of a text-only message; the raw exchange, for checks that read the answer loosely. */
export function sendText(c: CheckContext, text: string, extra: JsonObject = {}): Promise<AnsweredExchange> {
  return c.rpc('message/send', messageParams([textPart(text)], extra));
}

export function resultOf(ex: AnsweredExchange): JsonObject | undefined {
  const result = responseOf(ex)?.result;
  return isObject(result) ? result : undefined;
}

export function statusOf(task: JsonObject | undefined): JsonObject | undefined {
  return isObject(task?.status) ? task.status : undefined;
}

export function stateOf(task: JsonObject | undefined): unknown {
  return statusOf(task)?.state;
}

/** The concatenated text of the reply's text parts (2.8 status.message), or undefined. */
export function replyText(task: JsonObject | undefined): string | undefined {
  const message = statusOf(task)?.message;
  if (!isObject(message) || !Array.isArray(message.parts)) return undefined;
  const texts = message.parts.filter((p): p is JsonObject => isObject(p) && typeof p.text === 'string');
  return texts.map((p) => p.text as string).join('\n');
}

/** message/send that must yield a Task object; anything else ends the check as failed. */
export async function sendTask(
  c: CheckContext,
  parts: readonly JsonObject[],
  extra: JsonObject = {},
): Promise<{ ex: AnsweredExchange; task: JsonObject }> {
  const ex = await c.rpc('message/send', messageParams(parts, extra));
  const task = resultOf(ex);
  c.require('message/send result is a Task object', task === undefined ? responseOf(ex) : 'object', 'object');
  return { ex, task: task! };
}

/** tasks/get of one task; undefined when the answer has no result object. */
export async function getTask(c: CheckContext, taskId: string): Promise<JsonObject | undefined> {
  return resultOf(await c.rpc('tasks/get', { taskId }));
}

/**
 * Polls tasks/get until `accept(state)` holds or the budget is spent. Returns the last task seen.
 * 20 ms between polls: fast enough for directive timelines of a few hundred ms, light on the target.
 */
export async function waitForTask(
  c: CheckContext,
  taskId: string,
  accept: (state: unknown) => boolean,
  timeoutMs = 5_000,
): Promise<JsonObject | undefined> {
  // The window grows with the agent's turn latency (c.scaled): a state not seen in it is no finding.
  const deadline = Date.now() + c.scaled(timeoutMs);
  let last: JsonObject | undefined;
  for (;;) {
    last = await getTask(c, taskId);
    if (accept(stateOf(last)) || Date.now() >= deadline || c.signal.aborted) return last;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const honourByTarget = new Map<string, Promise<boolean>>();

/**
 * Whether the target honours the directive contract: a `turn` directive must come back as the
 * documented reply lines. Probed once per target per suite file.
 */
export function directivesHonoured(c: CheckContext): Promise<boolean> {
  const key = `${c.target.baseUrl} ${c.target.agentId}`;
  let probe = honourByTarget.get(key);
  if (probe === undefined) {
    probe = probeDirectives(c);
    honourByTarget.set(key, probe);
  }
  return probe;
}

async function probeDirectives(c: CheckContext): Promise<boolean> {
  const ex = await c.client.rpc(
    'message/send',
    messageParams([textPart('probe'), directivePart({ turn: true })]),
  );
  const text = ex.response === undefined ? undefined : replyText(resultOf(ex as AnsweredExchange));
  return text !== undefined && text.startsWith('echo "probe"') && /\nturn 1(\n|$)/.test(text);
}

/**
 * For a check that reads the reply of a plain message: the agent may end the task failed or canceled
 * instead (spec 3 "agent errors"; C-51, an agent in maintenance), and then the check cannot show
 * what it checks: it ends not-exercised, saying so.
 */
export function requireCompletedTask(c: CheckContext, task: JsonObject | undefined, what: string): void {
  const state = stateOf(task);
  if (state === 'failed' || state === 'canceled') {
    c.notExercised(`${what} ended ${state}, not completed: there is no reply to read`);
  }
}

/** Ends the check as not-exercised when the target does not implement docs/directives.md. */
export async function requireDirectives(c: CheckContext, why: string): Promise<void> {
  if (!(await directivesHonoured(c))) {
    c.notExercised(
      `${why} needs the a2a:directive contract (docs/directives.md), which the target does not honour`,
    );
  }
}
