// Global setup of the suites when vitest runs them directly: builds the target from A2A_* variables,
// or starts the bundled reference server on port 0, probes it and provides it to the workers.
// Under the runner (runConformance) the target is already provided and this does nothing.
import type { TestProject } from 'vitest/node';
import { readEnv, resolveOptions } from '../../harness/options.ts';
import '../../harness/provided.ts';
import { startBundledTarget } from '../../harness/runner/bundled-target.ts';
import { probeTarget } from '../../harness/runner/probe.ts';
import { providedRun } from '../../harness/runner/run-conformance.ts';
import { paceFor, taskCapFor } from '../../harness/runner/traffic.ts';

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  if (project.getProvidedContext().a2aRun !== undefined) return undefined;
  const opts = resolveOptions({ flag: {}, env: readEnv(process.env), file: {} });
  const bundled = opts.target === undefined ? await startBundledTarget(opts.agentId) : undefined;
  const run = providedRun(opts, bundled);
  const probe = await probeTarget(run);
  if (probe.couldNotRun !== null) {
    await bundled?.close();
    throw new Error(`a2a-conformance: the run could not be done: ${probe.couldNotRun}`);
  }
  run.card = probe.card;
  run.field.pace = paceFor(opts, probe.card);
  run.field.taskCap = taskCapFor(probe.card);
  project.provide('a2aRun', run);
  return async () => {
    await bundled?.close();
  };
}
