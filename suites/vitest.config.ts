// The conformance suites' vitest config. The runner (harness/runner/run-suites.ts) injects the target
// with `provide`; run directly (`npx vitest run --config suites/vitest.config.ts`) the global setup
// reads A2A_TARGET, A2A_AGENT_ID, A2A_API_KEY / A2A_BEARER, or certifies the bundled reference server.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { relative } from 'node:path';

export default defineConfig({
  test: {
    root: fileURLToPath(new URL('..', import.meta.url)),
    include: ['suites/**/*.test.ts'],
    globalSetup: ['suites/support/global-setup.ts'],
    setupFiles: ['suites/support/setup.ts'],
    // One target at a time: its rate limit (C-04) and concurrency limit (C-21) are per agent, and a
    // fixed --webhook-listen port can only be bound by one file at once.
    fileParallelism: false,
    // One worker keeps its module graph across files: the schemas, the ledger and the harness load
    // once per run instead of once per file (most of a run's time otherwise). Suite files keep their
    // state in their own modules, so sharing the graph does not mix them.
    isolate: false,
    // Waiting checks (retry schedules, timeouts) marked concurrent overlap within a file.
    maxConcurrency: 20,
    // Above the default check budget (30 s or 3x --timeout-ms) so verifies() reports overruns itself.
    testTimeout: 95_000,
    hookTimeout: 30_000,
    // Files in the order the runner planned from their declarations (suiteFile() at the top of each:
    // the files that must run first or last, then, when files share several workers, the long chains
    // of requests, the files with checks that need the agent idle and the long files first;
    // harness/runner/schedule.ts), else in spec section order: folders are named after their ledger
    // files with zero-padded section numbers (suites/04-03-tasks-get verifies
    // requirements/sections/04-03-tasks-get.ts), so path order is spec order, stable from run to run.
    // Run directly (no runner, no plan), files run in path order.
    sequence: {
      sequencer: class PlannedSequencer extends BaseSequencer {
        override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
          const order = this.ctx.getProvidedContext().a2aSchedule?.order ?? {};
          const root = this.ctx.config.root;
          const at = new Map(
            files.map((f) => [f, order[relative(root, f.moduleId).split('\\').join('/')] ?? Infinity]),
          );
          return [...files].sort(
            (a, b) =>
              at.get(a)! - at.get(b)! || (a.moduleId < b.moduleId ? -1 : a.moduleId > b.moduleId ? 1 : 0),
          );
        }
      },
    },
  },
});
