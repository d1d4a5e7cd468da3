// reporters/score.ts: the compliance levels and the score of the README, from the requirements a
// run selected; not-exercised and error count against the target, not-applicable is left out.
import { describe, expect, it } from 'vitest';
import type { Verdict } from '../../core/types.ts';
import { computeCompliance, formatScore, unverifiedLines, verdictLine } from '../../reporters/score.ts';
import { check, withVerdicts } from './fixtures.ts';

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

  it.each<[Verdict, string]>([
    ['fail', 'not-compliant'],
    ['error', 'unverified'],
    ['not-exercised', 'unverified'],
  ])('a MUST requirement that is %s makes the run %s, and counts against the score', (verdict, level) => {
    const c = computeCompliance(run(['pass', verdict], ['pass', 'pass']), ALL);
    expect(c.level).toBe(level);
    expect(c.score).toBe(75);
    expect(c.passed).toBe(3);
  });

  it('is not compliant when a MUST fails, even if other MUSTs are unverified', () => {
    const c = computeCompliance(run(['fail', 'not-exercised'], ['pass', 'pass']), ALL);
    expect(c).toMatchObject({ level: 'not-compliant', label: 'not compliant', score: 50 });
    expect(verdictLine(c)).toBe('not compliant, score 50% (2/4 MUST and SHOULD requirements pass)');
  });

  it('says why a run is unverified: no MUST failed, the unverified MUSTs grouped by reason', () => {
    const reqs = withVerdicts([
      ['2.1/jsonrpc-required', 'pass'],
      ['2.1/method-required', 'not-exercised'],
      ['2.2/result-on-success', 'not-exercised'],
      ['2.2/error-on-failure', 'error'],
      ['2.1/id-required', 'warn'],
    ]);
    reqs[1]!.message =
      'the agent does not implement the directive contract (task 1f0c9a52-7d1e-4f70-9a55-0c3b4f2d9e11)';
    reqs[2]!.message =
      'the agent does not implement the directive contract (task 9a7b1c00-0000-4000-8000-000000000001)';
    reqs[3]!.checks = [
      check('2.2/error-on-failure', 'error', { message: 'rate limited: no answer within 30000 ms' }),
    ];
    const c = computeCompliance(reqs, ALL);
    expect(c).toMatchObject({ level: 'unverified', label: 'unverified', score: 20 });
    expect(c.unverified).toEqual([
      {
        why: 'the agent does not honour the a2a:directive contract (docs/directives.md), which brings about the precondition',
        verdict: 'not-exercised',
        requirements: ['2.1/method-required', '2.2/result-on-success'],
      },
      {
        why: 'rate limited: no answer within 30000 ms',
        verdict: 'error',
        requirements: ['2.2/error-on-failure'],
      },
    ]);
    expect(verdictLine(c)).toBe(
      'unverified, score 20% (1/5 MUST and SHOULD requirements pass): no MUST requirement failed; 3 MUST requirement(s) not verified (2 not exercised, 1 error)',
    );
    expect(unverifiedLines(c)[1]).toBe(
      '1 error: rate limited: no answer within 30000 ms (2.2/error-on-failure)',
    );
  });

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

  it('is unverified, with no score, when nothing was exercised at MUST or SHOULD', () => {
    const c = computeCompliance(withVerdicts([['1/sync-or-streaming-calls', 'pass']]), ALL);
    expect(c).toMatchObject({ level: 'unverified', score: null, counted: 0 });
    expect(verdictLine(c)).toContain(': no MUST requirement was exercised');
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
