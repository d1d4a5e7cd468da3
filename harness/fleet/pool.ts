// Runs jobs at most `parallel` at a time, and at most `caps[key]` at a time among the jobs that hold
// `key` (a host's agents, agents bound to one fixed webhook port). Jobs start in list order as soon
// as their keys have room; results keep the list order.
export interface KeyedJob<T> {
  keys: readonly string[];
  run(): Promise<T>;
}

export async function runKeyed<T>(
  jobs: readonly KeyedJob<T>[],
  parallel: number,
  caps: ReadonlyMap<string, number>,
): Promise<T[]> {
  const results = new Array<T>(jobs.length);
  const pending = jobs.map((_, i) => i);
  const inUse = new Map<string, number>();
  let running = 0;
  const fits = (job: KeyedJob<T>): boolean =>
    job.keys.every((k) => (inUse.get(k) ?? 0) < (caps.get(k) ?? Infinity));
  const hold = (job: KeyedJob<T>, delta: number): void => {
    for (const k of job.keys) inUse.set(k, (inUse.get(k) ?? 0) + delta);
  };
  return new Promise<T[]>((resolve, reject) => {
    const pump = (): void => {
      if (pending.length === 0 && running === 0) return resolve(results);
      for (let p = 0; p < pending.length && running < Math.max(1, parallel);) {
        const i = pending[p]!;
        const job = jobs[i]!;
        if (!fits(job)) {
          p += 1;
          continue;
        }
        pending.splice(p, 1);
        running += 1;
        hold(job, 1);
        job.run().then(
          (value) => {
            results[i] = value;
            running -= 1;
            hold(job, -1);
            pump();
          },
          (error: unknown) => reject(error),
        );
      }
    };
    pump();
  });
}
