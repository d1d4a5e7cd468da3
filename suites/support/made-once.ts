// What a suite file makes once for several of its checks (a probe of the target, a sample task): made
// by the first check that asks, under that check's budget; every other check awaits it without
// spending its own (c.awaitShared) and stops waiting, not exercised, should the maker's budget end
// first.
import type { CheckContext } from '../../harness/check/index.ts';

export interface MadeOnce<T> {
  made: Promise<T>;
  /** The signal of the check making it (its c.signal). */
  maker: AbortSignal;
}

/**
 * `cache`'s entry for `key`, made by `make(c)` when there is none. A failed making is forgotten when
 * `retry` says so, so that the next check tries again with its own context.
 */
export function madeOnce<K, T>(
  cache: Map<K, MadeOnce<T>>,
  key: K,
  c: CheckContext,
  make: (c: CheckContext) => Promise<T>,
  retry = false,
): Promise<T> {
  const got = cache.get(key);
  if (got !== undefined) return c.awaitShared(got.made, got.maker);
  const entry = { made: make(c), maker: c.signal };
  cache.set(key, entry);
  if (retry) entry.made.catch(() => cache.get(key) === entry && cache.delete(key));
  return entry.made;
}

/** madeOnce() of a single thing: the returned function makes it for the first check, shares it with the rest. */
export function onceShared<T>(
  retry = false,
): (c: CheckContext, make: (c: CheckContext) => Promise<T>) => Promise<T> {
  const cache = new Map<true, MadeOnce<T>>();
  return (c, make) => madeOnce(cache, true, c, make, retry);
}
