// Timestamps as the spec allows them (spec 2.7, 2.13, 6.1, 6.3; ruling C-39): any RFC 3339 date-time
// with a time zone, at any precision. A target's precision is its own choice: two changes within one
// tick of its clock (the same second, for whole-second timestamps) legitimately share a timestamp.
import { is } from '../../harness/check/index.ts';

/** RFC 3339 (section 5.6) date-time with a time zone (C-39); `T` and `Z` may be lower case. */
export const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** RFC 3339 date-time with a time zone (C-39), and a real instant. */
export function isRfc3339(value: unknown): boolean {
  return typeof value === 'string' && RFC3339.test(value) && Number.isFinite(Date.parse(value));
}

/** C-39 as a matcher. */
export const isoTimestamp = is.where('an RFC 3339 timestamp with a time zone (C-39)', isRfc3339);

/** Milliseconds since the epoch, NaN when the value is not a timestamp. */
export function instantOf(value: unknown): number {
  return typeof value === 'string' ? Date.parse(value) : Number.NaN;
}

/**
 * The tick of the target's clock as far as its timestamps show it, in milliseconds: 1000 for whole
 * seconds (or a fraction that is all zeros), 10 for `.12`, 1 for milliseconds or finer. The coarsest
 * of the values given wins.
 */
export function timestampTickMs(...values: unknown[]): number {
  let tick = 1;
  for (const value of values) {
    const fraction = typeof value === 'string' ? /\.(\d+)/.exec(value)?.[1] : undefined;
    const digits = (fraction ?? '').replace(/0+$/, '').length;
    tick = Math.max(tick, digits >= 3 ? 1 : 10 ** (3 - digits));
  }
  return tick;
}
