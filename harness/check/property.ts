// Property checks for suites: fast-check runs with the run's one seed/runs setting (--seed, --runs),
// and a counterexample is recorded as a failed assertion with its seed and replay path, not thrown.
import fc from 'fast-check';
import type { CheckRecorder } from './recorder.ts';
import { errorMessage } from './recorder.ts';

export interface PropertySettings {
  seed: number;
  runs: number;
}

export type PropertyPredicate<T> = (value: T) => boolean | void | Promise<boolean | void>;

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
): Promise<boolean> {
  const property = fc.asyncProperty(arb, async (value) => (await predicate(value)) !== false);
  const details = await fc.check(property, { seed: settings.seed, numRuns });
  if (!details.failed) {
    return recorder.check(
      label,
      `${details.numRuns} generated case(s) held`,
      `holds for ${numRuns} generated case(s)`,
      () => true,
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
  return recorder.check(label, actual, 'holds for every generated case', () => false);
}
