// reporters/score.ts: the compliance levels and the score of the README, from the requirements a
// run selected; not-exercised and error count against the target, not-applicable is left out.
import { describe, expect, it } from 'vitest';
import type { Verdict } from '../../harness/types.ts';
import { computeCompliance, formatScore, verdictLine } from '../../reporters/score.ts';
import { withVerdicts } from './fixtures.ts';

const ALL = { level: 'all' as const, only: [] };

/** Two MUST (2.1/jsonrpc-required, 2.1/method-required), two SHOULD (2.1/id-required, 2.1/id-types), one INFO. */
function run(must: [Verdict, Verdict], should: [Verdict, Verdict], info: Verdict = 'info') {
  return withVerdicts([
    ['2.1/jsonrpc-required', must[0]],
    ['2.1/method-required', must[1]],
    ['2.1/id-required', should[0]],
    ['2.1/id-types', should[1]],
    ['1/sync-or-streaming-calls', info],
  ]);
}

describe('compliance levels', () => {
  it('is fully compliant when every MUST and SHOULD passes (MAY/INFO findings do not count)', () => {
    const c = computeCompliance(run(['pass', 'pass'], ['pass', 'pass'], 'info'), ALL);
    expect(c).toMatchObject({
      level: 'fully-compliant',
      label: 'fully compliant',
      score: 100,
      passed: 4,
      counted: 4,
    });
    expect(c.reasons).toEqual([]);
  });

  it('is MUST-compliant when a SHOULD warns, with the warning as the reason', () => {
    const c = computeCompliance(run(['pass', 'pass'], ['pass', 'warn']), ALL);
    expect(c).toMatchObject({ level: 'must-compliant', label: 'MUST-compliant', score: 75 });
    expect(c.reasons).toEqual(['1 SHOULD requirement(s) failed']);
  });

  it.each<[string, Verdict]>([
    ['fail', 'fail'],
    ['error', 'error'],
    ['not-exercised', 'not-exercised'],
  ])(
    'is not compliant when a MUST requirement is %s, and that MUST counts against the score',
    (_, verdict) => {
      const c = computeCompliance(run(['pass', verdict], ['pass', 'pass']), ALL);
      expect(c.level).toBe('not-compliant');
      expect(c.score).toBe(75);
      expect(c.passed).toBe(3);
    },
  );

  it('leaves not-applicable requirements out of the score and the level', () => {
    const c = computeCompliance(run(['pass', 'not-applicable'], ['not-applicable', 'pass']), ALL);
    expect(c).toMatchObject({ level: 'fully-compliant', score: 100, passed: 2, counted: 2 });
    expect(c.byLevel.MUST).toMatchObject({ run: 2, passed: 1, notApplicable: 1, counted: 1 });
  });

  it('counts SHOULD not-exercised and error against full compliance', () => {
    const c = computeCompliance(run(['pass', 'pass'], ['not-exercised', 'error']), ALL);
    expect(c).toMatchObject({ level: 'must-compliant', score: 50 });
    expect(c.byLevel.SHOULD).toMatchObject({ notExercised: 1, errored: 1, counted: 2, passed: 0 });
  });

  it('stops at MUST-compliant when SHOULD requirements were not run (--level must)', () => {
    const reqs = run(['pass', 'pass'], ['pass', 'pass']).filter((r) => r.level === 'MUST');
    const c = computeCompliance(reqs, { level: 'must', only: [] });
    expect(c.level).toBe('must-compliant');
    expect(c.reasons).toContain('SHOULD requirements were not run (--level must)');
  });

  it('is not compliant, with no score, when nothing was exercised at MUST or SHOULD', () => {
    const c = computeCompliance(withVerdicts([['1/sync-or-streaming-calls', 'pass']]), ALL);
    expect(c).toMatchObject({ level: 'not-compliant', score: null, counted: 0 });
    expect(formatScore(c.score)).toBe('n/a');
  });

  it('marks a run narrowed by --only as partial', () => {
    const c = computeCompliance(run(['pass', 'pass'], ['pass', 'pass']), { level: 'all', only: ['2.1'] });
    expect(c.partial).toBe(true);
    expect(verdictLine(c)).toBe(
      'fully compliant, score 100% (4/4 MUST and SHOULD requirements pass), partial run (--only)',
    );
  });

  it('rounds the score down so that it never reads 100% unless everything passed', () => {
    const many = Array.from({ length: 2000 }, (_, i) => ({
      level: 'MUST' as const,
      verdict: (i === 0 ? 'fail' : 'pass') as Verdict,
    }));
    const c = computeCompliance(many, ALL);
    expect(c.score).toBe(99.9);
    expect(formatScore(c.score)).toBe('99.9%');
  });
});
