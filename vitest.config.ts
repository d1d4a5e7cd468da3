// The project's own tests (test/**), in two vitest projects: `unit` (`npm run test:unit`, the inner
// loop: under two minutes on two cores) and `e2e` (`npm run test:e2e`: mutant runs, the packed
// install, headless Chromium, whole certification runs). `npm test` runs both and ends with the
// summary reporter's `N passed, N failed`. Conformance suites under suites/ are run by the harness
// with a target injected, not by this config.
import { defineConfig } from 'vitest/config';

/** Tests that run the product whole: each takes seconds to minutes. */
const E2E = [
  // Mutant runs: the CLI against each broken variant and a subset of the legal variants.
  'test/mutants/detection.test.ts',
  'test/mutants/legal.test.ts',
  // The packed package installed from its tarball, and the Action's certify step.
  'test/package/**/*.test.ts',
  // report.html and fleet.html in headless Chromium.
  'test/reporters/html.test.ts',
  'test/reporters/html-causes.test.ts',
  'test/fleet/fleet-html.test.ts',
  // Whole certification runs (the API, the CLI in process or as a child, fleets, hostile targets).
  'test/harness/run-conformance.test.ts',
  'test/harness/field-conditions.test.ts',
  'test/harness/reproduce-run.test.ts',
  'test/reporters/run-e2e.test.ts',
  'test/reporters/short-secrets-e2e.test.ts',
  'test/reporters/dialect-e2e.test.ts',
  'test/fleet/fleet-e2e.test.ts',
  'test/fleet/fleet-stop.test.ts',
  // `run` stopped by SIGINT or SIGTERM (a child process), its reports read after.
  'test/harness/interrupt-e2e.test.ts',
  'test/reliability/hostile.test.ts',
  // Whole runs of the receiver and client roles, each against its broken receivers or clients.
  'test/receiver/receiver.test.ts',
  'test/client/client.test.ts',
  // Certifications of reference replicas behind the loopback balancer (shared Redis, own memory).
  'test/reference-server/replicas-e2e.test.ts',
  // run --replica: the cross-replica checks against isolated and shared replica sets.
  'test/harness/cross-replica-e2e.test.ts',
  // The CLI's `run` in process, through the whole runner (quiet, verbose, baseline).
  'test/reporters/cli-run.test.ts',
  // The README's and the guides' commands, run against the bundled reference server.
  'test/docs/examples.test.ts',
];

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
          exclude: E2E,
          maxWorkers: 3,
          // Projects with different worker counts run one after the other: unit first, then e2e.
          sequence: { groupOrder: 0 },
        },
      },
      { extends: true, test: { name: 'e2e', include: E2E, sequence: { groupOrder: 1 } } },
    ],
  },
});
