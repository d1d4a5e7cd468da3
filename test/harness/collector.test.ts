// The runner's collector (harness/runner/collector.ts): which checks are still running, by when they
// started in their worker, whenever the news of their start reached the runner.
import { describe, expect, it } from 'vitest';
import type { TestCase } from 'vitest/node';
import { Collector } from '../../harness/runner/collector.ts';

/** What the collector reads of a vitest TestCase that has started and not ended. */
function started(id: string, startTime: number | undefined): TestCase {
  return {
    id,
    name: `check ${id}`,
    module: { moduleId: '/root/suites/a.test.ts' },
    diagnostic: () => (startTime === undefined ? undefined : { startTime }),
  } as unknown as TestCase;
}

describe('the collector', () => {
  it('counts a check as started when its worker started it, though the news came after the budget', () => {
    const collector = new Collector('/root', () => undefined);
    const endsAt = Date.now() - 1_000;
    // Started 20 s before the budget ended; vitest told the runner only now.
    collector.onTestCaseReady(started('early', endsAt - 20_000));
    // Started after the budget: it ends at once, cut like one that never ran.
    collector.onTestCaseReady(started('late', endsAt + 500));
    expect(collector.unfinished(endsAt)).toEqual([{ name: 'check early', file: 'suites/a.test.ts' }]);
  });

  it('takes the time the news came when the worker gave no start time', () => {
    const collector = new Collector('/root', () => undefined);
    collector.onTestCaseReady(started('unknown', undefined));
    expect(collector.unfinished(Date.now() - 1_000)).toEqual([]);
    expect(collector.unfinished(Date.now() + 1_000)).toHaveLength(1);
  });
});
