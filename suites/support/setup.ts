// Runs in the worker before each suite file: fast-check takes its seed and run count from the run's
// one setting (--seed, --runs), the webhook receiver is released after the file, and a terminal's
// Ctrl+C, which reaches every process of the group, leaves the worker to the runner: the runner ends
// the run itself and keeps what the checks under way decide (harness/cli/interrupts.ts).
import fc from 'fast-check';
import { afterAll, inject } from 'vitest';
import { closeSharedReceiver } from '../../harness/check/index.ts';

if (process.listenerCount('SIGINT') === 0) process.on('SIGINT', () => undefined);

const run = inject('a2aRun');
if (run !== undefined) fc.configureGlobal({ seed: run.seed, numRuns: run.runs });

afterAll(async () => {
  await closeSharedReceiver();
});
