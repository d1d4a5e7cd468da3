// Job pools on p-limit: `mapInOrder` for the mutant, legal-variant and hostile-case runs, `runKeyed` for
// the fleet (a host's agents, agents bound to one fixed webhook port). Results keep the input order.
import pLimit, { type LimitFunction } from 'p-limit';

/** Runs `work` over `items`, at most `limit` at a time; the results keep the order of `items`. */
export function mapInOrder<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const slot = pLimit(Math.max(1, limit));
  return Promise.all(items.map((item) => slot(() => work(item))));
}

export interface KeyedJob<T> {
  keys: readonly string[];
  run(): Promise<T>;
}

/**
 * Runs jobs at most `parallel` at a time, and at most `caps[key]` at a time among the jobs that hold
 * `key`. A job waits for its keys (taken in one sorted order, so no two jobs wait on each other) before
 * it takes an overall slot, so a job held back by a key leaves its slot to the jobs behind it.
 */
export function runKeyed<T>(
  jobs: readonly KeyedJob<T>[],
  parallel: number,
  caps: ReadonlyMap<string, number>,
): Promise<T[]> {
  const overall = pLimit(Math.max(1, parallel));
  const byKey = new Map<string, LimitFunction>();
  const keySlot = (key: string): LimitFunction => {
    let slot = byKey.get(key);
    if (slot === undefined) byKey.set(key, (slot = pLimit(Math.max(1, caps.get(key) ?? Infinity))));
    return slot;
  };
  return Promise.all(
    jobs.map((job) => {
      const keys = [...new Set(job.keys)].filter((k) => caps.has(k)).sort();
      const start = keys.reduceRight<() => Promise<T>>(
        (inner, key) => () => keySlot(key)(inner),
        () => overall(() => job.run()),
      );
      return start();
    }),
  );
}
