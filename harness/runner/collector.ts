// A vitest reporter that carries check results from the workers to the runner: verifies() stores
// each CheckResult in the test's `task.meta.a2a`; this reporter reads it back and prints progress.
import { relative } from 'node:path';
import type { Reporter, SerializedError, TestCase, TestModule, Vitest } from 'vitest/node';
import type { WebhookSettlement } from '../check/expectations.ts';
import type { TrafficTally } from '../io/traffic/tallies.ts';
import type { ProgressListener } from '../../core/progress.ts';
import type { CheckResult, HarnessError } from '../../core/types.ts';

export interface CollectedTest {
  /** The test's own name: `<requirement id> <title>`. */
  name: string;
  file: string;
  state: 'passed' | 'failed' | 'skipped' | 'pending';
  result?: CheckResult;
  /** The check's traffic (requests, turns, waits). */
  traffic?: TrafficTally;
  /** vitest's own errors for the test (a check that ended without a result). */
  errors: string[];
  /** The check's open webhook expectations and the delivery lags it saw (settled by the runner). */
  webhooks?: WebhookSettlement;
}

export interface CheckMeta {
  a2a?: CheckResult;
  a2aTraffic?: TrafficTally;
  a2aWebhooks?: WebhookSettlement;
}

const MARK: Record<string, string> = {
  pass: '.',
  fail: 'F',
  error: 'E',
  'not-applicable': '-',
  'not-exercised': '~',
};

export class Collector implements Reporter {
  readonly tests: CollectedTest[] = [];
  readonly harnessErrors: HarnessError[] = [];
  private vitest: Vitest | undefined;
  private cancelled = false;
  /** Tests that started and have not reported a result yet, by vitest's id, with when they started. */
  private readonly running = new Map<string, { name: string; file: string; since: number }>();

  constructor(
    private readonly root: string,
    private readonly log: (line: string) => void,
    /** When given, receives structured progress instead of the per-file log line. */
    private readonly progress?: ProgressListener,
  ) {}

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
    if (this.cancelled) void vitest.cancelCurrentRun('keyboard-input');
  }

  /**
   * Stops the run: vitest skips the tests left and stops waiting for those running (their results are
   * lost); works before vitest is ready too. A run the runner cancels is no interrupted run.
   */
  cancel(): void {
    this.cancelled = true;
    void this.vitest?.cancelCurrentRun('keyboard-input');
  }

  /** Shuts a vitest that outlived the run's grace period down in the background. */
  abandon(): void {
    void this.vitest?.close().catch(() => undefined);
  }

  /** The tests that started before `before` (epoch ms) and have not ended. */
  unfinished(before: number): Array<{ name: string; file: string }> {
    return [...this.running.values()]
      .filter((t) => t.since < before)
      .map(({ name, file }) => ({ name, file }));
  }

  onTestCaseReady(testCase: TestCase): void {
    // When the test started in its worker: the news may come later (a check that outlived the budget
    // tells it then), and a check that started before the budget is one the budget cut while running.
    const since = testCase.diagnostic()?.startTime ?? Date.now();
    const test = { name: testCase.name, file: this.rel(testCase.module.moduleId), since };
    this.running.set(testCase.id, test);
  }

  onTestCaseResult(testCase: TestCase): void {
    this.running.delete(testCase.id);
    const state = testCase.result().state;
    const meta = testCase.meta() as CheckMeta;
    const errors = (testCase.result().errors ?? []).map((e) => e.message ?? String(e));
    const test: CollectedTest = {
      name: testCase.name,
      file: this.rel(testCase.module.moduleId),
      state,
      errors,
    };
    if (meta.a2a) test.result = meta.a2a;
    if (meta.a2aTraffic) test.traffic = meta.a2aTraffic;
    if (meta.a2aWebhooks) test.webhooks = meta.a2aWebhooks;
    this.tests.push(test);
    if (meta.a2a) {
      const requests = meta.a2aTraffic?.requests;
      const event = { kind: 'check' as const, file: test.file, check: meta.a2a };
      this.progress?.(requests === undefined ? event : { ...event, requests });
    }
  }

  onTestModuleEnd(testModule: TestModule): void {
    const file = this.rel(testModule.moduleId);
    for (const e of testModule.errors()) {
      this.harnessErrors.push({ message: `suite failed to load or run: ${e.message}`, file, stack: e.stack });
    }
    const results = this.tests.filter((t) => t.file === file && t.result).map((t) => t.result!);
    if (this.progress !== undefined) {
      const statuses = results.map((r) => r.status);
      this.progress({ kind: 'file', file, statuses, suiteErrors: testModule.errors().length });
      return;
    }
    const marks = results.map((r) => MARK[r.status] ?? '?').join('');
    if (marks !== '' || testModule.errors().length > 0) {
      this.log(`  ${file} ${marks}${testModule.errors().length > 0 ? ' (suite error)' : ''}`);
    }
  }

  onTestRunEnd(
    _modules: ReadonlyArray<TestModule>,
    unhandled: ReadonlyArray<SerializedError>,
    reason: string,
  ): void {
    for (const e of unhandled)
      this.harnessErrors.push({ message: `unhandled error: ${e.message}`, stack: e.stack });
    if (reason === 'interrupted' && !this.cancelled)
      this.harnessErrors.push({ message: 'the suite run was interrupted' });
  }

  private rel(path: string): string {
    return relative(this.root, path).split('\\').join('/');
  }
}
