// Verdict folding (core/verdict.ts): every combination of check outcomes at every ledger level,
// summary counts, and the exit-code decision.
import { describe, expect, it } from 'vitest';
import type { Level } from '../../requirements/types.ts';
import type { CheckStatus, Verdict } from '../../core/types.ts';
import { decideExit, foldVerdict, summarize } from '../../core/verdict.ts';

const STATUSES: CheckStatus[] = ['pass', 'fail', 'not-applicable', 'not-exercised', 'error'];
const LEVELS: Level[] = ['MUST', 'SHOULD', 'MAY', 'INFO'];
const FAILED_AT: Record<Level, Verdict> = { MUST: 'fail', SHOULD: 'warn', MAY: 'info', INFO: 'info' };

/** Every non-empty subset of the five statuses. */
function subsets(): CheckStatus[][] {
  const out: CheckStatus[][] = [];
  for (let mask = 1; mask < 1 << STATUSES.length; mask += 1) {
    out.push(STATUSES.filter((_, i) => mask & (1 << i)));
  }
  return out;
}

describe('foldVerdict', () => {
  it.each([
    [['pass', 'pass'], 'MUST', 'pass'],
    [['pass', 'fail'], 'MUST', 'fail'],
    [['pass', 'fail'], 'SHOULD', 'warn'],
    [['fail'], 'MAY', 'info'],
    [['fail'], 'INFO', 'info'],
    [['pass', 'error'], 'MUST', 'error'],
    [['fail', 'error'], 'MUST', 'fail'],
    [['fail', 'error'], 'SHOULD', 'warn'],
    [['pass', 'not-exercised'], 'MUST', 'pass'],
    [['pass', 'not-applicable'], 'SHOULD', 'pass'],
    [['not-exercised', 'not-exercised'], 'MUST', 'not-exercised'],
    [['not-applicable', 'not-applicable'], 'MUST', 'not-applicable'],
    [['not-applicable', 'not-exercised'], 'MUST', 'not-exercised'],
    [['error', 'not-exercised'], 'MUST', 'error'],
    [[], 'MUST', 'not-exercised'],
  ] as [CheckStatus[], Level, Verdict][])('%j at %s folds to %s', (statuses, level, verdict) => {
    expect(foldVerdict({ level, statuses })).toBe(verdict);
  });

  it('gives not-applicable whenever the card lacks a needed capability, whatever the checks say', () => {
    for (const level of LEVELS) {
      for (const statuses of [[], ...subsets()]) {
        expect(foldVerdict({ level, statuses, capabilityAbsent: true })).toBe('not-applicable');
      }
    }
  });

  it('holds the folding rules for every combination at every level', () => {
    for (const level of LEVELS) {
      for (const statuses of subsets()) {
        const verdict = foldVerdict({ level, statuses });
        const has = (s: CheckStatus) => statuses.includes(s);
        if (has('fail')) expect(verdict, `${level} ${statuses}`).toBe(FAILED_AT[level]);
        else if (has('error')) expect(verdict, `${level} ${statuses}`).toBe('error');
        else if (has('pass')) expect(verdict, `${level} ${statuses}`).toBe('pass');
        else if (statuses.every((s) => s === 'not-applicable')) expect(verdict).toBe('not-applicable');
        else expect(verdict, `${level} ${statuses}`).toBe('not-exercised');
        // A harness error or a failure is never folded into a pass.
        if (has('error') || has('fail')) expect(verdict).not.toBe('pass');
      }
    }
  });
});

describe('summarize', () => {
  it('counts by verdict and by level', () => {
    const s = summarize([
      { level: 'MUST', verdict: 'pass' },
      { level: 'MUST', verdict: 'fail' },
      { level: 'SHOULD', verdict: 'warn' },
      { level: 'INFO', verdict: 'not-exercised' },
    ]);
    expect(s.total).toBe(4);
    expect(s.byVerdict).toMatchObject({ pass: 1, fail: 1, warn: 1, 'not-exercised': 1, error: 0 });
    expect(s.byLevel.MUST).toMatchObject({ pass: 1, fail: 1, warn: 0 });
    expect(s.byLevel.SHOULD.warn).toBe(1);
    expect(s.byLevel.INFO['not-exercised']).toBe(1);
  });
});

describe('decideExit', () => {
  const req = (id: string, level: Level, verdict: Verdict) => ({ id, level, verdict });

  it('is 0 when no MUST fails, even with SHOULD warnings at --level all', () => {
    expect(decideExit([req('a', 'MUST', 'pass'), req('b', 'SHOULD', 'warn')], 'all', null).exitCode).toBe(0);
  });
  it('is 1 when a MUST fails', () => {
    const d = decideExit([req('a', 'MUST', 'fail'), req('b', 'MUST', 'error')], 'all', null);
    expect(d).toMatchObject({ exitCode: 1 });
    expect(d.exitReason).toContain('a');
  });
  it('is 1 for a SHOULD warning at --level should', () => {
    expect(decideExit([req('b', 'SHOULD', 'warn')], 'should', null).exitCode).toBe(1);
  });
  it('is 2 when a gating requirement could not be verified', () => {
    expect(decideExit([req('a', 'MUST', 'error')], 'all', null).exitCode).toBe(2);
    expect(decideExit([req('a', 'INFO', 'error')], 'all', null).exitCode).toBe(0);
  });
  it('is 0 with a MUST not exercised, and 1 with --fail-on-unverified', () => {
    const cut = [
      req('a', 'MUST', 'pass'),
      req('b', 'MUST', 'not-exercised'),
      req('c', 'SHOULD', 'not-exercised'),
    ];
    expect(decideExit(cut, 'all', null).exitCode).toBe(0);
    const strict = decideExit(cut, 'all', null, { failOnUnverified: true });
    expect(strict).toMatchObject({ exitCode: 1 });
    expect(strict.exitReason).toBe('1 MUST requirement(s) not exercised (--fail-on-unverified): b');
    // A SHOULD not exercised leaves the level as it is: the flag reads MUST requirements only.
    expect(
      decideExit([req('c', 'SHOULD', 'not-exercised')], 'should', null, { failOnUnverified: true }).exitCode,
    ).toBe(0);
    // A failure or a harness error still says so first.
    expect(
      decideExit([...cut, req('d', 'MUST', 'error')], 'all', null, { failOnUnverified: true }).exitCode,
    ).toBe(2);
  });
  it('is 2 when the run could not be done, whatever the verdicts', () => {
    expect(decideExit([req('a', 'MUST', 'pass')], 'all', 'target unreachable')).toMatchObject({
      exitCode: 2,
    });
  });
});
