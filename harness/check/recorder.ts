// Records what a check observed: assertions (expected beside actual), notes and an explicit outcome.
// Findings are data; only CheckStop (raised by fail/notExercised/notApplicable) ends a check early.
import type { Assertion, CheckStatus } from '../../core/types.ts';
import { describeValue } from '../../core/describe.ts';
import { evaluate } from './matchers.ts';

type StopStatus = 'fail' | 'not-applicable' | 'not-exercised';

/** Thrown by the recorder to end a check early; never escapes verifies(). */
export class CheckStop extends Error {
  constructor(
    readonly status: StopStatus,
    message: string,
  ) {
    super(message);
    this.name = 'CheckStop';
  }
}

/** Whether `e` ended a check as not exercised (c.notExercised: its precondition could not be held). */
export function isNotExercisedStop(e: unknown): boolean {
  return e instanceof CheckStop && e.status === 'not-exercised';
}

export interface Outcome {
  status: CheckStatus;
  message: string;
  /** The first failed assertion's label: the field path it read (`result.canceled`). */
  field?: string;
  expected?: unknown;
  actual?: unknown;
}

export class CheckRecorder {
  readonly assertions: Assertion[] = [];
  readonly notes: string[] = [];
  private failure: { message: string; expected?: unknown; actual?: unknown } | undefined;

  /**
   * Soft assertion: records and returns whether it held; the check goes on either way. `expected` is
   * a value (deep equality) or a matcher of `is` (`is.where(description, test)` for a predicate).
   */
  check(label: string, actual: unknown, expected: unknown): boolean {
    const verdict = evaluate(actual, expected);
    this.assertions.push({ label, expected: verdict.expected, actual, pass: verdict.pass });
    return verdict.pass;
  }

  /** Hard assertion: like check(), but a miss ends the check as failed (later steps depend on it). */
  require(label: string, actual: unknown, expected: unknown): void {
    if (!this.check(label, actual, expected)) {
      throw new CheckStop('fail', this.describeAssertion(this.assertions.at(-1)!));
    }
  }

  fail(message: string, detail: { expected?: unknown; actual?: unknown } = {}): never {
    this.failure = { message, ...detail };
    throw new CheckStop('fail', message);
  }

  /** The check could not exercise the behaviour (e.g. a precondition the target did not meet). */
  notExercised(reason: string): never {
    throw new CheckStop('not-exercised', reason);
  }

  /** The behaviour does not apply to this target (e.g. a capability its card does not claim). */
  notApplicable(reason: string): never {
    throw new CheckStop('not-applicable', reason);
  }

  info(message: string, data?: unknown): void {
    this.notes.push(data === undefined ? message : `${message}: ${describeValue(data)}`);
  }

  /**
   * What one case of an enumerated property run beside others (c.each with lanes) records, apart:
   * adopt() appends it in case order, so the report reads as if the cases had run one after another.
   */
  fork(): CheckRecorder {
    return new CheckRecorder();
  }

  /** Appends what a fork() recorded (its assertions, notes and explicit failure). */
  adopt(child: CheckRecorder): void {
    this.assertions.push(...child.assertions);
    this.notes.push(...child.notes);
    this.failure ??= child.failure;
  }

  /** Folds what was recorded with how the check function ended (`thrown` undefined when it returned). */
  finish(thrown: unknown): Outcome {
    const failed = this.assertions.filter((a) => !a.pass);
    if (this.failure)
      return { status: 'fail', ...this.failure, message: this.withMore(this.failure.message, failed.length) };
    const first = failed[0];
    // A recorded failure stands even if the check later stopped or crashed: it is evidence.
    if (first) return this.failedOutcome(first, failed.length, thrown);
    if (thrown instanceof CheckStop) return { status: thrown.status, message: thrown.message };
    if (thrown !== undefined) return { status: 'error', message: `harness error: ${errorMessage(thrown)}` };
    if (this.assertions.length === 0) {
      return { status: 'not-exercised', message: 'the check recorded no assertion' };
    }
    return { status: 'pass', message: `${this.assertions.length} assertion(s) held` };
  }

  private failedOutcome(first: Assertion, count: number, thrown: unknown): Outcome {
    let message = this.withMore(this.describeAssertion(first), count - 1);
    if (thrown !== undefined && !(thrown instanceof CheckStop)) {
      message += `; the check then stopped: ${errorMessage(thrown)}`;
    }
    return { status: 'fail', message, field: first.label, expected: first.expected, actual: first.actual };
  }

  private describeAssertion(a: Assertion): string {
    return `${a.label}: expected ${describeValue(a.expected)}, actual ${describeValue(a.actual)}`;
  }

  private withMore(message: string, others: number): string {
    return others > 0 ? `${message} (+${others} more failed assertion(s))` : message;
  }
}

export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
