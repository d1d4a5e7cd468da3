// The run's governor as a check's worker reaches it: the runner's, over the worker link, when suite
// files run in several workers (field.governorUrl), else this process's own (io/traffic/governor.ts).
// Every client of every check of the run goes through it.
import { sharedGovernor, type TrafficGovernor } from '../io/traffic/governor.ts';
import { RemoteGovernor } from '../io/links/worker-link.ts';
import type { ProvidedRun } from '../provided.ts';

let remote: RemoteGovernor | undefined;

/** The runner's governor when suite files run in several workers (field.governorUrl), else none. */
export function remoteGovernor(run: ProvidedRun): RemoteGovernor | undefined {
  const url = run.field.governorUrl;
  if (url === undefined) return undefined;
  if (remote?.url !== url) remote = new RemoteGovernor(url);
  return remote;
}

/** The run's governor: every client of every check of the run, in every worker, goes through it. */
export function runGovernor(run: ProvidedRun): TrafficGovernor {
  const linked = remoteGovernor(run);
  if (linked !== undefined) return linked;
  const f = run.field;
  const settings = {
    profile: f.profile,
    pace: f.pace,
    concurrency: f.concurrency,
    deadlineAt: f.deadlineAt,
    endsAt: f.budget?.endsAt,
    maxTurns: f.maxTurns,
    taskCap: f.taskCap,
    probedTurnMs: f.probedTurnMs,
  };
  return sharedGovernor(
    `${run.baseUrl} ${run.agentId} ${f.deadlineAt ?? ''} ${f.budget?.endsAt ?? ''}`,
    settings,
  );
}
