// The one percentile of the project: nearest rank, as the run's traffic facts, the receiver role's
// response times and the benchmark tables report them.

/** Nearest-rank percentile (`p` in 0..100) of ascending `sorted`; undefined when it is empty. */
export function percentile(sorted: ArrayLike<number>, p: number): number | undefined {
  if (sorted.length === 0) return undefined;
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1];
}
