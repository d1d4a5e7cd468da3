// Global setup of the suites when vitest runs them directly: the run starts as the runner starts
// one (harness/runner/start-run.ts), from A2A_* variables or the bundled reference server on port 0,
// and is provided to the workers. Under the runner (runConformance) the target is already provided
// and this does nothing.
import type { TestProject } from 'vitest/node';
import { readEnv, resolveOptions } from '../../harness/options.ts';
import { startRun } from '../../harness/runner/start-run.ts';

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  if (project.getProvidedContext().a2aRun !== undefined) return undefined;
  const opts = resolveOptions({ flag: {}, env: readEnv(process.env), file: {} });
  const { state, probe, close } = await startRun(opts);
  if (probe.couldNotRun !== null) {
    await close();
    throw new Error(`a2a-conformance: the run could not be done: ${probe.couldNotRun}`);
  }
  state.provideTo((run) => project.provide('a2aRun', run));
  return close;
}
