// What an agent turn is (spec 4.1, 4.2): a request that creates a task, a well-formed message/send or
// message/stream an agent takes to its LLM. A malformed one is refused before any LLM call: no turn,
// no task slot (spec 8 limits.concurrentTasks). One definition for the harness and the field bench.
import { isFinalState } from '../../../schemas/error-codes.ts';
import { isObject } from '../../../schemas/json.ts';
import { conforms } from '../../../schemas/registry.ts';

/** The methods whose request creates a task (spec 4.1, 4.2). */
export const TURN_METHODS: ReadonlySet<string> = new Set(['message/send', 'message/stream']);

/** A JSON-RPC request (parsed) that an agent takes to its LLM: a turn method with well-formed params. */
export function isAgentTurnRequest(request: unknown): boolean {
  return (
    isObject(request) && TURN_METHODS.has(request.method as string) && conforms('jsonrpc-request', request)
  );
}

/** The same for a request body as sent (JSON text); a body that is not JSON is no turn. */
export function isAgentTurnBody(body: string | Buffer | undefined): boolean {
  if (body === undefined) return false;
  const text = body.toString();
  // Cheap first: no turn method named, no need to parse (most raw bodies are malformed on purpose).
  if (!/"message\/(?:send|stream)"/.test(text)) return false;
  try {
    return isAgentTurnRequest(JSON.parse(text) as unknown);
  } catch {
    return false;
  }
}

/**
 * Whether the agent's answer to a turn shows a task was made: a 2xx answer carrying a `result` (a
 * Task, spec 2.7). An error (invalid params, a credential refused, rate limited) made none, and that
 * request was no turn after all.
 */
export function answerMadeTask(status: number, json: unknown): boolean {
  return status >= 200 && status < 300 && isObject(json) && isObject(json.result);
}

/**
 * Whether a stream event (parsed) says the task no longer runs: `final` true, a final state (spec 3,
 * rule 1) or a JSON-RPC error. The agent's slot is free from then on, whatever the stream does next.
 */
export function eventEndsTask(event: unknown): boolean {
  if (!isObject(event)) return false;
  if (event.error !== undefined) return true;
  const result = event.result;
  if (!isObject(result)) return false;
  return result.final === true || (isObject(result.status) && isFinalState(result.status.state));
}

/**
 * A task-making request's budget is never below this many of the agent's measured turns: a turn a
 * little longer than the one measured (an LLM's turns vary) is still waited for whole.
 */
export const TURN_BUDGET_MULTIPLE = 2;

/**
 * The budget of a task-making request (a deadline, or an SSE budget): `baseMs` (--timeout-ms, or the
 * stream's own budget) plus the agent's measured turn, and never below TURN_BUDGET_MULTIPLE turns. So
 * an agent whose turns take longer than --timeout-ms is answered in full, never cut by the harness
 * and graded for it. No measured turn: `baseMs`.
 */
export function turnBudgetMs(baseMs: number, turnMs: number): number {
  if (turnMs <= 0) return baseMs;
  return Math.max(baseMs + turnMs, TURN_BUDGET_MULTIPLE * turnMs);
}
