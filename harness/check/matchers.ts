// Expectations that are data: each matcher carries the description recorded as `expected` in the
// report, so a failure reads "expected: one of [-32001, -32000]" beside the actual value.
import { isDeepStrictEqual } from 'node:util';

const MATCHER = Symbol('a2a.matcher');

export interface Matcher {
  readonly [MATCHER]: true;
  /** What the report shows as `expected`. */
  readonly description: string;
  test(actual: unknown): boolean;
}

export function isMatcher(value: unknown): value is Matcher {
  return typeof value === 'object' && value !== null && MATCHER in value;
}

function matcher(description: string, test: (actual: unknown) => boolean): Matcher {
  return { [MATCHER]: true, description, test };
}

function show(value: unknown): string {
  return value === undefined ? 'undefined' : JSON.stringify(value);
}

export const is = Object.freeze({
  /** Any predicate, with the description the report shows. */
  where: (description: string, test: (actual: unknown) => boolean) => matcher(description, test),
  oneOf: (values: readonly unknown[]) =>
    matcher(`one of [${values.map(show).join(', ')}]`, (a) => values.some((v) => isDeepStrictEqual(a, v))),
  type: (type: 'string' | 'number' | 'boolean' | 'object' | 'array' | 'null') =>
    matcher(`a value of type ${type}`, (a) => typeOf(a) === type),
  present: () => matcher('present (not undefined)', (a) => a !== undefined),
  absent: () => matcher('absent (undefined)', (a) => a === undefined),
  matching: (re: RegExp) => matcher(`a string matching ${re}`, (a) => typeof a === 'string' && re.test(a)),
  nonEmptyString: () => matcher('a non-empty string', (a) => typeof a === 'string' && a.length > 0),
  /** A number >= min (a count, a duration); `why` is appended to the description. */
  atLeast: (min: number, why?: string) =>
    matcher(
      `at least ${min}${why === undefined ? '' : ` (${why})`}`,
      (a) => typeof a === 'number' && a >= min,
    ),
  /** A number <= max (a count, a duration); `why` is appended to the description. */
  atMost: (max: number, why?: string) =>
    matcher(
      `at most ${max}${why === undefined ? '' : ` (${why})`}`,
      (a) => typeof a === 'number' && a <= max,
    ),
  /** An object having at least these fields with deep-equal values (extra fields tolerated, C-36). */
  objectContaining: (fields: Record<string, unknown>) =>
    matcher(`an object containing ${show(fields)}`, (a) => containsFields(a, fields)),
});

export function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function containsFields(actual: unknown, fields: Record<string, unknown>): boolean {
  if (typeOf(actual) !== 'object') return false;
  const obj = actual as Record<string, unknown>;
  return Object.entries(fields).every(([k, v]) =>
    isMatcher(v) ? v.test(obj[k]) : isDeepStrictEqual(obj[k], v),
  );
}

/** Decides an expectation: a matcher (`is.where` for any predicate) or deep equality. Returns the recorded `expected`. */
export function evaluate(actual: unknown, expected: unknown): { pass: boolean; expected: unknown } {
  if (isMatcher(expected)) return { pass: expected.test(actual), expected: expected.description };
  return { pass: isDeepStrictEqual(actual, expected), expected };
}
