// The checks of a run, graded per requirement: the selected suites run within the budget (with the
// run's plan, harness/runner/planner.ts) and their results folded; or, when the probe failed or a
// signal came before the first check, every selected requirement said unverified without a check.
import type { Requirement } from '../../requirements/types.ts';
import type { ResolvedRunOptions } from '../options.ts';
import { authKindOf, budgetCut } from '../provided.ts';
import type { HarnessError, RequirementResult, RunTraffic } from '../../core/types.ts';
import { interruptedBy, type Interruption } from '../../core/interrupt.ts';
import type { ProgressListener } from '../../core/progress.ts';
import { assembleRequirements, ledgerFields } from './assemble.ts';
import type { CollectedTest } from './collector.ts';
import type { AgentPace } from './plan-estimate.ts';
import { runPlanner } from './planner.ts';
import type { ProbeOutcome } from './probe.ts';
import type { RunState } from './run-state.ts';
import { runSuites, type SuitesOutcome } from './run-suites.ts';
import type { RequirementCut } from './traffic.ts';

export interface Checked {
  requirements: RequirementResult[];
  harnessErrors: HarnessError[];
  couldNotRun: string | null;
  /** The suites' tests, with their traffic. */
  tests: CollectedTest[];
  /** Results a breadth pass replaced: their traffic still counts. */
  superseded: CollectedTest[];
  /** The run's plan beside what the suites spent. */
  plan?: RunTraffic['plan'];
  /** The run's webhook receiver (traffic.webhooks). */
  webhooks?: SuitesOutcome['webhooks'];
  /** The rate window filled ahead of the burst (traffic.windowFill). */
  windowFill?: SuitesOutcome['windowFill'];
  /** The pace below the card's after unannounced throttles (traffic.rateLimit.throttled). */
  throttled?: SuitesOutcome['throttled'];
  /** Requirements with a check the run's budget ended before it started (traffic.cut). */
  notRun?: RequirementCut[];
  /** A signal ended the run early (core/interrupt.ts): its exit code replaces the verdict's. */
  signalled?: Interruption;
}

export interface RunChecksInput {
  state: RunState;
  selected: Requirement[];
  opts: ResolvedRunOptions;
  log: (line: string) => void;
  progress: ProgressListener | undefined;
  agent: AgentPace;
  interrupt: AbortSignal | undefined;
  started: Date;
}

export async function runChecks(input: RunChecksInput): Promise<Checked> {
  const { state, selected, opts, log, progress, agent, interrupt, started } = input;
  const provided = state.run;
  const planner = runPlanner({ opts, provided, selected, agent, log, progress, started });
  const suites = await runSuites(
    state,
    selected.map((r) => r.id),
    opts.budgetMs,
    log,
    progress,
    planner.planner,
    interrupt,
    started.getTime(),
  );
  const reproduce = { ...state.run, authKind: authKindOf(provided.auth) };
  const assembleInput = { selected, tests: suites.tests, card: provided.card, reproduce };
  // A budget spent before every check ran is no harness error: what ran is graded, what did not is
  // not-exercised naming the --budget-ms that would fit it. Checks still waiting on the target at the
  // end of the grace after it make the run one that could not be done (interrupted).
  const budgetSpent = suites.budgetSpent;
  const assembled = assembleRequirements(
    budgetSpent === undefined ? assembleInput : { ...assembleInput, budgetSpent },
  );
  const harnessErrors = [...suites.harnessErrors, ...assembled.harnessErrors];
  if (suites.interrupted !== undefined) harnessErrors.push({ message: suites.interrupted });
  const couldNotRun =
    suites.interrupted ??
    (harnessErrors.length > 0
      ? `${harnessErrors.length} harness error(s): ${harnessErrors[0]!.message}`
      : null);
  const checked: Checked = {
    requirements: assembled.requirements,
    harnessErrors,
    couldNotRun,
    tests: suites.tests,
    superseded: suites.superseded ?? [],
  };
  if (suites.signalled !== undefined) checked.signalled = suites.signalled;
  if (suites.notRun !== undefined) {
    const cut =
      suites.signalled === undefined ? budgetCut(state.run.field, 'ran') : interruptCut(suites.signalled);
    checked.notRun = suites.notRun.map((requirementId) => ({ requirementId, ...cut }));
  }
  const plan = planner.recorded(suites);
  if (plan !== undefined) checked.plan = plan;
  if (suites.webhooks !== undefined) checked.webhooks = suites.webhooks;
  if (suites.windowFill !== undefined) checked.windowFill = suites.windowFill;
  if (suites.throttled !== undefined) checked.throttled = suites.throttled;
  return checked;
}

/** Interrupted before the first check: every selected requirement is not-exercised. */
export function interruptedBeforeChecks(selected: Requirement[], i: Interruption): Checked {
  const requirements = selected.map<RequirementResult>((r) => ({
    ...ledgerFields(r),
    verdict: 'not-exercised',
    message: `not exercised: the run was ${interruptedBy(i)} before its checks started`,
    checks: [],
  }));
  return { requirements, harnessErrors: [], couldNotRun: null, tests: [], superseded: [], signalled: i };
}

/** The probe failed: every selected requirement is unverified (error), none is a pass. */
export function notRun(selected: Requirement[], probe: ProbeOutcome): Checked {
  const requirements = selected.map<RequirementResult>((r) => ({
    ...ledgerFields(r),
    verdict: 'error',
    message: `not run: ${probe.couldNotRun}`,
    checks: [],
  }));
  return {
    requirements,
    harnessErrors: [{ message: probe.couldNotRun! }],
    couldNotRun: probe.couldNotRun,
    tests: [],
    superseded: [],
  };
}

/** How traffic.cut lists the checks an interrupt ended before they ran. */
function interruptCut(i: Interruption): { what: string; option: string } {
  return {
    what: `checks the run's interrupt (${i.signal}) ended before they ran`,
    option: 'a run that is not interrupted',
  };
}
