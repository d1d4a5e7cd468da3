// measureReset(): after the rate-limit burst's refusal, the checks say how long the window took to let
// a request in again: probes at Retry-After, then at each new Retry-After, within the run's --max-wait;
// a reset promised beyond it is named, not waited for; a probe refused after its Retry-After is counted.
import { describe, expect, it } from 'vitest';
import type { AnsweredExchange, CheckContext } from '../../suites/support/index.ts';
import { measureReset } from '../../suites/08-limits/window-reset.ts';

/** An answer received now: refused with Retry-After `retryAfterS`, or served. */
function answer(retryAfterS?: number): AnsweredExchange {
  const refused = retryAfterS !== undefined;
  return {
    id: 'x',
    kind: 'http',
    request: { method: 'POST', url: 'http://127.0.0.1/a', headers: {} },
    timings: { startedAt: new Date().toISOString(), totalMs: 1 },
    response: {
      status: refused ? 429 : 200,
      headers: refused ? { 'retry-after': String(retryAfterS) } : {},
      body: '',
      json: refused ? { error: { code: -32012 } } : { result: {} },
    },
  } as unknown as AnsweredExchange;
}

function context(maxWaitMs: number | null): CheckContext & { planned: number[] } {
  const planned: number[] = [];
  return {
    planned,
    config: { field: { maxWaitMs } },
    signal: new AbortController().signal,
    planWait: (ms: number) => void planned.push(ms),
  } as unknown as CheckContext & { planned: number[] };
}

const isRefusal = (ex: AnsweredExchange): boolean => ex.response.status === 429;

describe('measureReset', () => {
  it('probes at Retry-After and reports when a request was served again', async () => {
    const c = context(5_000);
    const answers = [() => answer(1), () => answer()];
    const reset = await measureReset(c, answer(1), async () => answers.shift()?.(), isRefusal);
    expect(reset.probes).toBe(2);
    expect(reset.refusedAfterRetryAfter).toBe(1);
    expect(reset.afterMs).toBeGreaterThanOrEqual(1_900);
    expect(reset.note).toMatch(
      /^the window let a request in again \d+\.\d s after the first refusal \(Retry-After 1 s; 2 probe\(s\)\)$/,
    );
    expect(c.planned).toEqual([5_000]);
  });

  it('does not wait for a reset promised beyond --max-wait, and names the option', async () => {
    const c = context(null);
    let probes = 0;
    const reset = await measureReset(c, answer(48), async () => (probes++, answer()), isRefusal);
    expect(probes).toBe(0);
    expect(reset.afterMs).toBeUndefined();
    expect(reset.note).toBe(
      'window reset not measured: Retry-After 48 s, above the 10 s this run waits (--max-wait 2m would measure it)',
    );
  });

  it('says so when the window did not reset within the wait allowed', async () => {
    const c = context(1_500);
    const reset = await measureReset(c, answer(1), async () => answer(1), isRefusal);
    expect(reset.afterMs).toBeUndefined();
    expect(reset.probes).toBe(1);
    expect(reset.note).toMatch(
      /^the window had not let a request in 1 s after the first refusal \(Retry-After 1 s; 1 probe\(s\) refused\)/,
    );
  });
});
