// Grouping check results per requirement (harness/runner/assemble.ts): selected requirements with no
// check are not-exercised, tests that ended without a result are errors, capabilities gate verdicts.
import { describe, expect, it } from 'vitest';
import type { Requirement } from '../../requirements/types.ts';
import { assembleRequirements, errorCheck, splitTestName } from '../../harness/runner/assemble.ts';
import type { CollectedTest } from '../../harness/runner/collector.ts';
import type { CheckResult } from '../../core/types.ts';

const source = { line: 1, quote: 'x' };
const reqs: Requirement[] = [
  { id: '2.1/a', section: '2.1', role: 'service', level: 'MUST', behaviour: 'a', source },
  {
    id: '2.1/b',
    section: '2.1',
    role: 'service',
    level: 'SHOULD',
    behaviour: 'b',
    source,
    rulings: ['C-11'],
  },
  {
    id: '4.2/s',
    section: '4.2',
    role: 'service',
    level: 'MUST',
    behaviour: 's',
    source,
    capabilities: ['streaming'],
  },
  { id: '9/none', section: '9', role: 'service', level: 'MUST', behaviour: 'n', source },
];
const reproduce = {
  baseUrl: 'http://h',
  agentId: 'a',
  authKind: 'api-key' as const,
  bundled: false,
  seed: 1,
  runs: 1,
};

function check(id: string, status: CheckResult['status']): CheckResult {
  return { ...errorCheck(id, 't', 'm', reproduce), status };
}

function test(
  name: string,
  state: CollectedTest['state'],
  result?: CheckResult,
  errors: string[] = [],
): CollectedTest {
  return result
    ? { name, file: 'suites/x.test.ts', state, result, errors }
    : { name, file: 'suites/x.test.ts', state, errors };
}

describe('assembleRequirements', () => {
  const card = { capabilities: { streaming: false } };

  it('folds per requirement and reports the unchecked ones', () => {
    const { requirements, harnessErrors } = assembleRequirements({
      selected: reqs,
      card,
      reproduce,
      tests: [
        test('2.1/a one', 'passed', check('2.1/a', 'pass')),
        test('2.1/a two', 'failed', check('2.1/a', 'fail')),
        test('2.1/b one', 'failed', check('2.1/b', 'fail')),
        test('4.2/s one', 'passed', check('4.2/s', 'pass')),
      ],
    });
    expect(harnessErrors).toEqual([]);
    expect(requirements.map((r) => [r.id, r.verdict])).toEqual([
      ['2.1/a', 'fail'],
      ['2.1/b', 'warn'],
      ['4.2/s', 'not-applicable'],
      ['9/none', 'not-exercised'],
    ]);
    expect(requirements[1]!.rulings).toEqual(['C-11']);
    expect(requirements[2]!.message).toContain('streaming');
    expect(requirements[3]!.message).toBe('no check registered');
  });

  it('makes a test that ended without a result an error, and an unbound test a harness error', () => {
    const { requirements, harnessErrors } = assembleRequirements({
      selected: reqs,
      card: null,
      reproduce,
      tests: [
        test('2.1/a timed out', 'failed', undefined, ['Test timed out in 5000ms']),
        test('some plain test', 'passed'),
        test('2.1/b filtered out', 'skipped'),
      ],
    });
    expect(requirements[0]).toMatchObject({ verdict: 'error' });
    expect(requirements[0]!.checks[0]!.message).toContain('Test timed out');
    expect(requirements[1]).toMatchObject({ verdict: 'not-exercised' });
    expect(harnessErrors).toHaveLength(1);
    expect(harnessErrors[0]!.message).toContain('not bound to a requirement');
  });

  it('marks requirements without results not-exercised when the run budget ended first', () => {
    const budgetSpent =
      'the run budget of 10000 ms was spent before every check ran; --budget-ms 100000 would fit it';
    const { requirements } = assembleRequirements({
      selected: reqs.slice(0, 1),
      card: null,
      reproduce,
      tests: [],
      budgetSpent,
    });
    expect(requirements[0]).toMatchObject({ verdict: 'not-exercised', message: budgetSpent });
  });
});

describe('splitTestName', () => {
  it('splits at the first space', () => {
    expect(splitTestName('2.1/id-types echoes integer ids')).toEqual({
      id: '2.1/id-types',
      title: 'echoes integer ids',
    });
  });
});
