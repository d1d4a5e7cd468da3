// Agent time: how long what a check scripts or watches lasts on this agent. A length tuned on a fast,
// unpaced agent grows by the turn latency and the pace waits this run has shown (scaledToAgent), no
// further than the card's system timeout allows (C-05); the pace's part is held apart from the
// checks' budgets (pacedLengthsMs); the waits a check plans beyond its budget stay within --max-wait.
import { cardLimit } from '../capabilities.ts';
import type { TrafficTally } from '../io/traffic/tallies.ts';
import { WaitClock } from '../io/traffic/tallies.ts';
import { paceIntervalMs } from '../io/traffic/pace.ts';
import type { ProvidedRun } from '../provided.ts';
import type { CheckRecorder } from './recorder.ts';
import { runGovernor } from './run-governor.ts';

// Why two turns: a scripted length must outlast the harness's next request reaching the agent after
// it heard of the task (one answer on its way back, the request on its way in), each of which a
// slow agent (a model call per turn, a loaded gateway) takes about a turn's time for. Why one pace
// wait: that next request also waits for its turn on the agent's pace before it leaves, and under a
// window the run keeps full that is the longest wait of the pace's last window (a whole burst of
// other requests let out before it).
export const TURNS_PER_SCRIPTED_LENGTH = 2;
export const PACE_WAITS_PER_SCRIPTED_LENGTH = 1;

/** What this run has shown of the agent, as scaledToAgent() reads it. */
export interface AgentTimes {
  /** TrafficGovernor.turnAllowanceMs(): recent turns' answer time (95th percentile). */
  turnLatencyMs: number;
  /** TrafficGovernor.paceWaitMs(): the longest a request lately waited on the pace before it left. */
  paceWaitMs?: number | undefined;
  /** The card's limits.systemTimeoutMs (C-05), when it advertises one. */
  systemTimeoutMs?: number | undefined;
  /**
   * Ms left before the run's deadline (its budget: no paced wait ends after it), when it has one:
   * what the pace adds never reaches past it. A length cut there ends no later than the run's own
   * waits, whose next request is then refused (not-exercised), so the run still ends by itself.
   */
  untilDeadlineMs?: number | undefined;
}

/**
 * `ms`, a length tuned on an agent that answers at once and is not paced, grown by what this run
 * has shown of the agent: ms + 2 × turnLatencyMs + paceWaitMs (the pace's part no further than the
 * run's deadline). Never shorter than `ms`; grown no
 * further than half the agent's system timeout when it advertises one (C-05: a scripted task longer
 * than that would be canceled by the agent before it could end as scripted). On a fast agent the run
 * never waited for, `ms` itself.
 */
export function scaledToAgent(ms: number, agent: AgentTimes): number {
  const pace = PACE_WAITS_PER_SCRIPTED_LENGTH * Math.max(0, agent.paceWaitMs ?? 0);
  const grown =
    ms +
    TURNS_PER_SCRIPTED_LENGTH * Math.max(0, agent.turnLatencyMs) +
    Math.min(pace, Math.max(0, agent.untilDeadlineMs ?? Infinity));
  const timeout = agent.systemTimeoutMs;
  const cap = timeout === undefined ? Infinity : Math.max(ms, timeout / 2);
  return Math.round(Math.min(grown, cap));
}

// What c.scaled added for the pace, held from the moment it was asked: a check waiting out a script
// (or another check's sample made of one) grown by the pace is held back by the agent's pace as
// surely as a request waiting on it, though no request may be waiting meanwhile (the other workers
// wait out their scripts too). Per worker: the checks that share a sample run in one.
const pacedLengths = new WaitClock();

function holdForPace(ms: number): void {
  if (ms <= 0) return;
  setTimeout(pacedLengths.start(), ms).unref();
}

/**
 * Wall time during which a length or window c.scaled grew by the agent's pace ran in this worker:
 * like the governor's heldBackMs(), no check's budget spends it (run-check.ts).
 */
export function pacedLengthsMs(): number {
  return pacedLengths.ms();
}

/** The card's limits.systemTimeoutMs (the C-05 extension), when it is a positive number. */
export function systemTimeoutOf(card: Record<string, unknown> | null): number | undefined {
  return cardLimit(card, 'systemTimeoutMs');
}

/** The longest wait a check may plan without --max-wait. */
export const DEFAULT_MAX_WAIT_MS = 10_000;

/**
 * c.scaled(ms) for this run: ms grown by what the run has shown of the agent (scaledToAgent). What
 * the turns added is handed to `holdTurns` (the check's own budget does not spend it while it runs:
 * a check waiting out a length grown by the agent's turns waits on the agent), what the pace added
 * is held for the worker (pacedLengthsMs).
 */
export function scaledForRun(
  run: ProvidedRun,
  card: Record<string, unknown> | null,
  ms: number,
  holdTurns: (ms: number) => void = () => undefined,
): number {
  const governor = runGovernor(run);
  const unpaced = { turnLatencyMs: governor.turnAllowanceMs(), systemTimeoutMs: systemTimeoutOf(card) };
  const deadline = run.field.deadlineAt;
  const untilDeadlineMs = deadline === undefined ? undefined : deadline - Date.now();
  const scaled = scaledToAgent(ms, { ...unpaced, paceWaitMs: governor.paceWaitMs(), untilDeadlineMs });
  const byTurns = scaledToAgent(ms, unpaced);
  holdTurns(byTurns - ms);
  holdForPace(scaled - byTurns);
  return scaled;
}

/** c.pollIntervalMs() for this run: the pace's interval times the suite files that run at once. */
export function pollIntervalOf(run: ProvidedRun): number {
  const pace = run.field.pace;
  return pace === null ? 0 : Math.ceil(paceIntervalMs(pace) * (run.field.suiteWorkers ?? 1));
}

/**
 * c.planWait(ms, what): the check's budget grows by `ms` when the run allows such a wait (--max-wait;
 * DEFAULT_MAX_WAIT_MS without it), else the check ends not-exercised, naming the --max-wait that
 * would exercise it (and the run's tally counts the cut).
 */
export function planWait(
  run: ProvidedRun,
  ms: number,
  what: string,
  recorder: CheckRecorder,
  tally: TrafficTally | undefined,
  extendBudget: (ms: number) => void,
): void {
  const allowed = run.field.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
  if (ms > allowed) {
    const option = `--max-wait ${Math.ceil(ms / 60_000) + 1}m`;
    tally?.cuts.push({ what: 'waits longer than the run allows (e.g. a system timeout)', option });
    recorder.notExercised(
      `${what} needs a wait of ${Math.ceil(ms / 1000)} s, above the ${Math.round(allowed / 1000)} s this run waits (${option} would exercise it)`,
    );
  }
  extendBudget(ms);
}
