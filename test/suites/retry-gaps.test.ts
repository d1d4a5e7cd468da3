// Retry delays measured at the receiver (suites/support/deliveries.ts, ruling C-20): a retry is late
// only beyond scheduled + 1000 ms plus what the receiver cannot tell from a late sender, the round
// trip the agent showed and how late the receiver stamped the arrival; early stays early.
import { describe, expect, it } from 'vitest';
import { evaluate } from '../../harness/check/matchers.ts';
import type { Exchange } from '../../harness/check/index.ts';
import type { CheckContext, Delivery } from '../../suites/support/index.ts';
import { checkGaps, fastestRoundTripMs, retryGaps } from '../../suites/support/deliveries.ts';

function grading(): { c: CheckContext; verdicts: Array<{ label: string; pass: boolean; expected: string }> } {
  const verdicts: Array<{ label: string; pass: boolean; expected: string }> = [];
  const c = {
    check: (label: string, actual: unknown, expected: unknown) => {
      const v = evaluate(actual, expected);
      verdicts.push({ label, pass: v.pass, expected: String(v.expected) });
      return v.pass;
    },
  } as unknown as CheckContext;
  return { c, verdicts };
}

const POLICY = { initialDelay: 0.1, backoffMultiplier: 2, maxRetries: 2 };

function attempt(receivedAtMs: number, answeredAtMs: number, stampLagMs?: number): Delivery {
  return {
    receivedAtMs,
    ...(stampLagMs === undefined ? {} : { stampLagMs }),
    response: { status: 500, atMs: answeredAtMs },
  } as unknown as Delivery;
}

describe('retryGaps', () => {
  it('measures from the answer to attempt n to the arrival of attempt n + 1, with that arrival’s stamp lag', () => {
    const gaps = retryGaps([attempt(1000, 1005), attempt(1200, 1201, 40), attempt(1500, 1501)]);
    expect(gaps).toEqual([
      { ms: 195, stampLagMs: 40 },
      { ms: 299, stampLagMs: 0 },
    ]);
  });
});

describe('checkGaps', () => {
  it('passes a retry within scheduled + 1000 ms', () => {
    const { c, verdicts } = grading();
    checkGaps(c, [{ ms: 1100, stampLagMs: 0 }], POLICY, 0);
    expect(verdicts.map((v) => v.pass)).toEqual([true]);
  });

  it('fails a retry beyond scheduled + 1000 ms on a fast link and a quiet receiver', () => {
    const { c, verdicts } = grading();
    checkGaps(c, [{ ms: 1279, stampLagMs: 10 }], POLICY, 3);
    expect(verdicts[0]).toMatchObject({ pass: false, expected: expect.stringContaining('[50, 1113]') });
  });

  it('grows the late bound by the round trip and the stamp lag, never the early one', () => {
    const { c, verdicts } = grading();
    checkGaps(
      c,
      [
        { ms: 1279, stampLagMs: 150 },
        { ms: 120, stampLagMs: 500 },
      ],
      POLICY,
      80,
    );
    expect(verdicts.map((v) => v.pass)).toEqual([true, false]);
    expect(verdicts[0]!.expected).toContain('[50, 1330]');
    expect(verdicts[1]!.expected).toContain('[150, 1780]');
  });
});

describe('fastestRoundTripMs', () => {
  it('is the quickest answered exchange, 0 when none was answered', () => {
    const ex = (totalMs: number, answered = true): Exchange =>
      ({ timings: { totalMs }, ...(answered ? { response: { status: 200 } } : {}) }) as unknown as Exchange;
    expect(fastestRoundTripMs([ex(40), ex(12.4), ex(5, false), ex(300)])).toBe(12);
    expect(fastestRoundTripMs([ex(5, false)])).toBe(0);
  });
});
