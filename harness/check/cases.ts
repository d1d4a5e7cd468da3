// Cases and lanes: how a check's enumerated property (c.each) runs its cases, side by side in lanes
// or one after another, a case that met a transport fault run again by itself (reruns.ts), and how
// many of them (and of a generated property's, c.property) the run's plan and profile allow, telling
// the report of each cut and the option that runs more.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { TrafficTally } from '../io/traffic/tallies.ts';
import { largerBudgetOption, type ProvidedRun } from '../provided.ts';
import { NoAnswerError } from './no-answer.ts';
import { propertyLimits } from './profile.ts';
import type { PropertyAllowance } from './property.ts';
import type { CheckRecorder } from './recorder.ts';
import { countReRun, faultOf, MAX_RERUNS, type RunFault } from './reruns.ts';

export interface EachOptions {
  /**
   * Cases run side by side, in rounds of this many (default 1: one after another). For cases that
   * are independent requests: over a slow link their round trips overlap instead of adding up. What
   * each case records is kept apart and appended in case order, so the report reads the same as in
   * one lane; the first case (in order) that stops the check stops it, the later cases of its round
   * recording nothing. A check's betweenSteps (CheckSpec) is awaited between rounds, with no case of
   * the round in flight.
   */
  lanes?: number;
}

/**
 * c.each's lanes for cases that are independent requests (no task of one read by another, no
 * c.exchanges() slicing): four overlap a slow link's round trips without crowding the agent.
 */
export const SIDE_BY_SIDE: EachOptions = { lanes: 4 };

/** The recorder of the c.each case running in this async context, for the check that started it. */
export const caseScope = new AsyncLocalStorage<{ of: CheckRecorder; case: CheckRecorder }>();

/** The recorder a check records into here: inside a c.each case run beside others, that case's fork. */
export function recorderInScope(recorder: CheckRecorder): CheckRecorder {
  const scope = caseScope.getStore();
  return scope?.of === recorder ? scope.case : recorder;
}

/** What the cases of one check run under: its recorder, its tally and its budget's signal. */
export interface CaseScope {
  recorder: CheckRecorder;
  tally: TrafficTally | undefined;
  /** Aborted when the check's budget is spent: a call it cut short is no fault of the target. */
  signal: AbortSignal;
}

/**
 * c.each: `each` once per case, in order, in rounds of `options.lanes`, as many as the run's plan
 * gives this check (`name`); `betweenSteps` between rounds; a case that met a fault run again
 * (runCase). Returns the cases that ran.
 */
export async function runEach<T>(
  run: ProvidedRun,
  { recorder, tally, signal }: CaseScope,
  name: string | undefined,
  betweenSteps: (() => Promise<void>) | undefined,
  label: string,
  cases: readonly T[],
  each: (item: T, index: number) => Promise<void> | void,
  options: EachOptions = {},
): Promise<number> {
  const cap = planCases(run, name);
  const runs = Math.min(cases.length, cap ?? Infinity);
  const lanes = Math.max(1, Math.floor(options.lanes ?? 1));
  // Steps that must not overlap (CheckSpec.betweenSteps) come between rounds: no case in flight.
  const again = (): boolean => Date.now() < (run.field.budget?.endsAt ?? Infinity);
  const absorbed = (met: readonly RunFault[]): void => countReRun(tally, met);
  for (let i = 0; i < runs; i += lanes) {
    if (i > 0) await betweenSteps?.();
    const round = cases.slice(i, Math.min(runs, i + lanes));
    await eachRound(recorder, round, i, (item, k) =>
      runCase(recorder, signal, { again, absorbed }, item, k, each),
    );
  }
  if (runs < cases.length) {
    const { option, why } = planCut(run);
    recorder.info(`${label}: ${runs} of ${cases.length} cases (${why}; ${option} runs them all)`);
    tally?.properties.push({ label, planned: cases.length, runs });
    tally?.cuts.push({
      what: "cases of an enumerated property beyond what the run's budget holds at this agent's pace",
      option,
    });
  }
  return runs;
}

/**
 * One round of c.each cases (side by side in lanes, or one), each run by `runCase` into its own fork
 * of the check's recorder; the forks are adopted in case order up to the first case that threw, whose
 * error is rethrown.
 */
export async function eachRound<T>(
  recorder: CheckRecorder,
  round: readonly T[],
  first: number,
  runCase: (item: T, index: number) => Promise<CaseRun>,
): Promise<void> {
  const settled = await Promise.all(round.map((item, k) => runCase(item, first + k)));
  for (const { fork, thrown } of settled) {
    recorder.adopt(fork);
    if (thrown !== undefined) throw thrown;
  }
}

