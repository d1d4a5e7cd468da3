// The project's own tests (test/**), in two vitest projects: `unit` (`npm run test:unit`, the inner
// loop: under two minutes on two cores) and `e2e` (`npm run test:e2e`: mutant runs, the packed
// install, headless Chromium, whole certification runs). `npm test` runs both and ends with the
// summary reporter's `N passed, N failed`. Conformance suites under suites/ are run by the harness
// with a target injected, not by this config.
import { defineConfig } from 'vitest/config';

/**
 * Tests that run the product whole, each seconds to minutes, are named `*.e2e.test.ts`: mutant runs,
 * the packed install, report.html and fleet.html in headless Chromium, whole certification runs
 * (the API, the CLI in process or as a child, fleets, hostile targets, network conditions, replicas),
 * `run` stopped by a signal, the receiver and client roles, the README's and the guides' commands, the
 * reference server's soak and its deliveries to faulty receivers.
 */
const E2E = 'test/**/*.e2e.test.ts';

export default defineConfig({
  test: {
    reporters: ['default', './test/support/summary-reporter.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    projects: [
      // Unit tests mostly wait on loopback servers and child processes, so three workers on two cores
      // (vitest's default there is one) take the project from about 195 s to about 110 s.
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: [E2E],
          maxWorkers: 3,
          // Projects with different worker counts run one after the other: unit first, then e2e.
          sequence: { groupOrder: 0 },
        },
      },
      // Whole runs wait on their targets (budgets, retries, child processes) as much as they compute:
      // two files at a time on two cores (vitest's default there is one).
      {
        extends: true,
        test: { name: 'e2e', include: [E2E], maxWorkers: 2, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
