// --profile: what one property may spend, and how many generated cases fit from the first one's cost.
import { describe, expect, it } from 'vitest';
import { propertyLimits } from '../../harness/check/profile.ts';
import { runsWithin } from '../../harness/check/property.ts';
import { resolveOptions } from '../../harness/options.ts';

describe('property limits', () => {
  it('full runs every case; standard and smoke cap turns, and requests to the pace', () => {
    expect(propertyLimits({ profile: 'full', pace: null })).toBeUndefined();
    expect(propertyLimits({ profile: 'standard', pace: null })).toEqual({ turns: 20, requests: Infinity });
    const pace = { limit: 600, windowMs: 60_000, source: 'card' as const };
    expect(propertyLimits({ profile: 'standard', pace })).toEqual({ turns: 20, requests: 300 });
    expect(propertyLimits({ profile: 'smoke', pace })).toEqual({ turns: 3, requests: 50 });
  });

  it('a case costing a turn gets the turn cap; one refused before any turn keeps its requests', () => {
    expect(runsWithin(400, { turns: 1, requests: 1 }, { turns: 20, requests: 300 })).toBe(19);
    expect(runsWithin(400, { turns: 0, requests: 1 }, { turns: 20, requests: 300 })).toBe(299);
    expect(runsWithin(400, { turns: 0, requests: 1 }, { turns: 20, requests: Infinity })).toBe(400);
    expect(runsWithin(5, { turns: 30, requests: 40 }, { turns: 20, requests: 300 })).toBe(1);
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
