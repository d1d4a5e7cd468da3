// How the target client treats an agent turn (agent-turn.ts says what one is): which requests are
// turns, a stream's task slot held until its task ends, a turn's stream budgets grown by the turn
// allowance, and a raw body that names a turn method (the agent's time, not the check's).
import { eventEndsTask, isAgentTurnBody, isAgentTurnRequest, turnBudgetMs } from './agent-turn.ts';
import type { RequestSpec } from './request-spec.ts';
import { SSE_DEFAULTS, type SseStream } from './sse-reader.ts';
import type { StreamTranscript } from '../../../core/evidence.ts';
import type { StreamOptions } from './target-client-options.ts';

/** A request that creates a task: a well-formed message/send or message/stream POSTed (agent-turn.ts). */
export function isTurn(spec: RequestSpec): boolean {
  if (spec.method !== 'POST') return false;
  return spec.envelope !== undefined ? isAgentTurnRequest(spec.envelope) : isAgentTurnBody(spec.body);
}

/** The task slot of a stream's turn is free at the task's final event, or when the stream ends. */
export function holdUntilTaskEnds(s: SseStream, release: () => void): void {
  void s.done.then(release);
  void (async () => {
    for await (const ev of s.events()) {
      if (eventEndsTask(ev.json)) return release();
    }
  })().catch(release);
}

/** A raw body that calls message/send or message/stream (well-formed or not): the agent's time, not the check's. */
export function namesTurnMethod(body: string | Buffer | undefined): boolean {
  if (body === undefined || body.length > 65_536) return false;
  return /"method"\s*:\s*"message\/(?:send|stream)"/.test(body.toString());
}

/**
 * A body that scripts its task (an `a2a:directive` part, docs/directives.md: a delay, a task run until
 * canceled): its stream's final event comes when the script says, not when the agent's turn ends.
 */
export function scriptsItsTask(body: string | Buffer | undefined): boolean {
  if (body === undefined || body.length > 65_536) return true;
  return body.toString().includes('a2a:directive');
}

/**
 * How long a stream's turn took: to its final event when the request scripts nothing (an agent may
 * announce its task at once and end it after its turn, a model's call), else to its first event.
 */
export function streamTurnMs(t: StreamTranscript, body: string | Buffer | undefined): number {
  const first = t.events[0]?.atMs ?? t.headersMs ?? 0;
  const final = t.finalIndex === null ? undefined : t.events[t.finalIndex];
  return final === undefined || scriptsItsTask(body) ? first : Math.max(first, final.atMs);
}

/**
 * A stream's budgets: grown by the turn allowance (slowAgentBudgets) for a task-creating stream and
 * for a tasks/resubscribe, which watches the rest of a task (an agent that announces its task at once
 * works its turn after); as given for any other.
 */
export function streamBudgetsOf(
  method: string,
  turn: boolean,
  opts: StreamOptions,
  allowanceMs: number,
): StreamOptions {
  return turn || method === 'tasks/resubscribe' ? slowAgentBudgets(opts, allowanceMs) : opts;
}

/** A task-creating stream's budgets (first event, idle, total), grown by turnAllowance(). */
function slowAgentBudgets(opts: StreamOptions, allowanceMs: number): StreamOptions {
  if (allowanceMs <= 0) return opts;
  return {
    ...opts,
    firstEventMs: turnBudgetMs(opts.firstEventMs ?? SSE_DEFAULTS.firstEventMs, allowanceMs),
    idleMs: turnBudgetMs(opts.idleMs ?? SSE_DEFAULTS.idleMs, allowanceMs),
    totalMs: turnBudgetMs(opts.totalMs ?? SSE_DEFAULTS.totalMs, allowanceMs),
  };
}
