// Small numeric helpers shared by the scenarios: median, percentiles, rounding for the tables.
import { percentile as nearestRank } from '../../harness/percentile.ts';
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** Nearest-rank percentile of an ascending array (NaN when empty, for the tables). */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  return nearestRank(sorted, p) ?? Number.NaN;
}

export function ascending(values: readonly number[]): Float64Array {
  return Float64Array.from(values).sort();
}

export function round(value: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

export function ratio(a: number, b: number): number {
  return b === 0 || !Number.isFinite(b) ? Number.NaN : round(a / b, 2);
}
