// The one way a run starts: the bundled reference server when no target is given, the run's frozen
// settings (run-settings.ts) and its state (run-state.ts), the probe, and the pace and task cap the
// card sets. runResolved() starts here, and so does the suites' own global setup (vitest run directly).
import { interruptedBy, interruptionOf } from '../../core/interrupt.ts';
import { Governor } from '../io/traffic/governor.ts';
import { newTally, type TrafficTally } from '../io/traffic/tallies.ts';
import type { ResolvedRunOptions } from '../options.ts';
import type { ProvidedRun } from '../provided.ts';
import { startBundledTarget } from './bundled-target.ts';
import { probeTarget, type ProbeOutcome } from './probe.ts';
import { runSettings } from './run-settings.ts';
import { RunState } from './run-state.ts';
import { paceFor, taskCapFor } from './traffic.ts';

export interface StartedRun {
  /** The run's settings and what the runner decided so far: the probe's card, pace and task cap. */
  state: RunState;
  probe: ProbeOutcome;
  /** The probe's own traffic (it goes through the run's pace like every request). */
  probeTally: TrafficTally;
  /** Stops the bundled reference server, when one was started. */
  close: () => Promise<void>;
}

/**
 * `onTarget` is called once the target is known, before the probe (the run's first log line); `log`
 * gets the probe's console lines (a cold start waited for).
 */
export async function startRun(
  opts: ResolvedRunOptions,
  onTarget: (run: ProvidedRun) => void = () => undefined,
  /** An interrupt of the run (core/interrupt.ts): the probe ends with it. */
  interrupt?: AbortSignal,
  log?: (line: string) => void,
  /** When the run started (epoch ms): its --budget-ms counts from it, the probe's turn included. */
  startedAt: number = Date.now(),
): Promise<StartedRun> {
  const bundled = opts.target === undefined ? await startBundledTarget(opts.agentId) : undefined;
  const state = new RunState(runSettings(opts, bundled), { card: null, field: { pace: opts.rate ?? null } });
  const close = async (): Promise<void> => {
    await bundled?.close();
  };
  try {
    onTarget(state.run);
    const probeTraffic = { governor: new Governor(state.run.field), tally: newTally() };
    const probe = await untilInterrupted(
      probeTarget({ ...state.run, coldStartMs: opts.coldStartMs }, probeTraffic, {
        measureTurn: true,
        endsAt: startedAt + opts.budgetMs,
        ...(log === undefined ? {} : { log }),
      }),
      interrupt,
    );
    state.decide({
      card: probe.card,
      field: {
        pace: paceFor(opts, probe.card),
        taskCap: taskCapFor(probe.card),
        ...(probe.turnLatencyMs === undefined ? {} : { probedTurnMs: probe.turnLatencyMs }),
      },
    });
    return { state, probe, probeTally: probeTraffic.tally, close };
  } catch (e) {
    await close();
    throw e;
  }
}

/**
 * The probe, or, when the run is interrupted first, an outcome that says so at once (its requests
 * are left to their own deadline: the run ends without them).
 */
async function untilInterrupted(
  probe: Promise<ProbeOutcome>,
  interrupt: AbortSignal | undefined,
): Promise<ProbeOutcome> {
  if (interrupt === undefined) return probe;
  const started = Date.now();
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<ProbeOutcome>((resolve) => {
    onAbort = () => {
      const message = `${interruptedBy(interruptionOf(interrupt)!)} before the probe ended`;
      resolve({
        reachability: { reachable: false, authenticated: false, message, durationMs: Date.now() - started },
        card: null,
        couldNotRun: message,
      });
    };
    if (interrupt.aborted) onAbort();
    else interrupt.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([probe, aborted]);
  } finally {
    interrupt.removeEventListener('abort', onAbort!);
  }
}
