// --profile: what one property may spend, and a property's cases stopping once it is spent.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyLimits } from '../../harness/check/profile.ts';
import { checkProperty, type PropertyAllowance } from '../../harness/check/property.ts';
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

describe('a property within its allowance', () => {
  it('stops once its turns are spent, and says how many cases held', async () => {
    const { spent, ran, allowance } = allowanceOf({ turns: 5, requests: Infinity });
    const r = new CheckRecorder();
    const cases: number[] = [];
    const held = await checkProperty(
      r,
      SETTINGS,
      never,
      'p',
      fc.nat(),
      (n) => {
        cases.push(n);
        spent.turns += 1;
      },
      400,
      allowance,
    );
    expect([held, cases.length, ran]).toEqual([true, 5, [[400, 5]]]);
    expect(r.assertions).toMatchObject([{ label: 'p', actual: '5 generated case(s) held', pass: true }]);
  });

  it('counts what the cases spent, not what the first one cost (a first case that costs nothing)', async () => {
    const { spent, ran, allowance } = allowanceOf({ turns: 6, requests: Infinity });
    let n = 0;
    await checkProperty(
      new CheckRecorder(),
      SETTINGS,
      never,
      'p',
      fc.nat(),
      () => {
        spent.turns += n++ === 0 ? 0 : 2;
      },
      400,
      allowance,
    );
    expect(ran).toEqual([[400, 4]]);
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
      400,
      allowance,
    );
    expect(held).toBe(false);
    expect(r.assertions[0]).toMatchObject({ pass: false, actual: { counterexample: 2 } });
  });

  it('malformed-input properties, which cost no turn, run to their request cap', async () => {
    const { spent, ran, allowance } = allowanceOf({ turns: 3, requests: 30 });
    await checkProperty(
      new CheckRecorder(),
      SETTINGS,
      never,
      'p',
      fc.nat(),
      () => {
        spent.requests += 1;
      },
      400,
      allowance,
    );
    expect(ran).toEqual([[400, 30]]);
  });

  it('without an allowance (full profile) every planned case runs', async () => {
    let n = 0;
    await checkProperty(new CheckRecorder(), SETTINGS, never, 'p', fc.nat(), () => void (n += 1), 50);
    expect(n).toBe(50);
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
