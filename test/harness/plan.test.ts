// The run's plan (harness/runner/plan.ts): coverage first at the agent's pace, breadth with what is
// left, richest properties first; a budget that cannot hold phase 1 is said before the run, with the
// --budget-ms that would hold it. And the breadth pass's results fold into the coverage pass's.
import { describe, expect, it } from 'vitest';
import type {
  CheckCost,
  CheckPlanMeta,
  PropertyCost,
  SuiteFileDeclaration,
} from '../../harness/check/cost.ts';
import type { CollectedTest } from '../../harness/runner/collector.ts';
import { makePlan, type PlanInput } from '../../harness/runner/plan.ts';
import { planLines } from '../../harness/runner/plan-console.ts';
import { waitMs, type AgentPace } from '../../harness/runner/plan-estimate.ts';
import { paceIntervalMs } from '../../harness/io/traffic/pace.ts';
import { mergeBreadth } from '../../harness/runner/run-phases.ts';
import type { PlannedCheck } from '../../harness/runner/schedule.ts';

// The governor lets 57 requests (95%) into each 61 s at 60 a minute (harness/io/traffic/pace.ts).
const INTERVAL_MS = paceIntervalMs({ limit: 60, windowMs: 60_000, source: 'card' });

const AGENT: AgentPace = {
  requestsPerMinute: 60,
  taskCap: 4,
  roundTripMs: 50,
  turnLatencyMs: 1_500,
  systemTimeoutMs: 300_000,
  maxWaitMs: null,
  checkTimeoutMs: 30_000,
};

function check(
  id: string,
  file: string,
  cost: CheckCost,
  more: { property?: PropertyCost; decl?: Partial<SuiteFileDeclaration> } = {},
): PlannedCheck {
  const plan: CheckPlanMeta = {
    file: { cost: { requests: 0, turns: 0 }, ...more.decl },
    cost,
    samples: [],
    needsIdleAgent: false,
  };
  if (more.property !== undefined) plan.property = more.property;
  return { requirementId: id, title: `checks ${id}`, file, plan };
}

const input = (checks: PlannedCheck[], over: Partial<PlanInput> = {}): PlanInput => ({
  checks,
  agent: AGENT,
  budgetMs: 600_000,
  workers: 4,
  runs: 100,
  propertyLimits: undefined,
  ...over,
});

