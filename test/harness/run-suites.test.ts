// The runner's vitest runs: one in a single worker; in several, the rate-limit file alone after the
// others, so no file is left waiting out the limit it trips (C-04).
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT, suitePhases } from '../../harness/runner/run-suites.ts';
import {
  allSuiteFiles,
  needsIdleAgent,
  RUNS_FIRST,
  RUNS_LAST,
  startRank,
} from '../../harness/runner/suite-files.ts';

const RATE = 'suites/08-limits/rate-limit.test.ts';
const FRESH = 'suites/02-11-webhook-config/no-config.test.ts';
const OTHERS = ['suites/01-overview/overview.test.ts', 'suites/08-limits/message-length.test.ts'];

describe('suite phases', () => {
  it('one worker: one run of the selected files (all: no filter)', () => {
    expect(suitePhases(undefined, () => [...OTHERS, RATE], 1)).toEqual([[]]);
    expect(suitePhases([RATE, ...OTHERS], () => [], 1)).toEqual([[RATE, ...OTHERS]]);
  });

  it('several workers: the fresh-agent file runs before the others and the rate-limit file after, alone', () => {
    expect(suitePhases(undefined, () => [OTHERS[0]!, RATE, OTHERS[1]!], 3)).toEqual([OTHERS, [RATE]]);
    expect(suitePhases(undefined, () => [OTHERS[0]!, FRESH, RATE, OTHERS[1]!], 3)).toEqual([
      [FRESH],
      OTHERS,
      [RATE],
    ]);
    expect(suitePhases(OTHERS, () => [], 3)).toEqual([OTHERS]);
    expect(suitePhases([RATE], () => [], 3)).toEqual([[RATE]]);
  });

  it('the rate-limit file is one of the suite files, and the only one that runs last', () => {
    const files = allSuiteFiles(PROJECT_ROOT, `${PROJECT_ROOT}suites/`);
    expect(files.filter((f) => RUNS_LAST.test(f))).toEqual([RATE]);
    expect(files.filter((f) => RUNS_FIRST.test(f))).toEqual([FRESH]);
    expect(files.length).toBeGreaterThan(40);
  });

  it('the files whose checks need the agent idle: a slot-filling check, or the whole file alone', () => {
    const idle = allSuiteFiles(PROJECT_ROOT, `${PROJECT_ROOT}suites/`).filter((f) =>
      needsIdleAgent(`${PROJECT_ROOT}${f}`),
    );
    expect(idle).toEqual(expect.arrayContaining(['suites/03-states/submitted.test.ts', RATE]));
    expect(idle).not.toContain('suites/03-states/state-machine.test.ts');
  });

  it('start ranks: the long request chain, the files that need the agent idle, the long ones, the rest', () => {
    const rank = (f: string): number => startRank(`${PROJECT_ROOT}${f}`);
    const order = [
      'suites/02-01-envelopes/malformed-property.test.ts',
      'suites/03-states/submitted.test.ts',
      'suites/03-states/state-machine.test.ts',
      OTHERS[0]!,
    ];
    expect(order.map(rank)).toEqual([0, 1, 2, 3]);
    expect(rank('suites/06-01-webhooks/delivery.test.ts')).toBe(2);
    expect(rank(OTHERS[1]!)).toBe(3);
  });
});
