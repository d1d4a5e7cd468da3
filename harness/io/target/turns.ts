// How the target client treats an agent turn (agent-turn.ts says what one is): which requests are
// turns, a stream's task slot held until its task ends, a turn's stream budgets grown by the turn
// allowance, and a raw body that names a turn method (the agent's time, not the check's).
import { eventEndsTask, isAgentTurnBody, isAgentTurnRequest, turnBudgetMs } from './agent-turn.ts';
import type { RequestSpec } from './request-spec.ts';
import { SSE_DEFAULTS, type SseStream } from './sse-reader.ts';
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

/** A task-creating stream's budgets (first event, idle, total), grown by turnAllowance(). */
export function slowAgentBudgets(opts: StreamOptions, allowanceMs: number): StreamOptions {
  if (allowanceMs <= 0) return opts;
  return {
    ...opts,
    firstEventMs: turnBudgetMs(opts.firstEventMs ?? SSE_DEFAULTS.firstEventMs, allowanceMs),
    idleMs: turnBudgetMs(opts.idleMs ?? SSE_DEFAULTS.idleMs, allowanceMs),
    totalMs: turnBudgetMs(opts.totalMs ?? SSE_DEFAULTS.totalMs, allowanceMs),
  };
}
