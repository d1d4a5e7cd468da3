// The one way a run starts: the bundled reference server when no target is given, the run the
// suites' workers are handed (ProvidedRun), the probe, and the pace and task cap the card sets.
// runResolved() starts here, and so does the suites' own global setup (vitest run directly).
import { Governor } from '../io/governor.ts';
import { newTally, type TrafficTally } from '../io/tallies.ts';
import type { ResolvedRunOptions } from '../options.ts';
import type { ProvidedRun } from '../provided.ts';
import { startBundledTarget, type BundledTarget } from './bundled-target.ts';
import { probeTarget, type ProbeOutcome } from './probe.ts';
import { fieldSettings, paceFor, taskCapFor } from './traffic.ts';

export interface StartedRun {
  /** The run as the workers receive it, with the probe's card, pace and task cap. */
  provided: ProvidedRun;
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
  onTarget: (provided: ProvidedRun) => void = () => undefined,
  log?: (line: string) => void,
): Promise<StartedRun> {
  const bundled = opts.target === undefined ? await startBundledTarget(opts.agentId) : undefined;
  const provided = providedRun(opts, bundled);
  const close = async (): Promise<void> => {
    await bundled?.close();
  };
  try {
    onTarget(provided);
    const f = provided.field;
    const probeTraffic = { governor: new Governor(f), tally: newTally() };
    const probe = await probeTarget({ ...provided, coldStartMs: opts.coldStartMs }, probeTraffic, {
      measureTurn: true,
      ...(log === undefined ? {} : { log }),
    });
    provided.card = probe.card;
    f.pace = paceFor(opts, probe.card);
    f.taskCap = taskCapFor(probe.card);
    if (probe.turnLatencyMs !== undefined) f.probedTurnMs = probe.turnLatencyMs;
    return { provided, probe, probeTally: probeTraffic.tally, close };
  } catch (e) {
    await close();
    throw e;
  }
}

export function providedRun(opts: ResolvedRunOptions, bundled: BundledTarget | undefined): ProvidedRun {
  const auth: ProvidedRun['auth'] = {};
  if (opts.apiKey !== undefined) auth.apiKey = opts.apiKey;
  else if (opts.bearer !== undefined) auth.bearer = opts.bearer;
  const run: ProvidedRun = {
    baseUrl: bundled?.baseUrl ?? opts.target!,
    agentId: bundled?.agentId ?? opts.agentId!,
    auth: bundled?.auth ?? auth,
    card: null,
    timeoutMs: opts.timeoutMs,
    checkTimeoutMs: opts.checkTimeoutMs,
    seed: opts.seed,
    runs: opts.runs,
    webhookListen: opts.webhookListen,
    bundled: bundled !== undefined,
    field: fieldSettings(opts),
  };
  if (opts.webhookPublicUrl !== undefined) run.webhookPublicUrl = opts.webhookPublicUrl;
  if (Object.keys(opts.network).length > 0) run.network = opts.network;
  const alternate = bundled?.alternateAuth ?? alternateFromOptions(opts);
  if (alternate !== undefined) run.alternateAuth = alternate;
  return run;
}

/** Given both --api-key and --bearer, the key is the run's credential and the token the alternate. */
function alternateFromOptions(opts: ResolvedRunOptions): ProvidedRun['alternateAuth'] {
  return opts.apiKey !== undefined && opts.bearer !== undefined ? { bearer: opts.bearer } : undefined;
}
