// Runs in the worker before each suite file: fast-check takes its seed and run count from the run's
// one setting (--seed, --runs), and the webhook receiver is released after the file.
import fc from 'fast-check';
import { afterAll, inject } from 'vitest';
import { closeSharedReceiver } from '../../harness/check/index.ts';

const run = inject('a2aRun');
if (run !== undefined) fc.configureGlobal({ seed: run.seed, numRuns: run.runs });

afterAll(async () => {
  await closeSharedReceiver();
});
