// The runner's vitest runs and file order come from the suite files' own declarations (suiteFile()):
// in one worker a single run; in several, the files declared to run first alone before the others and
// those declared to run last alone after them. Renaming a file changes nothing but path tie-breaks.
import { beforeAll, describe, expect, it } from 'vitest';
import { listChecks, type Listing } from '../../harness/runner/list-checks.ts';
import { budgeted, pacedDeadline, type RunEnd } from '../../harness/runner/run-end.ts';
import { interruption } from '../../core/interrupt.ts';
import {
  fileOrder,
  fileSchedules,
  startRank,
  suitePhases,
  type FileSchedule,
  type PlannedCheck,
} from '../../harness/runner/schedule.ts';

const RATE = 'suites/08-limits/rate-limit.test.ts';
const FRESH = 'suites/02-11-webhook-config/no-config.test.ts';

const plain = (file: string, more: Partial<FileSchedule> = {}): FileSchedule => ({
  file,
  needsIdleAgent: false,
  ...more,
});

describe('suite phases from declarations', () => {
  const a = plain('x/a.test.ts');
  const b = plain('x/b.test.ts');
  const last = plain('x/0-last.test.ts', { runs: 'last', needsIdleAgent: true });
  const first = plain('x/z-first.test.ts', { runs: 'first' });

  it('one worker: one run, first-declared files first and last-declared last', () => {
    expect(suitePhases([last, a, first, b], 1)).toEqual([[first.file, a.file, b.file, last.file]]);
    expect(suitePhases([], 1)).toEqual([]);
  });

  it('several workers: the first-declared files run alone before the others, the last-declared after', () => {
    expect(suitePhases([a, last, b], 3)).toEqual([[a.file, b.file], [last.file]]);
    expect(suitePhases([a, first, last, b], 3)).toEqual([[first.file], [a.file, b.file], [last.file]]);
    expect(suitePhases([a, b], 3)).toEqual([[a.file, b.file]]);
  });

  it('start ranks: the request chain, the files that need the agent idle, the long ones, the rest', () => {
    const chain = plain('d', { span: 'request-chain' });
    const idle = plain('c', { needsIdleAgent: true });
    const long = plain('b', { span: 'long' });
    const rest = plain('a');
    expect([chain, idle, long, rest].map(startRank)).toEqual([0, 1, 2, 3]);
    expect(fileOrder([rest, long, idle, chain], 3)).toEqual(['d', 'c', 'b', 'a']);
    // One worker: path order between the first and last files.
    expect(fileOrder([chain, idle, long, rest], 1)).toEqual(['a', 'b', 'c', 'd']);
  });
});

describe('the suites declare what the schedule reads', () => {
  let listing: Listing;
  beforeAll(async () => {
    listing = await listChecks();
  }, 120_000);

  it('every suite file loads, and every check carries its declaration', () => {
    expect(listing.errors).toEqual([]);
    expect(listing.checks.length).toBeGreaterThan(300);
    expect(listing.checks.filter((c) => c.plan === undefined)).toEqual([]);
  });

  it('the fresh-agent file is the only one declared first, the rate-limit burst the only one last', () => {
    const files = fileSchedules(listing.checks);
    expect(files.length).toBeGreaterThan(40);
    expect(files.filter((f) => f.runs === 'first').map((f) => f.file)).toEqual([FRESH]);
    expect(files.filter((f) => f.runs === 'last').map((f) => f.file)).toEqual([RATE]);
  });

  it('the files whose checks need the agent idle: a slot-filling check, or the whole file alone', () => {
    const idle = fileSchedules(listing.checks)
      .filter((f) => f.needsIdleAgent)
      .map((f) => f.file);
    expect(idle).toEqual(expect.arrayContaining(['suites/08-limits/concurrent-tasks.test.ts', RATE]));
    expect(idle).not.toContain('suites/03-states/state-machine.test.ts');
    const rank = (file: string): number =>
      startRank(fileSchedules(listing.checks).find((f) => f.file === file)!);
    expect(rank('suites/02-01-envelopes/malformed-property.test.ts')).toBe(0);
    expect(rank('suites/08-limits/concurrent-tasks.test.ts')).toBe(1);
    expect(rank('suites/03-states/state-machine.test.ts')).toBe(2);
    expect(rank('suites/06-01-webhooks/delivery.test.ts')).toBe(2);
    expect(rank('suites/01-overview/overview.test.ts')).toBe(3);
  });

  it('renaming every file changes no phase and no rank: the schedule reads declarations, not paths', () => {
    // Renamed in reverse order, into one folder, with names that say nothing.
    const files = [...new Set(listing.checks.map((c) => c.file))];
    const renamed = new Map(
      files.map((f, i) => [f, `elsewhere/f${String(files.length - i).padStart(3, '0')}.test.ts`]),
    );
    const back = new Map([...renamed].map(([k, v]) => [v, k]));
    const moved: PlannedCheck[] = listing.checks.map((c) => ({ ...c, file: renamed.get(c.file)! }));
    for (const workers of [1, 3]) {
      const before = suitePhases(fileSchedules(listing.checks), workers);
      const after = suitePhases(fileSchedules(moved), workers).map((phase) => phase.map((f) => back.get(f)!));
      expect(after.map((p) => [...p].sort())).toEqual(before.map((p) => [...p].sort()));
      const ranks = (checks: readonly PlannedCheck[], name: (f: string) => string) =>
        Object.fromEntries(fileSchedules(checks).map((f) => [name(f.file), startRank(f)]));
      expect(ranks(moved, (f) => back.get(f)!)).toEqual(ranks(listing.checks, (f) => f));
    }
  });
});

