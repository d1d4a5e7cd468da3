// The run's state: what the runner decides as a run goes (the probe's card and pace, the budget and
// its paced deadline, the workers and the links to them, the plan's passes, the window fill), kept
// apart from what the run was asked (RunSettings, frozen), and the one place the workers are handed
// the two joined (ProvidedRun, through vitest's provide): every decision re-provides it.
import type { DecidedField, ProvidedRun, RunDecisions, RunSettings } from '../provided.ts';

/** A decision: the members it sets; a member given as undefined is taken back. */
export type Decision = Partial<Omit<RunDecisions, 'field'>> & { field?: Partial<DecidedField> };

export class RunState {
  private decided: RunDecisions;
  private current: ProvidedRun;
  private provide: ((run: ProvidedRun) => void) | undefined;

  constructor(
    readonly settings: RunSettings,
    initial: RunDecisions,
  ) {
    this.decided = { ...initial, field: { ...initial.field } };
    this.current = this.join();
  }

  /** The run as the workers receive it now (frozen: a change is a decision). */
  get run(): ProvidedRun {
    return this.current;
  }

  /** What the runner decided so far. */
  get field(): Readonly<DecidedField> {
    return this.decided.field;
  }

  decide(decision: Decision): void {
    const { field, ...top } = decision;
    this.decided = { ...this.decided, ...top, field: { ...this.decided.field, ...field } };
    dropUndefined(this.decided as unknown as Record<string, unknown>);
    dropUndefined(this.decided.field as unknown as Record<string, unknown>);
    this.current = this.join();
    this.provide?.(this.current);
  }

  /** Hands the run to the workers now and after every decision (one provider at a time). */
  provideTo(provide: ((run: ProvidedRun) => void) | undefined): void {
    this.provide = provide;
    provide?.(this.current);
  }

  private join(): ProvidedRun {
    const { field, ...top } = this.decided;
    const run: ProvidedRun = {
      ...this.settings,
      ...top,
      field: Object.freeze({ ...this.settings.field, ...field }),
    } as ProvidedRun;
    return Object.freeze(run);
  }
}

function dropUndefined(record: Record<string, unknown>): void {
  for (const key of Object.keys(record)) if (record[key] === undefined) delete record[key];
}