describe('the run plan', () => {
  it('phase 1 costs every check once and each shared sample of a file once, at the pace', () => {
    const sample = { task: { requests: 10, turns: 2 } };
    const checks = [
      check('1/a', 'f1', { requests: 5, turns: 1 }, { decl: { samples: sample } }),
      check('1/b', 'f1', { requests: 5, turns: 1 }, { decl: { samples: sample } }),
      check('2/c', 'f2', { requests: 20, turns: 0 }),
    ];
    const plan = makePlan(input(checks));
    expect(plan.coverage.requests).toBe(40);
    expect(plan.coverage.turns).toBe(4);
    // 40 requests at 60 a minute, as the governor spaces them: more than the work in four lanes.
    expect(plan.coverage.ms).toBe(Math.round(40 * INTERVAL_MS));
    expect(plan.estimateMs).toBe(plan.coverage.ms);
    expect(plan.requirements).toBe(3);
    expect(plan.fits).toBe('everything');
    expect(plan.budgetToFit).toBeNull();
    const unpaced = makePlan(input(checks, { agent: { ...AGENT, requestsPerMinute: null } }));
    expect(unpaced.coverage.ms).toBeLessThan(plan.coverage.ms);
  });

  it('phase 2 gives the richest properties their cases first, in the budget left', () => {
    const checks = [
      check('1/cheap', 'f1', { requests: 1, turns: 0 }, { property: { requests: 1, turns: 0 } }),
      check('1/rich', 'f2', { requests: 3, turns: 1 }, { property: { requests: 8, turns: 2 } }),
    ];
    // 4 requests of phase 1; the rich property wants 99 cases of 8 requests each.
    const plan = makePlan(input(checks, { budgetMs: 100_000 }));
    const [rich, cheap] = plan.breadth.properties;
    expect(rich!.requirementId).toBe('1/rich');
    expect(rich!.wanted).toBe(100);
    const caseMs = Math.round(8 * INTERVAL_MS);
    expect(rich!.cases).toBe(1 + Math.floor((100_000 - Math.round(4 * INTERVAL_MS)) / caseMs));
    // The cheap one gets what the rich one left: a case of one request per interval.
    const left = 100_000 - Math.round(4 * INTERVAL_MS) - (rich!.cases - 1) * caseMs;
    expect(cheap!.cases).toBe(1 + Math.floor(left / Math.round(INTERVAL_MS)));
    expect(plan.fits).toBe('coverage');
    expect(plan.budgetToFit).toBeGreaterThan(100_000);
    expect(planLines(plan, AGENT).join('\n')).toMatch(/phase 2 in part: .*--budget-ms \d+ would fit them/);
  });

  it("the profile's allowance and a property's runs divisor bound what it wants", () => {
    const model = check(
      '3/m',
      'f',
      { requests: 3, turns: 1 },
      { property: { requests: 8, turns: 2, runsDivisor: 16 } },
    );
    expect(makePlan(input([model])).breadth.properties[0]!.wanted).toBe(Math.ceil(100 / 16));
    const limited = makePlan(input([model], { propertyLimits: { turns: 8, requests: 300 } }));
    expect(limited.breadth.properties[0]!.wanted).toBe(5);
  });

  it('a budget that cannot hold phase 1 is said, with the requirements it may not reach and the --budget-ms that fits', () => {
    const checks = Array.from({ length: 30 }, (_, i) =>
      check(`4/r${String(i).padStart(2, '0')}`, `f${String(i).padStart(2, '0')}`, {
        requests: 10 + i,
        turns: 1,
      }),
    );
    // 30 files of 10 to 39 requests: 735 requests, over 12 minutes at 60 a minute.
    const plan = makePlan(input(checks));
    expect(plan.fits).toBe('part');
    expect(plan.budgetToFit).toBeGreaterThanOrEqual(plan.coverage.ms);
    expect(plan.unreached.length).toBeGreaterThan(0);
    expect(plan.unreached.length).toBeLessThan(30);
    // The cheapest files (most requirements per second) run first: the unreached are the costly ones.
    expect(plan.fileOrder!.slice(0, 3)).toEqual(['f00', 'f01', 'f02']);
    expect(plan.unreached).toContain('4/r29');
    expect(plan.unreached).not.toContain('4/r00');
    // The run stops at its budget: that is the estimate.
    expect(plan.estimateMs).toBe(600_000);
    const lines = planLines(plan, AGENT).join('\n');
    expect(lines).toContain('about 10 min 00 s in all, until the budget stops it');
    expect(lines).toMatch(/phase 1 does NOT fit/);
    expect(lines).toContain(`--budget-ms ${plan.budgetToFit}`);
  });

  it('a budget that holds the first pass but not phase 1 says every requirement should still be reached', () => {
    // Ten MUST requirements, each with a one-request check in one file and a 100-request check in a
    // file of its own: the cheap pass takes about 10 s at 60 a minute, phase 1 about 17 minutes.
    const cheap = Array.from({ length: 10 }, (_, i) => check(`4/r${i}`, 'cheap', { requests: 1, turns: 0 }));
    const costly = cheap.map((c, i) => ({
      ...check(c.requirementId, `costly${i}`, { requests: 100, turns: 0 }),
      title: `costly ${c.requirementId}`,
    }));
    const must = new Set(cheap.map((c) => c.requirementId));
    const plan = makePlan(input([...cheap, ...costly], { must, budgetMs: 120_000 }));
    expect(plan.fits).toBe('part');
    expect(plan.unreached).toEqual([]);
    const lines = planLines(plan, AGENT).join('\n');
    expect(lines).toContain('phase 1 does NOT fit');
    expect(lines).toContain('every requirement should still be reached, not every check of it');
    expect(lines).not.toMatch(/about 0 requirement/);
  });

  it("a budget that cannot hold phase 1 runs the MUST requirements' checks first, in a pass of their own", () => {
    // 30 files: the even ones' requirements are MUST, the costliest files among them.
    const checks = Array.from({ length: 30 }, (_, i) =>
      check(`4/r${String(i).padStart(2, '0')}`, `f${String(i).padStart(2, '0')}`, {
        requests: i % 2 === 0 ? 40 - i : 10,
        turns: 1,
      }),
    );
    const must = new Set(checks.filter((_, i) => i % 2 === 0).map((c) => c.requirementId));
    const plan = makePlan(input(checks, { must, budgetMs: 480_000 }));
    expect(plan.fits).toBe('part');
    expect(plan.coveragePasses!.map((p) => p.level)).toEqual(['must', 'rest']);
    expect(plan.coveragePasses![0]!.ids).toEqual([...must].sort());
    expect(plan.coveragePasses![0]!.fileOrder[0]).toBe('f28');
    expect(plan.fileOrder).toEqual(plan.coveragePasses![0]!.fileOrder);
    // Every MUST requirement fits (15 files, 390 requests in 8 minutes); what is not reached is of the rest.
    expect(plan.unreached.length).toBeGreaterThan(0);
    expect(plan.unreached.filter((id) => must.has(id))).toEqual([]);
    expect(planLines(plan, AGENT).join('\n')).toMatch(/One check of each MUST requirement runs first/);
    // Without the levels, the cheap files come first and some MUST requirements are not reached.
    const flat = makePlan(input(checks, { budgetMs: 480_000 }));
    expect(flat.coveragePasses).toBeUndefined();
    expect(flat.unreached.filter((id) => must.has(id)).length).toBeGreaterThan(0);
  });

  it('the MUST pass runs one check of each MUST requirement, the cheapest set; every other check after', () => {
    const named = (c: PlannedCheck, title: string): PlannedCheck => ({ ...c, title });
    const queue = { decl: { samples: { queue: { requests: 40, turns: 7 } } } };
    const checks = [
      // 3/a: one cheap check of its own, and one reading a costly sample.
      named(check('3/a', 'own', { requests: 1, turns: 1 }), 'first event'),
      named(check('3/a', 'queue', { requests: 0, turns: 0 }, queue), 'queued'),
      // 3/b and 8/c only have the costly sample.
      named(check('3/b', 'queue', { requests: 0, turns: 0 }, queue), 'dequeued'),
      named(check('8/c', 'queue', { requests: 0, turns: 0 }, queue), 'cap'),
      // 4/d: two checks in one file, the cheaper one taken.
      named(check('4/d', 'big', { requests: 30, turns: 0 }), 'all methods'),
      named(check('4/d', 'big', { requests: 2, turns: 0 }), 'one method'),
      // A check that can never exercise 4/d, free as it is, is never the one that reaches it.
      (() => {
        const note = named(check('4/d', 'note', { requests: 0, turns: 0 }), 'not observable');
        note.plan!.unobservable = true;
        return note;
      })(),
      // Padding past the budget: 40 files of a SHOULD requirement.
      ...Array.from({ length: 40 }, (_, i) => check(`9/s${i}`, `pad${i}`, { requests: 20, turns: 0 })),
    ];
    const must = new Set(['3/a', '3/b', '8/c', '4/d']);
    const plan = makePlan(input(checks, { must, budgetMs: 300_000 }));
    expect(plan.fits).toBe('part');
    const [first, rest] = plan.coveragePasses!;
    expect(first!.level).toBe('must');
    expect(first!.ids).toEqual([...must].sort());
    // The queue file reaches three requirements for its sample: 3/a is read there, not from `own`.
    expect(first!.checks.sort()).toEqual(['3/a queued', '3/b dequeued', '4/d one method', '8/c cap']);
    expect(rest!.checks).toEqual(
      expect.arrayContaining(['3/a first event', '4/d all methods', '9/s0 checks 9/s0']),
    );
    expect(rest!.checks).not.toContain('3/a queued');
    expect(rest!.checks).toContain('4/d not observable');
    expect(plan.unreached.filter((id) => must.has(id))).toEqual([]);
  });

  it('an enumerated property asks for its own cases, whatever --runs and the profile say', () => {
    const methods = check(
      '5/m',
      'f',
      { requests: 1, turns: 0 },
      { property: { requests: 1, turns: 0, cases: 8 } },
    );
    expect(makePlan(input([methods], { runs: 400 })).breadth.properties[0]!.wanted).toBe(8);
    const limited = makePlan(input([methods], { propertyLimits: { turns: 1, requests: 2 } }));
    expect(limited.breadth.properties[0]!.wanted).toBe(8);
  });

  it('the files declared to run last keep their own time: the rate-limit burst is sized to the limit', () => {
    const burst = check(
      '8/rate',
      'rate',
      { requests: 20, turns: 0, burst: true, waits: [{ rateWindow: true, why: 'window' }] },
      { decl: { runs: { when: 'last', why: 'trips the limit' } } },
    );
    const plan = makePlan(input([burst, check('1/a', 'a', { requests: 1, turns: 0 })]));
    // The other file's request, then the burst: the limit and 20 more, past the pace.
    expect(plan.coverage.requests).toBe(1 + 60 + 20);
    // The burst's round trips 32 at a time, then the window it tripped, as long as a check may wait (10 s).
    expect(plan.coverage.ms).toBe(Math.round(INTERVAL_MS) + 20 * 50 + 3 * 50 + 10_000);
    // What runs before them: the other files' requests and time, the burst and its window apart.
    expect(plan.ahead).toEqual({ requests: 1, turns: 0, ms: Math.round(INTERVAL_MS) });
    expect(plan.estimateMs).toBe(plan.coverage.ms);
    // The generated cases phase 2 gives run before them too.
    const property = check('1/p', 'p', { requests: 1, turns: 0 }, { property: { requests: 1, turns: 0 } });
    const withBreadth = makePlan(input([burst, property], { runs: 5 }));
    expect(withBreadth.fits).toBe('everything');
    expect(withBreadth.ahead.requests).toBe(1 + 4);
  });

  it("a round trip is the probe's, or its warm turn when that was shorter", () => {
    const unpaced = { ...AGENT, requestsPerMinute: null, taskCap: 1, roundTripMs: 200 };
    const checks = [check('1/a', 'f1', { requests: 10, turns: 0 })];
    expect(makePlan(input(checks, { agent: { ...unpaced, turnLatencyMs: 1_000 } })).estimateMs).toBe(2_000);
    expect(makePlan(input(checks, { agent: { ...unpaced, turnLatencyMs: 30 } })).estimateMs).toBe(300);
  });

  it('planned waits derive from the agent: its turns, its system timeout within --max-wait, the spec', () => {
    expect(waitMs({ turns: 2, why: 't' }, AGENT)).toBe(3_000);
    expect(waitMs({ spec: 5_000, why: 's' }, AGENT)).toBe(5_000);
    expect(waitMs({ systemTimeout: true, why: 'st' }, AGENT)).toBe(30_000);
    expect(waitMs({ systemTimeout: true, why: 'st' }, { ...AGENT, maxWaitMs: 600_000 })).toBe(300_000);
    // A rate window (60 s, C-04) as long as the run lets a check wait: --max-wait, else 10 s.
    expect(waitMs({ rateWindow: true, why: 'w' }, AGENT)).toBe(10_000);
    expect(waitMs({ rateWindow: true, why: 'w' }, { ...AGENT, maxWaitMs: 120_000 })).toBe(60_000);
  });
});

describe('the breadth pass folds into the coverage pass', () => {
  const test = (
    name: string,
    status: 'pass' | 'fail' | 'not-exercised' | 'error',
    requests: number,
  ): CollectedTest =>
    ({
      name,
      file: 'f',
      state: 'passed',
      errors: [],
      result: { status } as CollectedTest['result'],
      traffic: { requests } as CollectedTest['traffic'],
    }) as CollectedTest;

  it('a verdict replaces the one-case result; no verdict leaves it standing; both count their traffic', () => {
    const all = [
      test('a', 'pass', 1),
      test('b', 'pass', 1),
      test('c', 'pass', 1),
      test('a', 'fail', 9),
      test('b', 'error', 4),
    ];
    const { tests, superseded } = mergeBreadth(all, 3);
    expect(tests.map((t) => [t.name, t.result?.status])).toEqual([
      ['a', 'fail'],
      ['b', 'pass'],
      ['c', 'pass'],
    ]);
    expect(superseded.map((t) => [t.name, t.traffic?.requests])).toEqual([
      ['a', 1],
      ['b', 4],
    ]);
    expect(mergeBreadth(all, undefined).tests).toHaveLength(5);
  });
});
