// What a suite file makes once for several of its checks (a probe of the target, a sample task, an
// answer several checks read): made by the first check that asks, under that check's budget; every
// other check awaits it without spending its own (c.awaitShared) and stops waiting, not exercised,
// should the maker's budget end first. A making that met a transport fault (NoAnswerError) is
// forgotten: a fault is nothing to share, and the check or case run again after it (reruns.ts)
// makes it anew instead of reading the fault back.
import { NoAnswerError, type CheckContext } from '../../harness/check/index.ts';

export interface MadeOnce<T> {
  made: Promise<T>;
  /** The signal of the check making it (its c.signal). */
  maker: AbortSignal;
}

/** Drops `cache`'s entry for `key` when `made` fails on a fault (or, with `anyFailure`, at all). */
function forgetFailed<K, T>(cache: Map<K, T>, key: K, made: Promise<unknown>, anyFailure: boolean): void {
  const entry = cache.get(key);
  made.catch((e: unknown) => {
    if ((anyFailure || e instanceof NoAnswerError) && cache.get(key) === entry) cache.delete(key);
  });
}

/**
 * `cache`'s entry for `key`, made by `make(c)` when there is none. A making that met a fault is
 * forgotten; any failed making too when `retry` says so, so that the next check tries again with its
 * own context.
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
  forgetFailed(cache, key, entry.made, retry);
  return entry.made;
}

/** madeOnce() of a single thing: the returned function makes it for the first check, shares it with the rest. */
export function onceShared<T>(
  retry = false,
): (c: CheckContext, make: (c: CheckContext) => Promise<T>) => Promise<T> {
  const cache = new Map<true, MadeOnce<T>>();
  return (c, make) => madeOnce(cache, true, c, make, retry);
}

/**
 * The answer a file's checks share under `key` (one request, read by each, no agent turn to wait
 * on), made by `make` on the first ask (`shared` false) and kept for the next (`shared` true); one
 * that met a fault is forgotten, as madeOnce's.
 */
export function keptUnlessFault<K, T>(
  kept: Map<K, Promise<T>>,
  key: K,
  make: () => Promise<T>,
): { answer: Promise<T>; shared: boolean } {
  const known = kept.get(key);
  if (known !== undefined) return { answer: known, shared: true };
  const made = make();
  kept.set(key, made);
  forgetFailed(kept, key, made, false);
  return { answer: made, shared: false };
}
