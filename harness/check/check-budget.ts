// A check's budget: the race of its work against the budget (less the time the agent took, which
// it does not count) and against the run's budget end, and what it was waiting on when it ended.
// Serves run-check.ts; every requirement's check runs under it.
import { performance } from 'node:perf_hooks';
import { RunBudgetError, type TrafficGovernor } from '../io/traffic/governor.ts';
import { turnsInProgressMs, type TrafficTally } from '../io/traffic/tallies.ts';
import { pacedLengthsMs } from './agent-time.ts';

/** What a check was waiting on when its budget ended: the agent's sender, the agent's limits, or nothing of the agent's. */
export type WaitingOn = 'deliveries' | 'limits' | undefined;

export class BudgetSpent extends Error {
  constructor(
    readonly budgetMs: number,
    /** What the check was waiting on when its budget ended (undefined: its own code). */
    readonly waitingOn: WaitingOn,
  ) {
    super(`the check exceeded its budget of ${budgetMs} ms`);
  }
}

/**
 * Time a check's budget does not count beside the governor's: waits it planned (a system timeout),
 * time it stood aside for a check that needs the agent idle, waited on what another check makes for
 * it (a shared sample: that check's budget counts the making) or on what c.scaled() grew by the
 * agent's turns (counted while it lasts, so a long one never spends the budget before it ends).
 */
export class Planned {
  ms = 0;
  private pausing = 0;
  private since = 0;

  pausedMs(): number {
    return this.pausing > 0 ? performance.now() - this.since : 0;
  }

  /** The next `ms` are the agent's (what c.scaled() grew a length by for its turns): not the check's. */
  hold(ms: number): void {
    if (ms <= 0) return;
    void this.paused(new Promise<void>((resolve) => setTimeout(resolve, ms).unref()));
  }

  /** Waits at once count once. */
  async paused<T>(wait: Promise<T>): Promise<T> {
    if (this.pausing === 0) this.since = performance.now();
    this.pausing += 1;
    try {
      return await wait;
    } finally {
      this.pausing -= 1;
      if (this.pausing === 0) this.ms += performance.now() - this.since;
    }
  }
}

/**
 * Races the check against its budget. Time the run spent held back by the governor (the pace,
 * Retry-After) is the agent's limit, and time its requests to message/send and message/stream took
 * is the agent's thinking,
 * not the check's slowness: the budget is extended by both.
 */
export function withBudget(
  work: Promise<void>,
  ms: number,
  controller: AbortController,
  agentTime: () => number,
  waitingOn: () => WaitingOn,
  runEnd?: RunEnd,
): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  let endTimer: NodeJS.Timeout | undefined;
  let credited = agentTime();
  const budget = new Promise<never>((_, reject) => {
    const expire = (): void => {
      const owed = agentTime() - credited;
      if (owed > 0) {
        credited += owed;
        timer = setTimeout(expire, Math.max(owed, 100));
        return;
      }
      // Read before the abort ends the waits.
      const spent = new BudgetSpent(ms, waitingOn());
      controller.abort();
      reject(spent);
    };
    timer = setTimeout(expire, ms);
  });
  let toldAt = -Infinity;
  const ended = new Promise<never>((_, reject) => {
    if (runEnd === undefined) return;
    const look = (): void => {
      const now = Date.now();
      const left = runEnd.endsAt - now;
      if (left > 0 || runEnd.unanswered() > 0) {
        if (left <= 0 && runEnd.outlived !== undefined && now - toldAt >= OUTLIVED_EVERY_MS) {
          toldAt = now;
          runEnd.outlived();
        }
        endTimer = setTimeout(look, Math.min(Math.max(left, RUN_END_POLL_MS), MAX_TIMER_MS));
        return;
      }
      controller.abort();
      reject(new RunBudgetError());
    };
    look();
  });
  // A check still running after its budget must not surface later as an unhandled rejection.
  work.catch(() => undefined);
  return Promise.race([work, budget, ended]).finally(() => {
    clearTimeout(timer);
    clearTimeout(endTimer);
  });
}

/** The run's budget end (FieldSettings.budget) and what the check still waits for of the target. */
export interface RunEnd {
  endsAt: number;
  /** Requests the check sent that the target has not answered (ClientPool.unanswered). */
  unanswered: () => number;
  /** CheckSpec.outlivesRun. */
  outlived?: (() => void) | undefined;
}

// How often a check still running after the run's budget ended looks whether the target has answered
// everything it sent (it then ends not-exercised: a sleep or a wait of its own would outlast the
// runner's grace). A check that waits on an answer is left to the answer; one the target never gives
// outlasts the grace, and the runner ends the run as one that could not be done.
const RUN_END_POLL_MS = 50;
// How often a check still waiting on the target after the run's budget tells so (CheckSpec.outlivesRun).
const OUTLIVED_EVERY_MS = 1_000;
// setTimeout's longest delay; a later end is looked at again when it fires.
const MAX_TIMER_MS = 2_147_483_647;

/**
 * Time the agent took that the check's budget does not count (the pace, scripted lengths grown by
 * it, turns answered and in progress, planned waits). It never goes back: a figure that fell (a
 * turn in progress counted to its headers, then to its first event once its stream ends) would
 * take back time a budget or a wait's bound was already given.
 */
export function agentTimeOf(governor: TrafficGovernor, tally: TrafficTally, planned: Planned): () => number {
  let shown = 0;
  return () => {
    const now =
      governor.heldBackMs() +
      pacedLengthsMs() +
      tally.agentMs +
      turnsInProgressMs(tally) +
      planned.ms +
      planned.pausedMs();
    shown = Math.max(shown, now);
    return shown;
  };
}
