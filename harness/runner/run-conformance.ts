// runResolved(): the run's top-level flow. Probe the target, run the selected suites and fold their
// verdicts per requirement (run-checks.ts), make the RunResult (run-result.ts), redact and trim it,
// and hand it to the caller's reporter hooks. A run that cannot be done exits 2, never passes; an
// interrupted one keeps what it decided and exits 130 or 143. The report files are written above
// this layer (harness/runs.ts).
import { redactResult } from '../../core/redaction.ts';
import { toolLabel } from '../../core/tool-label.ts';
import type { ResolvedRunOptions } from '../options.ts';
import type { FleetRunOptions } from '../../schemas/generated/types.ts';
import { secretsOf } from '../provided.ts';
import type { RunResult } from '../../core/types.ts';
import { interruptionOf } from '../../core/interrupt.ts';
import { loadBaseline } from './baseline.ts';
import type { ProgressListener } from '../../core/progress.ts';
import { dialectProbeLines } from '../analysis/dialect.ts';
import { agentPace } from './planner.ts';
import { interruptedBeforeChecks, notRun, runChecks } from './run-checks.ts';
import { runResultOf } from './run-result.ts';
import { selectForRun } from './select-requirements.ts';
import { startRun } from './start-run.ts';
import { TOOL } from './tool.ts';
import { summarizeTraffic, throttledOf } from './traffic.ts';
import { trimEvidence } from './trim-evidence.ts';

export type RunReporter = (result: RunResult) => void | Promise<void>;

/**
 * runConformance()'s options: the run options by their config-file names (FleetRunOptions, from
 * schemas/fleet-file.schema.json), the target and credentials a fleet sets per agent, and the hooks.
 */
export interface RunOptions extends FleetRunOptions {
  /** The service's base URL; absent: certify the bundled reference server. */
  target?: string;
  agentId?: string;
  apiKey?: string;
  bearer?: string;
  /** Headers whose values are secret (`Name: value`), sent on every request and redacted everywhere. */
  secretHeader?: string[];
  /** Base URLs of the replicas behind `target`, for the cross-replica checks (two or more). */
  replica?: string[];
  /** Directory for the report files (default ./reports); null writes none. */
  out?: string | null;
  /** File the run's events stream into, one JSON line each (`-`: stdout); absent: none. */
  events?: string;
  /** Called with the finished RunResult, before the report files are written. */
  reporters?: RunReporter[];
  /** Progress lines; silent by default. */
  log?: (line: string) => void;
  /** Structured progress (each check, each suite file); replaces the per-file log lines. */
  progress?: ProgressListener;
  /**
   * Ends the run early when aborted: no new request, the checks under way get a few seconds, the
   * rest are not-exercised, and the result's exitCode is 130 (143 when the reason is `{ signal: 'SIGTERM' }`).
   */
  signal?: AbortSignal;
}

export async function runResolved(
  opts: ResolvedRunOptions,
  reporters: RunReporter[],
  log: (line: string) => void,
  progress?: ProgressListener,
  /** Aborted by SIGINT or SIGTERM (core/interrupt.ts): the run ends early and keeps what it decided. */
  interrupt?: AbortSignal,
): Promise<RunResult> {
  const started = new Date();
  const selected = selectForRun(opts);
  const baseline = opts.baseline === undefined ? undefined : loadBaseline(opts.baseline);
  const run = await startRun(
    opts,
    (provided) => {
      log(
        `${toolLabel(TOOL)}: ${provided.baseUrl} agent ${provided.agentId}, ${selected.length} requirement(s)`,
      );
      progress?.({
        kind: 'start',
        tool: { ...TOOL },
        target: { baseUrl: provided.baseUrl, agentId: provided.agentId },
        requirements: selected.map((r) => ({ id: r.id, level: r.level })),
      });
    },
    interrupt,
    log,
    started.getTime(),
  );
  const { state, probe } = run;
  const provided = state.run;
  let result: RunResult;
  try {
    for (const line of dialectProbeLines(probe.dialectProbe)) log(line);
    const before = interruptionOf(interrupt);
    const checked =
      before !== undefined
        ? interruptedBeforeChecks(selected, before)
        : probe.couldNotRun !== null
          ? notRun(selected, probe)
          : await runChecks({
              state,
              selected,
              opts,
              log,
              progress,
              agent: agentPace(provided, probe, opts),
              interrupt,
              started,
            });
    result = runResultOf({ opts, provided: state.run, started, probe, checked, baseline });
    result.traffic = summarizeTraffic(
      state.run.field,
      [...checked.tests, ...checked.superseded],
      [run.probeTally, checked.windowFill?.tally],
      checked.notRun,
    );
    if (checked.windowFill !== undefined) result.traffic.windowFill = checked.windowFill.report;
    if (checked.throttled !== undefined) result.traffic.rateLimit.throttled = throttledOf(checked.throttled);
    if (checked.plan !== undefined) result.traffic.plan = checked.plan;
    if (checked.webhooks !== undefined) result.traffic.webhooks = checked.webhooks;
  } finally {
    await run.close();
  }
  // Each check's result is redacted once its verdict is decided; this pass also covers the probe, the
  // card, messages and anything else, so that no reporter and no caller ever holds the credentials.
  result = trimEvidence(redactResult(result, secretsOf(provided)), opts.evidence);
  await runReporters(result, reporters);
  return result;
}

async function runReporters(result: RunResult, reporters: RunReporter[]): Promise<void> {
  for (const reporter of reporters) {
    try {
      await reporter(result);
    } catch (e) {
      result.harnessErrors.push({ message: `reporter failed: ${(e as Error).message}` });
      result.exitCode = 2;
      result.exitReason = `run could not be done: reporter failed: ${(e as Error).message}`;
    }
  }
}
