// Prints the plain closing line `N passed, N failed` that CI reads. A test file that fails to
// load counts as one failure, so a broken import can never read as a clean run.
import type { Reporter, TestModule } from 'vitest/node';

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = unhandledErrors.length;
    for (const mod of testModules) {
      let moduleFailures = 0;
      for (const test of mod.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed += 1;
        else if (state === 'failed') moduleFailures += 1;
      }
      if (moduleFailures === 0 && mod.state() === 'failed') moduleFailures = 1;
      failed += moduleFailures;
    }
    process.stdout.write(`\n${passed} passed, ${failed} failed\n`);
  }
}
