// --baseline (harness/runner/baseline.ts): both file formats, and the exit code: a new failure and
// an expected failure that now passes both exit 1; expected failures that still fail are excused;
// a run that could not be done still exits 2.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decideExitWithBaseline, diffBaseline, loadBaseline } from '../../harness/runner/baseline.ts';
import { ConfigError } from '../../harness/options.ts';
import type { Verdict } from '../../core/types.ts';
import { withVerdicts } from './fixtures.ts';

const dir = mkdtempSync(join(tmpdir(), 'a2a-baseline-'));

function file(name: string, content: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

const MUST_A = '2.1/jsonrpc-required';
const MUST_B = '2.1/method-required';
const SHOULD_A = '2.1/id-required';

function now(a: Verdict, b: Verdict, s: Verdict = 'pass') {
  return withVerdicts([
    [MUST_A, a],
    [MUST_B, b],
    [SHOULD_A, s],
  ]);
}

describe('loading a baseline', () => {
  it('reads {"expectedFailures": [...]} with plain ids or {id, reason} entries', () => {
    const b = loadBaseline(
      file('simple.json', { expectedFailures: [MUST_A, { id: SHOULD_A, reason: 'tracked in #12' }] }),
    );
    expect(b.format).toBe('expected-failures');
    expect([...b.expectedFailures]).toEqual([MUST_A, SHOULD_A]);
  });

  it('reads a previous report.json: its fail and warn verdicts are the expected failures', () => {
    const report = {
      requirements: withVerdicts([
        [MUST_A, 'fail'],
        [SHOULD_A, 'warn'],
        [MUST_B, 'pass'],
      ]),
    };
    const b = loadBaseline(file('report.json', report));
    expect(b.format).toBe('report');
    expect([...b.expectedFailures].sort()).toEqual([MUST_A, SHOULD_A].sort());
    expect(b.verdicts.get(MUST_B)).toBe('pass');
  });

  it.each([
    ['not JSON', '{', /cannot read baseline/],
    ['neither format', { something: 1 }, /neither a report.json .* nor \{"expectedFailures"/],
    ['an unknown id', { expectedFailures: ['9.9/no-such-thing'] }, /unknown: "9.9\/no-such-thing"/],
    ['a non-string id', { expectedFailures: [42] }, /unknown: 42/],
  ])('refuses %s with a ConfigError (exit 2)', (_, content, message) => {
    const path = file(`bad-${Math.random()}.json`, content);
    expect(() => loadBaseline(path)).toThrow(ConfigError);
    expect(() => loadBaseline(path)).toThrow(message);
  });
});

describe('the exit code with a baseline', () => {
  const expectA = () => loadBaseline(file('a.json', { expectedFailures: [MUST_A] }));

  it('exits 0 when only expected failures fail', () => {
    const reqs = now('fail', 'pass');
    const diff = diffBaseline(expectA(), reqs, 'all');
    expect(diff).toMatchObject({ stillFailing: [MUST_A], newFailures: [], nowPassing: [] });
    const exit = decideExitWithBaseline(reqs, 'all', null, diff);
    expect(exit.exitCode).toBe(0);
    expect(exit.exitReason).toContain('1 expected failure(s) of baseline');
  });

  it('exits 1 on a failure the baseline does not list', () => {
    const reqs = now('fail', 'fail');
    const diff = diffBaseline(expectA(), reqs, 'all');
    expect(diff.newFailures).toEqual([{ id: MUST_B, verdict: 'fail' }]);
    const exit = decideExitWithBaseline(reqs, 'all', null, diff);
    expect(exit).toMatchObject({ exitCode: 1 });
    expect(exit.exitReason).toContain(`1 new failure(s) not in baseline`);
    expect(exit.exitReason).toContain(MUST_B);
  });

  it('exits 1 when an expected failure now passes, so that the baseline never goes stale', () => {
    const reqs = now('pass', 'pass');
    const diff = diffBaseline(expectA(), reqs, 'all');
    expect(diff.nowPassing).toEqual([MUST_A]);
    const exit = decideExitWithBaseline(reqs, 'all', null, diff);
    expect(exit.exitCode).toBe(1);
    expect(exit.exitReason).toMatch(
      /1 expected failure\(s\) of baseline .* now pass \(remove them\): 2.1\/jsonrpc-required/,
    );
  });

  it('counts a SHOULD warning as new only when SHOULD gates (--level should)', () => {
    const reqs = now('fail', 'pass', 'warn');
    expect(decideExitWithBaseline(reqs, 'all', null, diffBaseline(expectA(), reqs, 'all')).exitCode).toBe(0);
    const gated = diffBaseline(expectA(), reqs, 'should');
    expect(gated.newFailures).toEqual([{ id: SHOULD_A, verdict: 'warn' }]);
    expect(decideExitWithBaseline(reqs, 'should', null, gated).exitCode).toBe(1);
  });

  it('still exits 2 when the run could not be done, or a gating requirement is unverified', () => {
    const reqs = now('fail', 'pass');
    const diff = diffBaseline(expectA(), reqs, 'all');
    expect(decideExitWithBaseline(reqs, 'all', 'target unreachable', diff)).toMatchObject({ exitCode: 2 });
    const errored = now('fail', 'error');
    expect(
      decideExitWithBaseline(errored, 'all', null, diffBaseline(expectA(), errored, 'all')).exitCode,
    ).toBe(2);
  });

  it('keeps the verdict diff of a report baseline (regressions and improvements)', () => {
    const before = loadBaseline(
      file('before.json', {
        requirements: withVerdicts([
          [MUST_A, 'fail'],
          [MUST_B, 'pass'],
        ]),
      }),
    );
    const diff = diffBaseline(before, now('pass', 'fail'), 'all');
    expect(diff.regressions).toEqual([{ id: MUST_B, before: 'pass', after: 'fail' }]);
    expect(diff.improvements).toEqual([{ id: MUST_A, before: 'fail', after: 'pass' }]);
  });
});
