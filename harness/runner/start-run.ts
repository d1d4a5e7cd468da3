// The one way a run starts: the bundled reference server when no target is given, the run's frozen
// settings (run-settings.ts) and its state (run-state.ts), the probe, and the pace and task cap the
// card sets. runResolved() starts here, and so does the suites' own global setup (vitest run directly).
import { Governor } from '../io/governor.ts';
import { newTally, type TrafficTally } from '../io/tallies.ts';
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

/** `onTarget` is called once the target is known, before the probe (the run's first log line). */
export async function startRun(
  opts: ResolvedRunOptions,
  onTarget: (run: ProvidedRun) => void = () => undefined,
): Promise<StartedRun> {
  const bundled = opts.target === undefined ? await startBundledTarget(opts.agentId) : undefined;
  const state = new RunState(runSettings(opts, bundled), { card: null, field: { pace: opts.rate ?? null } });
  const close = async (): Promise<void> => {
    await bundled?.close();
  };
  try {
    onTarget(state.run);
    const probeTraffic = { governor: new Governor(state.run.field), tally: newTally() };
    const probe = await probeTarget(state.run, probeTraffic, { measureTurn: true });
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
