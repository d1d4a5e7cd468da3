// What the run's traffic counts: one tally for the run and one for each check (summed into
// RunResult.traffic, report.json's traffic.*), the turn budget (--max-turns), the clock of the time
// the agent's limits held the run back, and the turn latency that grows a slow agent's deadlines.
import { GovernorStop } from './governor-stop.ts';
import type { IoErrorKind } from '../../../core/evidence.ts';

/**
 * Counts of the transport faults met, by kind (report.json's traffic.faults; the kinds and their
 * policy are harness/io/target/faults.ts): each fault, the ones whose call was sent again, the ones
 * whose check was re-run from scratch; the rest were lost.
 */
export type FaultCounts = Partial<Record<IoErrorKind, { count: number; retried: number; reRun: number }>>;

/** Counts of one check's requests (or of the probe's); summed into RunResult.traffic by the runner. */
export interface TrafficTally {
  requests: number;
  /** Requests that create a task (message/send, message/stream): each is an LLM call on a real agent. */
  agentTurns: number;
  /** Milliseconds a task-creating request took to answer (headers of a stream, the body of a send). */
  turnLatencyMs: number[];
  /** Time spent waiting on the pace or on Retry-After. */
  waitedMs: number;
  /** Time the agent took on requests to message/send and message/stream, malformed ones included. */
  agentMs: number;
  /** Rate-limited answers seen (and resent) outside a client that bypasses pacing. */
  rateLimitedAnswers: number;
  /** Most requests in flight at once while this tally counted. */
  maxInFlight: number;
  /** Most task slots (agent turns in flight, limits.concurrentTasks) held at once when this tally took one. */
  maxTasksInFlight: number;
  /** Governor waits in progress for this tally. */
  waiting: number;
  /** Properties run: generated cases planned and run (the profile may cut them). */
  properties: Array<{ label: string; planned: number; runs: number }>;
  /** What the profile or a budget left out of this check, and the option that covers it. */
  cuts: Array<{ what: string; option: string }>;
  /** Transport faults met, by kind (harness/io/target/faults.ts); absent from a tally that met none. */
  faults?: FaultCounts;
}

export function newTally(): TrafficTally {
  return {
    requests: 0,
    agentTurns: 0,
    turnLatencyMs: [],
    waitedMs: 0,
    agentMs: 0,
    rateLimitedAnswers: 0,
    maxInFlight: 0,
    maxTasksInFlight: 0,
    waiting: 0,
    properties: [],
    cuts: [],
  };
}

// Turns of a check still waiting for their answer: the check's budget counts their time as the
// agent's (agentMs) while they last, not only once answered. Beside the tally, never in it: the
// tally is a record summed into the report.
const turnsInProgress = new WeakMap<TrafficTally, { count: number; startsMs: number }>();

/**
 * A request to message/send or message/stream leaves for the agent: until the returned function is
 * called (its answer counted in agentMs), its time so far is in turnsInProgressMs(tally).
 */
export function turnInProgress(tally: TrafficTally | undefined): () => void {
  if (tally === undefined) return () => undefined;
  const t0 = Date.now();
  const open = turnsInProgress.get(tally) ?? { count: 0, startsMs: 0 };
  open.count += 1;
  open.startsMs += t0;
  turnsInProgress.set(tally, open);
  let ended = false;
  return () => {
    if (ended) return;
    ended = true;
    open.count -= 1;
    open.startsMs -= t0;
  };
}

/** What the turns of `tally` still waiting for their answer have lasted so far, summed. */
export function turnsInProgressMs(tally: TrafficTally): number {
  const open = turnsInProgress.get(tally);
  return open === undefined || open.count === 0 ? 0 : open.count * Date.now() - open.startsMs;
}

/** The run's --max-turns is spent: what is left that needs a turn is not exercised. */
export class TurnBudgetError extends GovernorStop {
  constructor(maxTurns: number) {
    super(
      `turn budget spent: the run's ${maxTurns} agent turns (--max-turns) were spent before this check's`,
    );
    this.name = 'TurnBudgetError';
  }
}

/** Throws TurnBudgetError when a turn would go past the run's cap (null or undefined: none). */
export function checkTurnBudget(spent: number, maxTurns: number | null | undefined): void {
  if (maxTurns !== null && maxTurns !== undefined && spent >= maxTurns) throw new TurnBudgetError(maxTurns);
}

/** The traffic counts: each goes to every tally given (the run's and the check's, or a worker's check alone). */
export const count = {
  /** A request let out, with `inFlight` requests (itself included) in flight. */
  request(tallies: TrafficTally[], turn: boolean, inFlight: number): void {
    for (const t of tallies) {
      t.requests += 1;
      if (turn) t.agentTurns += 1;
      t.maxInFlight = Math.max(t.maxInFlight, inFlight);
    }
  },

  /** A request counted as a turn made no task (the agent refused it): uncounted. */
  notATurn(tallies: TrafficTally[]): void {
    for (const t of tallies) t.agentTurns -= 1;
  },

  /** A task-creating request's answer time. */
  turnAnswered(tallies: TrafficTally[], ms: number): void {
    for (const t of tallies) t.turnLatencyMs.push(ms);
  },

  rateLimited(tallies: TrafficTally[]): void {
    for (const t of tallies) t.rateLimitedAnswers += 1;
  },

  /** A task slot taken, with `held` slots (itself included) held. */
  tasksHeld(tallies: TrafficTally[], held: number): void {
    for (const t of tallies) t.maxTasksInFlight = Math.max(t.maxTasksInFlight, held);
  },

  waited(tallies: TrafficTally[], ms: number): void {
    for (const t of tallies) t.waitedMs += ms;
  },
};

/**
 * Wall time during which at least one wait was in progress: waits at once count once (the time the
 * agent's limits held the run back, which no check's budget spends).
 */
export class WaitClock {
  private waiters = 0;
  private since = 0;
  private heldMs = 0;

  /** A wait begins; the returned function ends it. */
  start(): () => void {
    if (this.waiters === 0) this.since = Date.now();
    this.waiters += 1;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.waiters -= 1;
      if (this.waiters === 0) this.heldMs += Date.now() - this.since;
    };
  }

  /** The waits so far, the one in progress included. */
  ms(): number {
    return this.heldMs + this.currentMs();
  }

  /** The wait in progress so far (0 when none is). */
  currentMs(): number {
    return this.waiters > 0 ? Date.now() - this.since : 0;
  }

  /** The part of the wait in progress after `from` (epoch ms; 0 when none is). */
  currentSinceMs(from: number): number {
    return this.waiters > 0 ? Math.max(0, Date.now() - Math.max(this.since, from)) : 0;
  }
}

const RECENT_TURNS = 50;

/**
 * What a slow agent adds to a turn: the 95th percentile of the last turns' answer times (`before`,
 * the probe's turn, until the first; else 0). Deadlines and first-event budgets of task-creating
 * requests grow by it, so an LLM agent's seconds per turn never turn into a harness error.
 */
export function turnAllowanceMs(turnLatencyMs: readonly number[], before = 0): number {
  const recent = turnLatencyMs.slice(-RECENT_TURNS).sort((a, b) => a - b);
  if (recent.length === 0) return Math.round(before);
  return Math.round(recent[Math.min(recent.length - 1, Math.floor(recent.length * 0.95))]!);
}
