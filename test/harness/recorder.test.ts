// The check recorder and matchers (harness/check): expected beside actual as data, and how a check's
// ending (return, CheckStop, crash) becomes its status.
import { describe, expect, it } from 'vitest';
import { is } from '../../harness/check/matchers.ts';
import { CheckRecorder, CheckStop, isNotExercisedStop } from '../../harness/check/recorder.ts';

function ended(r: CheckRecorder, body: () => void) {
  try {
    body();
    return r.finish(undefined);
  } catch (e) {
    return r.finish(e);
  }
}

describe('CheckRecorder', () => {
  it('passes when every assertion held', () => {
    const r = new CheckRecorder();
    expect(ended(r, () => r.check('id', 'a', 'a'))).toMatchObject({ status: 'pass' });
    expect(r.assertions).toEqual([{ label: 'id', expected: 'a', actual: 'a', pass: true }]);
  });

  it('fails with the first failed assertion as expected vs actual, and keeps going after a soft miss', () => {
    const r = new CheckRecorder();
    const outcome = ended(r, () => {
      r.check('jsonrpc', '1.0', '2.0');
      r.check('code', -32000, is.oneOf([-32001, -32002]));
    });
    expect(outcome).toMatchObject({ status: 'fail', field: 'jsonrpc', expected: '2.0', actual: '1.0' });
    expect(outcome.message).toContain('+1 more');
    expect(r.assertions[1]).toMatchObject({
      expected: 'one of [-32001, -32002]',
      actual: -32000,
      pass: false,
    });
  });

  it('stops at a failed require()', () => {
    const r = new CheckRecorder();
    let reached = false;
    const outcome = ended(r, () => {
      r.require('status', 500, 200);
      reached = true;
    });
    expect(reached).toBe(false);
    expect(outcome).toMatchObject({ status: 'fail', field: 'status', expected: 200, actual: 500 });
  });

  it('records fail() with its detail', () => {
    const r = new CheckRecorder();
    expect(
      ended(r, () => r.fail('no final event', { expected: 'final: true', actual: 'stream closed' })),
    ).toEqual({
      status: 'fail',
      message: 'no final event',
      expected: 'final: true',
      actual: 'stream closed',
    });
  });

  it('reports notExercised and notApplicable with their reason', () => {
    const a = new CheckRecorder();
    expect(ended(a, () => a.notExercised('limit too high'))).toEqual({
      status: 'not-exercised',
      message: 'limit too high',
    });
    const b = new CheckRecorder();
    expect(ended(b, () => b.notApplicable('no streaming'))).toEqual({
      status: 'not-applicable',
      message: 'no streaming',
    });
  });

  it('keeps a recorded failure when the check later stops or crashes', () => {
    const r = new CheckRecorder();
    const outcome = ended(r, () => {
      r.check('x', 1, 2);
      throw new TypeError('cannot read properties of undefined');
    });
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toContain('cannot read properties');
  });

  it('turns an exception with no finding into error, never pass or fail', () => {
    const r = new CheckRecorder();
    r.check('ok', 1, 1);
    expect(r.finish(new Error('socket hang up'))).toMatchObject({ status: 'error' });
  });

  it('is not-exercised when nothing was asserted', () => {
    expect(new CheckRecorder().finish(undefined)).toMatchObject({ status: 'not-exercised' });
  });

  it('throws CheckStop only from the stopping helpers', () => {
    const r = new CheckRecorder();
    expect(() => r.notExercised('x')).toThrow(CheckStop);
    expect(() => r.info('note', { a: 1 })).not.toThrow();
    expect(r.notes).toEqual(['note: {"a":1}']);
  });
});

describe('matchers', () => {
  it.each([
    [is.type('string'), 'x', true],
    [is.type('null'), null, true],
    [is.type('object'), [], false],
    [is.absent(), undefined, true],
    [is.present(), null, true],
    [is.matching(/^sha256=/), 'sha256=ab', true],
    [is.nonEmptyString(), '', false],
    [is.objectContaining({ code: -32601 }), { code: -32601, message: 'x' }, true],
    [is.objectContaining({ code: is.oneOf([1, 2]) }), { code: 3 }, false],
    [is.atLeast(2), 2, true],
    [is.atLeast(2), 1, false],
    [is.atLeast(1), '3', false],
    [is.atMost(6), 6, true],
    [is.atMost(6), 7, false],
    [is.atMost(6), undefined, false],
  ])('%s on %j is %s', (m, actual, expected) => {
    expect(m.test(actual)).toBe(expected);
  });

  it('describes a bound with its reason', () => {
    expect(is.atLeast(2, 'the 503, then a retry').description).toBe('at least 2 (the 503, then a retry)');
    expect(is.atMost(3000).description).toBe('at most 3000');
  });

  it('records a predicate as is.where: its description as expected beside the actual value', () => {
    const r = new CheckRecorder();
    r.check(
      'order',
      [2, 1],
      is.where('a non-decreasing pair', (v) => (v as number[])[0]! <= (v as number[])[1]!),
    );
    expect(r.assertions).toEqual([
      { label: 'order', expected: 'a non-decreasing pair', actual: [2, 1], pass: false },
    ]);
  });
});

describe('isNotExercisedStop', () => {
  it('tells the stop of c.notExercised from a failure, another stop or a crash', () => {
    const stopOf = (body: () => void): unknown => {
      try {
        body();
      } catch (e) {
        return e;
      }
      return undefined;
    };
    const r = new CheckRecorder();
    expect(isNotExercisedStop(stopOf(() => r.notExercised('a slot freed first')))).toBe(true);
    expect(isNotExercisedStop(stopOf(() => r.fail('wrong')))).toBe(false);
    expect(isNotExercisedStop(stopOf(() => r.notApplicable('no webhooks')))).toBe(false);
    expect(isNotExercisedStop(new Error('not-exercised'))).toBe(false);
  });
});
