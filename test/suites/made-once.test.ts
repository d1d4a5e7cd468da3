// madeOnce (suites/support/made-once.ts): what a suite file makes once for several checks is made by
// the first check that asks; the others await it through c.awaitShared (apart from their budget),
// with the maker's signal; a failed making is forgotten only when asked to be.
import { describe, expect, it } from 'vitest';
import type { CheckContext } from '../../harness/check/index.ts';
import { madeOnce, onceShared, type MadeOnce } from '../../suites/support/made-once.ts';

function context(awaited: AbortSignal[]): CheckContext {
  return {
    signal: new AbortController().signal,
    awaitShared: (made: Promise<unknown>, maker: AbortSignal) => (awaited.push(maker), made),
  } as unknown as CheckContext;
}

describe('madeOnce', () => {
  it("is made by the first check; the others await it through c.awaitShared with the maker's signal", async () => {
    const cache = new Map<string, MadeOnce<number>>();
    const awaited: AbortSignal[] = [];
    const [first, second] = [context(awaited), context(awaited)];
    let made = 0;
    const make = async (): Promise<number> => (made += 1);
    await expect(madeOnce(cache, 'k', first, make)).resolves.toBe(1);
    await expect(madeOnce(cache, 'k', second, make)).resolves.toBe(1);
    expect(made).toBe(1);
    expect(awaited).toEqual([first.signal]);
  });

  it('forgets a failed making when asked to, so that the next check makes it again', async () => {
    const awaited: AbortSignal[] = [];
    let tries = 0;
    const make = async (): Promise<string> => {
      tries += 1;
      if (tries === 1) throw new Error('first try failed');
      return 'made';
    };
    const again = onceShared<string>(true);
    await expect(again(context(awaited), make)).rejects.toThrow('first try failed');
    await expect(again(context(awaited), make)).resolves.toBe('made');
    const kept = onceShared<string>();
    tries = 0;
    await expect(kept(context(awaited), make)).rejects.toThrow('first try failed');
    await expect(kept(context(awaited), make)).rejects.toThrow('first try failed');
    expect(tries).toBe(1);
  });
});
