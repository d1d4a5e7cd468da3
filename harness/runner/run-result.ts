// The RunResult of a service run, from what its checks decided: the exit code (against a baseline
// when one is given, the signal's when one ended the run), the root-cause analysis, and the target,
// options, card and timing the reports show.
import type { ResolvedRunOptions } from '../options.ts';
import { authKindOf, type ProvidedRun } from '../provided.ts';
import type { RunResult } from '../../core/types.ts';
import { decideExit, summarize } from '../../core/verdict.ts';
import { interruptedExit } from '../../core/interrupt.ts';
import { analyseRunSafely } from '../analysis/root-causes.ts';
import { decideExitWithBaseline, diffBaseline, type Baseline } from './baseline.ts';
import type { ProbeOutcome } from './probe.ts';
import { recordedOptions } from './recorded-options.ts';
import type { Checked } from './run-checks.ts';
import { TOOL } from './tool.ts';

export interface RunResultInput {
  opts: ResolvedRunOptions;
  provided: ProvidedRun;
  started: Date;
  probe: ProbeOutcome;
  checked: Checked;
  baseline: Baseline | undefined;
}

/** The run's result as it stands when its checks end (traffic is added by the caller). */
export function runResultOf(input: RunResultInput): RunResult {
  const { opts, provided, started, probe, checked, baseline } = input;
  const finished = new Date();
  const diff = baseline === undefined ? undefined : diffBaseline(baseline, checked.requirements, opts.level);
  const exit =
    diff === undefined
      ? decideExit(checked.requirements, opts.level, checked.couldNotRun, opts)
      : decideExitWithBaseline(checked.requirements, opts.level, checked.couldNotRun, diff, opts);
  // Before --evidence trims the passing checks: their exchanges show a dialect too. A failure of the
  // analysis is named, and the verdicts and exit code stand without root causes.
  const { analysis, error, stack } = analyseRunSafely(checked.requirements, probe.dialectProbe);
  const harnessErrors =
    error === undefined
      ? checked.harnessErrors
      : [...checked.harnessErrors, { message: error, ...(stack === undefined ? {} : { stack }) }];
  return {
    tool: { ...TOOL },
    role: 'service',
    target: {
      baseUrl: provided.baseUrl,
      agentId: provided.agentId,
      authKind: authKindOf(provided.auth),
      bundled: provided.bundled,
    },
    startedAt: started.toISOString(),
    finishedAt: finished.toISOString(),
    durationMs: finished.getTime() - started.getTime(),
    options: recordedOptions(opts),
    card: probe.card,
    reachability: probe.reachability,
    ...(probe.connection === undefined ? {} : { connection: probe.connection }),
    requirements: checked.requirements,
    summary: summarize(checked.requirements),
    harnessErrors,
    ...(diff === undefined ? {} : { baseline: diff }),
    ...(checked.signalled === undefined ? exit : interruptedExit(checked.signalled, checked.requirements)),
    ...analysis,
  };
}
