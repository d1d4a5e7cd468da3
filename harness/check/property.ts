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
 * What one property may spend on the agent (the run's --profile): its generated cases stop once the
 * check spent it (the case under way ends first). Without it a property gets every run it asks for.
 */
export interface PropertyAllowance {
  /** Agent turns and requests the check spent so far. */
  spent(): { turns: number; requests: number };
  turns: number;
  requests: number;
  /** Told the runs planned and the runs the property got. */
  ran(planned: number, runs: number): void;
}

/** Errors that mean the harness could not conclude (no answer, budget): rethrown as `error`. */
export type HarnessFailure = (e: unknown) => boolean;

/** Thrown by a case that would start past the allowance: the cases before it are the property's run. */
class AllowanceSpent extends Error {}

/**
 * A case guard: true once the allowance is spent, counted from now. After a case failed it stays
 * false, so that shrinking the counterexample is never cut short.
 */
function allowanceGuard(allowance: PropertyAllowance): { over: () => boolean; failed: () => void } {
  const start = allowance.spent();
  let failed = false;
  return {
    over: () => {
      if (failed) return false;
      const now = allowance.spent();
      return (
        now.turns - start.turns >= allowance.turns || now.requests - start.requests >= allowance.requests
      );
    },
    failed: () => {
      failed = true;
    },
  };
}

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
  const bounded =
    allowance !== undefined && (allowance.turns !== Infinity || allowance.requests !== Infinity);
  const guard = bounded ? allowanceGuard(allowance) : undefined;
  let cases = 0;
  let stoppedAt: number | undefined;
  const property = fc.asyncProperty(arb, async (value) => {
    if (guard !== undefined && cases > 0 && guard.over()) {
      stoppedAt ??= cases;
      throw new AllowanceSpent("the profile's allowance of this property is spent");
    }
    cases += 1;
    try {
      const held = (await predicate(value)) !== false;
      if (!held) guard?.failed();
      return held;
    } catch (e) {
      if (!fc.PreconditionFailure.isFailure(e)) guard?.failed();
      throw e;
    }
  });
  const details = await fc.check(property, { seed: settings.seed, numRuns });
  // Stopped by the allowance: every case before it held (a failing one would have ended the run).
  const stopped = details.failed && details.errorInstance instanceof AllowanceSpent;
  const runs = stopped ? (stoppedAt ?? cases) : details.numRuns;
  allowance?.ran(numRuns, runs);
  if (!details.failed || stopped) {
    return recorder.check(
      label,
      `${runs} generated case(s) held`,
      is.where(`holds for ${runs} generated case(s)`, () => true),
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
