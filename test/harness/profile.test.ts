// --profile: what one property may spend, and a property's cases stopping once it is spent.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyLimits } from '../../harness/check/profile.ts';
import {
  checkProperty,
  type PropertyAllowance,
  type PropertyPredicate,
} from '../../harness/check/property.ts';
import { CheckRecorder } from '../../harness/check/recorder.ts';
import { resolveOptions } from '../../harness/options.ts';

describe('property limits', () => {
  it('full runs every case; standard and smoke cap turns, and requests to the pace', () => {
    expect(propertyLimits({ profile: 'full', pace: null })).toBeUndefined();
    expect(propertyLimits({ profile: 'standard', pace: null })).toEqual({ turns: 8, requests: Infinity });
    const pace = { limit: 600, windowMs: 60_000, source: 'card' as const };
    expect(propertyLimits({ profile: 'standard', pace })).toEqual({ turns: 8, requests: 300 });
    expect(propertyLimits({ profile: 'smoke', pace })).toEqual({ turns: 3, requests: 50 });
  });
});

/** An allowance over a counter the test's predicate spends, like a check's traffic tally. */
function allowanceOf(limits: { turns: number; requests: number }) {
  const spent = { turns: 0, requests: 0 };
  const ran: Array<[number, number]> = [];
  const allowance: PropertyAllowance = {
    ...limits,
    spent: () => ({ ...spent }),
    ran: (planned, runs) => void ran.push([planned, runs]),
  };
  return { spent, ran, allowance };
}

const SETTINGS = { seed: 7, runs: 400 };
const never = (): boolean => false;

/** checkProperty over fc.nat() with SETTINGS, recording into `r`. */
const overNats = (
  predicate: PropertyPredicate<number>,
  options?: Parameters<typeof checkProperty>[6],
  r = new CheckRecorder(),
): Promise<boolean> => checkProperty(r, SETTINGS, never, 'p', fc.nat(), predicate, options);

describe('a property within its allowance', () => {
  it('stops once its turns are spent, and says how many cases held', async () => {
    const { spent, ran, allowance } = allowanceOf({ turns: 5, requests: Infinity });
    const r = new CheckRecorder();
    const cases: number[] = [];
    const held = await overNats(
      (n) => {
        cases.push(n);
        spent.turns += 1;
      },
      { numRuns: 400, allowance },
      r,
    );
    expect([held, cases.length, ran]).toEqual([true, 5, [[400, 5]]]);
    expect(r.assertions).toMatchObject([{ label: 'p', actual: '5 generated case(s) held', pass: true }]);
  });

  it('counts what the cases spent, not what the first one cost (a first case that costs nothing)', async () => {
    const { spent, ran, allowance } = allowanceOf({ turns: 6, requests: Infinity });
    let n = 0;
    await overNats(
      () => {
        spent.turns += n++ === 0 ? 0 : 2;
      },
      { numRuns: 400, allowance },
    );
    expect(ran).toEqual([[400, 4]]);
  });

  it('a case that met a transport fault is not one that held, and a property of only such cases throws it', async () => {
    const fault = new Error('no answer');
    const isFault = (e: unknown): boolean => e === fault;
    // The run's plan allows one case (phase 1): it faulted, and no case is left to replace it.
    const one = allowanceOf({ turns: Infinity, requests: Infinity });
    const none = overNats(
      () => {
        throw fault;
      },
      { numRuns: 20, allowance: { ...one.allowance, cases: 1 }, isFault },
    );
    await expect(none).rejects.toBe(fault);
    // Two allowed: the second held, and only it is counted.
    const two = allowanceOf({ turns: Infinity, requests: Infinity });
    const r = new CheckRecorder();
    let n = 0;
    const held = await overNats(
      () => {
        if (n++ === 0) throw fault;
      },
      { numRuns: 20, allowance: { ...two.allowance, cases: 2 }, isFault },
      r,
    );
    expect(held).toBe(true);
    expect(r.assertions).toMatchObject([{ label: 'p', actual: '1 generated case(s) held', pass: true }]);
  });

  it('a failing case is a failure, and its shrinking is not cut by the allowance', async () => {
    const { spent, allowance } = allowanceOf({ turns: 3, requests: Infinity });
    const r = new CheckRecorder();
    const held = await checkProperty(
      r,
      SETTINGS,
      never,
      'p',
      fc.integer({ min: 0, max: 1000 }),
      (n) => {
        spent.turns += 1;
        return n < 2;
      },
      { numRuns: 400, allowance },
    );
    expect(held).toBe(false);
    expect(r.assertions[0]).toMatchObject({ pass: false, actual: { counterexample: 2 } });
  });

  it('malformed-input properties, which cost no turn, run to their request cap', async () => {
    const { spent, ran, allowance } = allowanceOf({ turns: 3, requests: 30 });
    await overNats(
      () => {
        spent.requests += 1;
      },
      { numRuns: 400, allowance },
    );
    expect(ran).toEqual([[400, 30]]);
  });

  it("the run's plan caps the cases (one in phase 1, the planned ones in phase 2), in one lane or several", async () => {
    for (const [cases, lanes] of [
      [1, 1],
      [7, 1],
      [1, 3],
      [7, 3],
    ] as const) {
      const { ran, allowance } = allowanceOf({ turns: Infinity, requests: Infinity });
      let n = 0;
      const held = await overNats(() => void (n += 1), {
        numRuns: 400,
        allowance: { ...allowance, cases },
        lanes,
      });
      expect([held, n, ran]).toEqual([true, cases, [[400, cases]]]);
    }
  });

  it('without an allowance (full profile) every planned case runs', async () => {
    let n = 0;
    await checkProperty(new CheckRecorder(), SETTINGS, never, 'p', fc.nat(), () => void (n += 1), {
      numRuns: 50,
    });
    expect(n).toBe(50);
  });

  it('awaits its between-cases step before every case but the first, the case waiting for it', async () => {
    const events: string[] = [];
    const between = async (): Promise<void> => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      events.push('between');
    };
    const pushCase = (): void => void events.push('case');
    await checkProperty(new CheckRecorder(), SETTINGS, never, 'p', fc.nat(), pushCase, {
      numRuns: 3,
      betweenCases: between,
    });
    expect(events).toEqual(['case', 'between', 'case', 'between', 'case']);
  });
});