/** One case of c.each as it ended: what its last run recorded, and what that run threw. */
export interface CaseRun {
  fork: CheckRecorder;
  thrown?: unknown;
}

/**
 * One case of c.each, recording into its own fork of the check's recorder. A run of the case that
 * met a transport fault (a call got no complete answer: NoAnswerError) and proved no violation is
 * followed by another, by itself and from scratch: its whole body again, so fresh request ids and,
 * where the body builds a task or a message, fresh ones (a call that may change something is never
 * resent by itself). At most MAX_RERUNS after the first, while the check's budget and the run's last
 * (`again`); what a faulted run recorded is dropped (its exchanges stay in the evidence), so the
 * case's verdict comes from a run whose exchanges were complete (its faults then `absorbed`: reRun). A failed
 * assertion before the fault is a proven violation: it stands, never re-run away. A fault on every
 * run ends the check's run as before (reruns.ts: the check re-runs, else it is not exercised).
 */
async function runCase<T>(
  recorder: CheckRecorder,
  signal: AbortSignal,
  rerun: { again: () => boolean; absorbed: (met: readonly RunFault[]) => void },
  item: T,
  index: number,
  each: (item: T, index: number) => Promise<void> | void,
): Promise<CaseRun> {
  const met: RunFault[] = [];
  for (;;) {
    const fork = recorder.fork();
    let thrown: unknown;
    try {
      await caseScope.run({ of: recorder, case: fork }, async () => each(item, index));
    } catch (e) {
      thrown = e;
    }
    const fault = thrown instanceof NoAnswerError && !signal.aborted ? faultOf(thrown.exchange) : undefined;
    const proven = fork.assertions.some((a) => !a.pass);
    if (fault === undefined || proven || met.length >= MAX_RERUNS || !rerun.again()) {
      if (met.length > 0) fork.notes.unshift(caseReRunNote(index, met, fault === undefined));
      if (fault === undefined || proven) rerun.absorbed(met);
      return thrown === undefined ? { fork } : { fork, thrown };
    }
    met.push(fault);
  }
}

function caseReRunNote(index: number, met: readonly RunFault[], clean: boolean): string {
  const faults = met.map((f) => `${f.kind} on ${f.method} (${f.message})`).join('; ');
  return `case ${index + 1} met a transport fault and was run again from scratch ${met.length} time(s)${clean ? '' : ', meeting one every time'}: ${faults}`;
}

/** The cases the run's plan gives a property of this check (harness/runner/plan.ts); undefined: no cap. */
export function planCases(run: ProvidedRun, name: string | undefined): number | undefined {
  const breadth = run.field.breadth;
  return breadth === undefined ? undefined : breadth.phase === 'coverage' ? 1 : breadth.cases[name ?? ''];
}

/** What a cut by the run's plan is told as: why, the option that runs more, the tally's words. */
export function planCut(run: ProvidedRun): { option: string; why: string; what: string } {
  const breadth = run.field.breadth;
  return {
    option: largerBudgetOption(run.field),
    why: `the run's plan: ${breadth?.phase === 'coverage' ? 'one case each in phase 1, every requirement first' : 'what fits of the budget after every requirement ran once'}`,
    what: "generated cases of a property beyond what the run's budget holds at this agent's pace",
  };
}

/** The profile's allowance for one property of a check, or none (`full`). */
export function propertyAllowance(
  run: ProvidedRun,
  tally: TrafficTally | undefined,
  recorder: CheckRecorder,
  label: string,
  name: string | undefined,
): PropertyAllowance | undefined {
  const limits = propertyLimits(run.field);
  // The run's plan (harness/runner/plan.ts): one case in phase 1, the planned cases in phase 2.
  const cases = planCases(run, name);
  const ran = (planned: number, runs: number): void => {
    tally?.properties.push({ label, planned, runs });
    if (runs >= planned) return;
    const budgetCut = cases !== undefined && runs >= cases;
    const byPlan = planCut(run);
    const option = budgetCut
      ? byPlan.option
      : run.field.profile === 'smoke'
        ? '--profile standard or full'
        : '--profile full';
    const why = budgetCut ? byPlan.why : `profile ${run.field.profile}`;
    recorder.info(`${label}: ${runs} of ${planned} generated cases (${why}; ${option} runs more)`);
    const what = budgetCut ? byPlan.what : 'generated cases of a property that costs agent turns or requests';
    tally?.cuts.push({ what, option });
  };
  const capped = cases === undefined ? {} : { cases };
  if (limits === undefined || tally === undefined)
    return { spent: () => ({ turns: 0, requests: 0 }), turns: Infinity, requests: Infinity, ran, ...capped };
  return { ...limits, ran, spent: () => ({ turns: tally.agentTurns, requests: tally.requests }), ...capped };
}
