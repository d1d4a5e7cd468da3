// Property checks for suites: fast-check runs with the run's one seed/runs setting (--seed, --runs),
// and a counterexample is recorded as a failed assertion with its seed and replay path, not thrown.
import fc from 'fast-check';
import { is } from './matchers.ts';
import type { CheckRecorder } from './recorder.ts';
import { errorMessage } from './recorder.ts';

export interface PropertySettings {
  seed: number;
  runs: number;
}

export type PropertyPredicate<T> = (value: T) => boolean | void | Promise<boolean | void>;

/**
 * What one property may spend on the agent (the run's --profile): its generated cases are cut to
 * fit, from the cost of the first case. Without it a property gets every run it asks for.
 */
export interface PropertyAllowance {
  /** Agent turns and requests the check spent so far. */
  spent(): { turns: number; requests: number };
  turns: number;
  requests: number;
  /** Told the runs planned and the runs the property got. */
  ran(planned: number, runs: number): void;
}

/** Cases that fit the allowance, from what one case cost (the first case is spent already). */
export function runsWithin(
  planned: number,
  cost: { turns: number; requests: number },
  allowance: Pick<PropertyAllowance, 'turns' | 'requests'>,
): number {
  const fit = (allowed: number, each: number): number =>
    each <= 0 ? Infinity : Math.floor((allowed - each) / each);
  return Math.max(
    1,
    Math.min(planned, fit(allowance.turns, cost.turns), fit(allowance.requests, cost.requests)),
  );
}

/** Errors that mean the harness could not conclude (no answer, budget): rethrown as `error`. */
export type HarnessFailure = (e: unknown) => boolean;

export async function checkProperty<T>(
  recorder: CheckRecorder,
  settings: PropertySettings,
  isHarnessFailure: HarnessFailure,
  label: string,
  arb: fc.Arbitrary<T>,
  predicate: PropertyPredicate<T>,
  numRuns = settings.runs,
  allowance?: PropertyAllowance,
): Promise<boolean> {
  const property = fc.asyncProperty(arb, async (value) => (await predicate(value)) !== false);
  let details: fc.RunDetails<[T]>;
  const unbounded =
    allowance === undefined || (allowance.turns === Infinity && allowance.requests === Infinity);
  if (unbounded || numRuns <= 1) {
    details = await fc.check(property, { seed: settings.seed, numRuns });
    allowance?.ran(numRuns, numRuns);
  } else {
    // The first case alone says what a case costs; the same seed then replays it first.
    allowance = allowance!;
    const before = allowance.spent();
    details = await fc.check(property, { seed: settings.seed, numRuns: 1 });
    const after = allowance.spent();
    const cost = { turns: after.turns - before.turns, requests: after.requests - before.requests };
    const runs = details.failed ? 1 : runsWithin(numRuns, cost, allowance);
    allowance.ran(numRuns, runs);
    if (!details.failed && runs > 1)
      details = await fc.check(property, { seed: settings.seed, numRuns: runs });
    numRuns = runs;
  }
  if (!details.failed) {
    return recorder.check(
      label,
      `${details.numRuns} generated case(s) held`,
      is.where(`holds for ${numRuns} generated case(s)`, () => true),
    );
  }
  if (details.counterexample === null) {
    recorder.info(
      `${label}: property not concluded (${details.interrupted ? 'interrupted' : 'too many skipped cases'})`,
    );
    return true;
  }
  if (isHarnessFailure(details.errorInstance)) throw details.errorInstance;
  const actual = {
    counterexample: details.counterexample[0],
    ...(details.errorInstance === null ? {} : { error: errorMessage(details.errorInstance) }),
  };
  recorder.info(
    `${label}: replay with --seed ${details.seed} (fast-check path ${details.counterexamplePath})`,
  );
  return recorder.check(
    label,
    actual,
    is.where('holds for every generated case', () => false),
  );
}
