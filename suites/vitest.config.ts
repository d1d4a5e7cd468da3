// The conformance suites' vitest config. The runner (harness/runner/run-suites.ts) injects the target
// with `provide`; run directly (`npx vitest run --config suites/vitest.config.ts`) the global setup
// reads A2A_TARGET, A2A_AGENT_ID, A2A_API_KEY / A2A_BEARER, or certifies the bundled reference server.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { RUNS_LAST, startRank } from '../harness/runner/suite-files.ts';

const runsLast = (f: TestSpecification): number => (RUNS_LAST.test(f.moduleId) ? 1 : 0);

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
    // Files in spec section order: folders are named after their ledger files with zero-padded
    // section numbers (suites/04-03-tasks-get verifies requirements/sections/04-03-tasks-get.ts), so
    // path order is spec order, stable from run to run. Two exceptions: the rate-limit burst
    // (suites/08-limits/rate-limit.test.ts) runs last, because tripping the limit (C-04) blocks the
    // agent for up to 60 s; and when files share several workers, the longest chain of requests
    // starts first, then the files with checks that need the agent idle, while the other workers run
    // short checks (later, such a check would hold every worker until a long check elsewhere ended),
    // then the files that spend many turns in a row or wait a spec-bound time (startRank in
    // harness/runner/suite-files.ts).
    sequence: {
      sequencer: class SpecOrderSequencer extends BaseSequencer {
        override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
          // Ranked once per file (startRank reads the file), not once per comparison.
          const ranks = new Map(
            files.map((f) => [f, this.ctx.config.maxWorkers > 1 ? startRank(f.moduleId) : 0]),
          );
          return [...files].sort(
            (a, b) =>
              runsLast(a) - runsLast(b) ||
              ranks.get(a)! - ranks.get(b)! ||
              (a.moduleId < b.moduleId ? -1 : a.moduleId > b.moduleId ? 1 : 0),
          );
        }
      },
    },
  },
});