describe('the end of a run whose budget is spent (budgeted)', () => {
  const check = { name: '8/rate-limit-enforced requests beyond the limit are refused', file: RATE };
  const spentWith = async (unanswered: number | undefined) => {
    const told: string[] = [];
    const collector = {
      unfinished: () => [check],
      cancel: () => void told.push('cancel'),
      abandon: () => void told.push('abandon'),
    };
    const never = new Promise<void>(() => undefined);
    const stuck = await budgeted(
      never,
      Date.now(),
      () => 50,
      collector,
      () => undefined,
      () => unanswered,
    );
    return { stuck, told };
  };

  it('calls a check still running at the end of the grace stuck only while a request waits on the target', async () => {
    // A request of the run still unanswered: the check waits on the target (exit 2 follows).
    expect((await spentWith(1)).stuck).toEqual([check]);
    // One worker: the runner cannot tell, and keeps the check as waiting on the target.
    expect((await spentWith(undefined)).stuck).toEqual([check]);
    // Nothing in flight: the check waits on something of its own (a sleep, a lock), cut by the budget.
    const idle = await spentWith(0);
    expect(idle.stuck).toEqual([]);
    expect(idle.told).toEqual(['cancel', 'abandon']);
  });
});

describe('the end of an interrupted run (budgeted with a signal)', () => {
  it('ends at the interrupt, long before the budget, naming the signal', async () => {
    const check = { name: '4.3/x a check', file: 'suites/x.test.ts' };
    const told: string[] = [];
    const ends: RunEnd[] = [];
    const controller = new AbortController();
    const collector = {
      unfinished: () => [check],
      cancel: () => void told.push('cancel'),
      abandon: () => void told.push('abandon'),
    };
    const never = new Promise<void>(() => undefined);
    const running = budgeted(
      never,
      Date.now() + 3_600_000,
      () => 50,
      collector,
      (end) => void ends.push(end),
      () => 0,
      controller.signal,
    );
    controller.abort(interruption('SIGTERM'));
    // Nothing waits on the target: the check is cut like one that never ran.
    expect(await running).toEqual([]);
    expect(ends).toMatchObject([{ by: 'interrupt', interruption: { signal: 'SIGTERM', exitCode: 143 } }]);
    expect(told).toEqual(['cancel', 'abandon']);
  });
});

describe("a paced run's deadline (no paced wait ends after it)", () => {
  it('keeps the rate-limit checks their window only when they run, else only what the reports need', () => {
    // 5 minutes: 30 s with the rate-limit checks (a tenth), 15 s without.
    expect(pacedDeadline(1_000, 300_000, true)).toBe(1_000 + 270_000);
    expect(pacedDeadline(1_000, 300_000, false)).toBe(1_000 + 285_000);
    // 10 minutes: 60 s and 15 s; a short budget keeps a twentieth without them.
    expect(pacedDeadline(0, 600_000, true)).toBe(540_000);
    expect(pacedDeadline(0, 600_000, false)).toBe(585_000);
    expect(pacedDeadline(0, 60_000, false)).toBe(57_000);
  });
});