describe('profile options', () => {
  const target = { target: 'http://127.0.0.1:1', agentId: 'a', apiKey: 'k' };
  it('defaults to standard against a target and full for the bundled server; smoke runs MUSTs', () => {
    expect(resolveOptions({ flag: target, env: {}, file: {} }).profile).toBe('standard');
    expect(resolveOptions({ flag: {}, env: {}, file: {} }).profile).toBe('full');
    const smoke = resolveOptions({ flag: { ...target, profile: 'smoke' }, env: {}, file: {} });
    expect([smoke.profile, smoke.level]).toEqual(['smoke', 'must']);
  });

  it('reads --rate, --max-wait and --max-turns, and refuses bad values', () => {
    const o = resolveOptions({
      flag: { ...target, rate: '60/m', maxWait: '6m', maxTurns: '50' },
      env: {},
      file: {},
    });
    expect(o.rate).toEqual({ limit: 60, windowMs: 60_000, source: 'option' });
    expect([o.maxWaitMs, o.maxTurns]).toEqual([360_000, 50]);
    expect(resolveOptions({ flag: { ...target, rate: 'off' }, env: {}, file: {} }).rate).toBeNull();
    expect(() => resolveOptions({ flag: { ...target, rate: '60' }, env: {}, file: {} })).toThrow(
      /rate must be/,
    );
    expect(() => resolveOptions({ flag: { ...target, maxWait: '5' }, env: {}, file: {} })).toThrow(
      /duration/,
    );
    expect(() => resolveOptions({ flag: { ...target, profile: 'huge' }, env: {}, file: {} })).toThrow(
      /profile/,
    );
  });
});

describe('a property in lanes', () => {
  const slowly = async (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 2));

  it('runs the cases the seed generates, several at once, and passes when all hold', async () => {
    const run = async (lanes: number) => {
      const seen: number[] = [];
      let inFlight = 0;
      let most = 0;
      const r = new CheckRecorder();
      const held = await checkProperty(
        r,
        SETTINGS,
        never,
        'p',
        fc.nat(),
        async (n) => {
          most = Math.max(most, (inFlight += 1));
          await slowly();
          inFlight -= 1;
          seen.push(n);
        },
        { numRuns: 40, lanes },
      );
      return { held, most, seen, actual: r.assertions[0]?.actual };
    };
    const one = await run(1);
    const four = await run(4);
    expect([one.most, four.most]).toEqual([1, 4]);
    expect([...four.seen].sort()).toEqual([...one.seen].sort());
    expect(four.seen).toHaveLength(40);
    expect([four.held, four.actual]).toEqual([true, '40 generated case(s) held']);
  });

  it('finds and shrinks the same counterexample, with the same replay path, as one lane', async () => {
    const run = async (lanes: number) => {
      const r = new CheckRecorder();
      const held = await checkProperty(
        r,
        { seed: 11, runs: 200 },
        never,
        'p',
        fc.integer({ min: 0, max: 10_000 }),
        async (n) => {
          await slowly();
          return n < 3_000;
        },
        { lanes },
      );
      return { held, actual: r.assertions[0]?.actual, notes: r.notes };
    };
    const one = await run(1);
    const four = await run(4);
    expect(one.held).toBe(false);
    expect((one.actual as { counterexample: number }).counterexample).toBe(3_000);
    expect(four).toEqual(one);
  });

  it('replays only the failing case: one that holds on replay does not run the rest one by one', async () => {
    let calls = 0;
    let failedOnce = false;
    const r = new CheckRecorder();
    const held = await overNats(
      async () => {
        const call = (calls += 1);
        await slowly();
        // The eleventh case fails once (an agent's passing fault), then holds.
        if (call === 11 && !failedOnce) {
          failedOnce = true;
          return false;
        }
        return true;
      },
      { numRuns: 400, lanes: 4 },
      r,
    );
    // Three rounds of four, then the replay of the one case.
    expect([held, calls]).toEqual([true, 13]);
  });

  it('awaits its between-cases step between rounds, with no case in flight', async () => {
    let inFlight = 0;
    const seenInFlight: number[] = [];
    await overNats(
      async () => {
        inFlight += 1;
        await slowly();
        inFlight -= 1;
      },
      { numRuns: 10, lanes: 4, betweenCases: async () => void seenInFlight.push(inFlight) },
    );
    // Rounds of 4, 4 and 2 cases: two steps between them.
    expect(seenInFlight).toEqual([0, 0]);
  });

  it('stops starting cases once the allowance is spent', async () => {
    const { spent, ran, allowance } = allowanceOf({ turns: 6, requests: Infinity });
    const held = await overNats(
      async () => {
        spent.turns += 1;
        await slowly();
      },
      { numRuns: 400, allowance, lanes: 3 },
    );
    expect(held).toBe(true);
    // The lanes in flight when it ran out end their cases: at most lanes - 1 beyond the allowance.
    expect(ran[0]![1]).toBeGreaterThanOrEqual(6);
    expect(ran[0]![1]).toBeLessThan(6 + 3);
  });
});
