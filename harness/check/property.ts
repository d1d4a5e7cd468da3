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
  /** Generated cases the property may run at most (the run's plan); absent: no cap of its own. */
  cases?: number;
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
function allowanceGuard(allowance: PropertyAllowance): {
  over: (cases: number) => boolean;
  failed: () => void;
} {
  const start = allowance.spent();
  let failed = false;
  return {
    over: (cases) => {
      if (failed) return false;
      if (allowance.cases !== undefined && cases >= allowance.cases) return true;
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

/** How one property runs beside the run's seed and runs (all optional). */
export interface PropertyRunOptions {
  /** Cases to generate; default: the run's --runs. */
  numRuns?: number;
  /** What the property may spend (the run's --profile); none: every case runs. */
  allowance?: PropertyAllowance;
  /** Awaited before every case but the first, with no case in flight (CheckSpec.betweenSteps). */
  betweenCases?: () => Promise<void>;
  /**
   * Cases in flight at once, for a property whose cases are independent and leave nothing behind
   * (e.g. one malformed request each): behind a slow link the cases' round trips overlap. The cases
   * are the ones the seed generates, in rounds of `lanes` in their order; the first that fails is
   * replayed alone and shrunk, so a counterexample and its replay path are the same as in one lane.
   * Default 1.
   */
  lanes?: number;
  /**
   * A transport fault of the target (no answer, a reset): the case that met it is discarded and
   * replaced, never a counterexample; past tooManyFaulted the fault ends the property (the check
   * met it, reruns.ts).
   */
  isFault?: (e: unknown) => boolean;
}

// Why: a few faulted cases are a bad minute and are replaced; more mean the target is not answering,
// and replacing every case (fast-check's skips are a hundred per run) would wait out that many timeouts.
// A long property meets a front's occasional fault in proportion to its cases (one connection in a
// hundred reset met 400 cases about four times), so the allowance grows with the cases run.
const MAX_FAULTED_CASES = 3;
const FAULTED_SHARE = 0.05;

/** Whether `faulted` of `cases` run (the faulted ones included) is past a bad minute. */
export function tooManyFaulted(faulted: number, cases: number): boolean {
  return faulted > Math.max(MAX_FAULTED_CASES, Math.floor(cases * FAULTED_SHARE));
}

export async function checkProperty<T>(
  recorder: CheckRecorder,
  settings: PropertySettings,
  isHarnessFailure: HarnessFailure,
  label: string,
  arb: fc.Arbitrary<T>,
  predicate: PropertyPredicate<T>,
  { numRuns = settings.runs, allowance, betweenCases, lanes = 1, isFault }: PropertyRunOptions = {},
): Promise<boolean> {
  const bounded =
    allowance !== undefined &&
    (allowance.turns !== Infinity || allowance.requests !== Infinity || allowance.cases !== undefined);
  const guard = bounded ? allowanceGuard(allowance) : undefined;
  let cases = 0;
  // Cases that held: a faulted case proved nothing and is not one (nor is the case that failed).
  let held = 0;
  let stoppedAt: number | undefined;
  const property = fc.asyncProperty(arb, async (value) => {
    if (guard !== undefined && cases > 0 && guard.over(cases)) {
      stoppedAt ??= cases;
      throw new AllowanceSpent("the profile's allowance of this property is spent");
    }
    // In lanes, between rounds instead (firstFailureInLanes): no case of the round may be in flight.
    if (cases > 0 && lanes === 1) await betweenCases?.();
    cases += 1;
    try {
      const holds = (await predicate(value)) !== false;
      if (holds) held += 1;
      else guard?.failed();
      return holds;
    } catch (e) {
      if (isFault?.(e) === true) {
        faulted.push(e);
        throw new fc.PreconditionFailure(tooManyFaulted(faulted.length, cases));
      }
      if (!fc.PreconditionFailure.isFailure(e)) guard?.failed();
      throw e;
    }
  });
  const faulted: unknown[] = [];
  const params = { seed: settings.seed, numRuns };
  let details: fc.RunDetails<[T]> | undefined;
  let laneRuns: number | undefined;
  if (lanes > 1) {
    const failedAt = await firstFailureInLanes(arb, property, params, lanes, betweenCases);
    laneRuns = cases;
    // The first case that failed, replayed alone from its index and shrunk by fast-check (one run:
    // a case that holds on replay must not start the cases after it one at a time).
    if (failedAt !== undefined) {
      details = await fc.check(property, { ...params, numRuns: 1, path: String(failedAt) });
    }
  } else {
    details = await fc.check(property, params);
  }
  if (tooManyFaulted(faulted.length, cases)) throw faulted.at(-1);
  if (faulted.length > 0) {
    recorder.info(`${label}: ${faulted.length} generated case(s) met a transport fault and were replaced`);
  }
  // Stopped by the allowance: every case before it held (a failing one would have ended the run).
  const stopped =
    details === undefined
      ? stoppedAt !== undefined
      : details.failed && details.errorInstance instanceof AllowanceSpent;
  const runs = stopped ? (stoppedAt ?? cases) : (laneRuns ?? details?.numRuns ?? cases);
  allowance?.ran(numRuns, runs);
  if (details === undefined || !details.failed || stopped) {
    // Every case that ran met a fault and the allowance (the run's plan: one case in phase 1) left
    // none to replace it: nothing held, the check met the fault (not-exercised, never a pass).
    if (held === 0 && faulted.length > 0) throw faulted.at(-1);
    return recorder.check(
      label,
      `${held} generated case(s) held`,
      is.where(`holds for ${held} generated case(s)`, () => true),
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

/**
 * Runs a property's generated cases (`params`: its seed and runs) in rounds of `lanes` at once, in
 * generation order, and returns the index of the first that failed (a false result or an error other
 * than a precondition), if any. No round starts once one failed or the allowance stopped them;
 * `betweenRounds` is awaited between rounds, when no case is in flight.
 */
async function firstFailureInLanes<T>(
  arb: fc.Arbitrary<T>,
  property: fc.IAsyncProperty<[T]>,
  params: { seed: number; numRuns: number },
  lanes: number,
  betweenRounds: (() => Promise<void>) | undefined,
): Promise<number | undefined> {
  // The values fc.check generates for this seed, in its order (fc.sample's differ from the tenth on).
  const values: Array<[T]> = [];
  await fc.check(
    fc.asyncProperty(arb, async (value) => void values.push([value])),
    params,
  );
  for (let start = 0; start < values.length; start += lanes) {
    if (start > 0) await betweenRounds?.();
    const outs = await Promise.all(values.slice(start, start + lanes).map((v) => property.run(v)));
    for (const [k, out] of outs.entries()) {
      if (out === null || fc.PreconditionFailure.isFailure(out)) continue;
      return out.error instanceof AllowanceSpent ? undefined : start + k;
    }
  }
  return undefined;
}
