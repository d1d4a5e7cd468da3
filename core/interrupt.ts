// A run stopped from outside (Ctrl+C: SIGINT; a CI cancel: SIGTERM): the runs of every role end early,
// keep what they decided, mark the rest not-exercised and exit 128 + the signal's number, as a shell
// reports a process a signal ended. The CLI turns the signals into an AbortSignal (harness/cli/interrupts.ts).
import type { RequirementResult, RunResult } from './types.ts';

export type InterruptSignal = 'SIGINT' | 'SIGTERM';

export interface Interruption {
  signal: InterruptSignal;
  /** 130 for SIGINT, 143 for SIGTERM (128 + the signal's number). */
  exitCode: 130 | 143;
}

export const INTERRUPT_EXIT_CODES = Object.freeze({ SIGINT: 130, SIGTERM: 143 } as const);

export function interruption(signal: InterruptSignal): Interruption {
  return { signal, exitCode: INTERRUPT_EXIT_CODES[signal] };
}

/**
 * The interruption an aborted signal carries: its reason when the CLI aborted it, else (a caller of
 * the API aborting with a reason of its own) as Ctrl+C; undefined while it is not aborted.
 */
export function interruptionOf(signal: AbortSignal | undefined): Interruption | undefined {
  if (signal?.aborted !== true) return undefined;
  const reason = signal.reason as Partial<Interruption> | undefined;
  return reason?.signal === 'SIGTERM' ? interruption('SIGTERM') : interruption('SIGINT');
}

/** How a result and the console name it: `interrupted (SIGINT)`. */
export function interruptedBy(i: Interruption): string {
  return `interrupted (${i.signal})`;
}

/** The exit of a run a signal ended: 130 or 143, saying how many verdicts were decided and how many not. */
export function interruptedExit(
  i: Interruption,
  requirements: readonly Pick<RequirementResult, 'verdict'>[],
): Pick<RunResult, 'exitCode' | 'exitReason'> {
  const open = requirements.filter((r) => r.verdict === 'not-exercised').length;
  return {
    exitCode: i.exitCode,
    exitReason: `${interruptedBy(i)}: ${requirements.length - open} requirement(s) decided, ${open} not exercised`,
  };
}

/** Why a requirement has no verdict in an interrupted run. */
export function interruptedMessage(i: Interruption): string {
  return `not exercised: the run was ${interruptedBy(i)} before this requirement's checks ended`;
}
