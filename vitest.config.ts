// The project's own tests (test/**). Conformance suites under suites/ are run by the harness
// with a target injected, not by this config.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    reporters: ['default', './test/support/summary-reporter.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
