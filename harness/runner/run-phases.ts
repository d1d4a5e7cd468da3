// The suites' passes through one vitest instance: the collection of the checks' declarations, the plan,
// the files in the schedule's phases (MUST first when the budget is short, the breadth pass of the
// properties, the files that run last), each handed the run's current state.
import type { DecidedField } from '../provided.ts';
import type { Collector, CollectedTest } from './collector.ts';
import { declarationsKey, readDeclarations, writeDeclarations } from './declaration-cache.ts';
import { listingOf, type Listing } from './list-checks.ts';
import { PROJECT_ROOT, SUITES_CONFIG } from './paths.ts';
import { testName } from './plan-estimate.ts';
import type { RunPlan } from './plan.ts';
import type { RunState } from './run-state.ts';
import { fileSchedules, providedSchedule, suitePhases, type FileSchedule } from './schedule.ts';

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/**
 * verifies() names tests `<id> <title>`; vitest matches the pattern against the full name (parent
 * suite names joined by spaces), so an id is matched at the start or after a space, and must be
 * followed by a space so that `2.1/id` does not select `2.1/id-types`.
 */
export function testNamePattern(ids: readonly string[]): string {
  return `(?:^| )(?:${ids.map(escapeRegExp).join('|')}) `;
}

function vitestOptions(state: RunState, ids: readonly string[], collector: Collector, workers: number) {
  const parallel = workers > 1 ? { fileParallelism: true, maxWorkers: workers } : {};
  return {
    ...parallel,
    root: PROJECT_ROOT,
    config: SUITES_CONFIG,
    watch: false,
    run: true,
    reporters: [collector],
    testNamePattern: testNamePattern(ids),
    // vitest's own timeout stays above the check budget so verifies() reports overruns itself.
    testTimeout: state.settings.checkTimeoutMs + 5_000,
    provide: { a2aRun: state.run },
  };
}

/** The checks of these requirements: those a test-name filter of `ids` keeps. */
function checksOf(checks: Listing['checks'], ids: readonly string[]): Listing['checks'] {
  const wanted = new Set(ids);
  return checks.filter((c) => wanted.has(c.requirementId));
}

/** What the runner does with the collected checks before the first one runs: its plan, if any. */
export type Planner = (checks: Listing['checks'], workers: number) => RunPlan | undefined;

export interface PhaseRun {
  state: RunState;
  collector: Collector;
  files: readonly string[] | undefined;
  ids: readonly string[];
  workers: number;
  stopped: () => string | undefined;
  planner: Planner;
  /** Told the selected checks and the plan, and when the run makes a breadth pass, where its results start in the collector. */
  onPlan: (plan: RunPlan | undefined, selected: Listing['checks']) => void;
  onBreadth: () => void;
  /** Called before the files that run last start (once); what it returns is provided to them. */
  beforeLast: () => Promise<DecidedField['windowFill']>;
}

/** The phases with the files declared to run last split off, so that the breadth pass runs before them. */
function splitLast(phases: string[][], schedules: readonly FileSchedule[]): [string[][], string[]] {
  const last = new Set(schedules.filter((f) => f.runs === 'last').map((f) => f.file));
  const before = phases.map((phase) => phase.filter((f) => !last.has(f))).filter((p) => p.length > 0);
  return [before, phases.flat().filter((f) => last.has(f))];
}

/**
 * The cases each property gets in the breadth pass: the plan's, scaled down when the time left is
 * less than the plan expected (phase 1 took longer).
 */
function breadthCases(plan: RunPlan, timeLeftMs: number): Record<string, number> {
  const scale = plan.breadth.ms <= 0 ? 1 : Math.min(1, Math.max(0, timeLeftMs) / plan.breadth.ms);
  return Object.fromEntries(
    plan.breadth.properties
      .map((p) => [p.check, 1 + Math.floor((p.cases - 1) * scale)] as const)
      .filter(([, cases]) => cases > 1),
  );
}

/**
 * Collects the suite files (vitest runs them to register their checks, nothing is sent; the result is
 * kept while the suites do not change, declaration-cache.ts), plans the
 * run and orders and phases the files from their declarations (harness/runner/schedule.ts,
 * plan.ts), then runs each phase's files in turn in the same vitest instance: its workers and their
 * loaded modules carry over from collection to phase to phase (a vitest started per phase cost about
 * 2 s each). When the budget cannot hold every generated case the profile asks for, the phases run
 * with one case per property (coverage first), then the properties run again with the cases the plan
 * gave them (breadth), before the files declared to run last. Stops between phases once `stopped()`
 * says why.
 */
export async function runPhases(run: PhaseRun): Promise<void> {
  const { state, workers, stopped } = run;
  // What startVitest sets before it creates its instance.
  process.env.TEST = 'true';
  process.env.VITEST = 'true';
  process.env.NODE_ENV ??= 'test';
  // Loaded on demand: vitest/node is the heaviest import of the CLI (seconds under tsx).
  const { createVitest } = await import('vitest/node');
  const exits = signalListeners();
  const vitest = await createVitest('test', vitestOptions(state, run.ids, run.collector, workers));
  // vitest's own SIGINT and SIGTERM listeners end the process at once: the runner's interrupt
  // (harness/runner/run-end.ts) ends the run itself, keeping what was decided.
  dropListenersSince(exits);
  state.provideTo((provided) => vitest.provide('a2aRun', provided));
  try {
    // Collected once per content of the suites: a collection loads every file, which the run repeats.
    const key = declarationsKey(PROJECT_ROOT, run.files);
    let listing = readDeclarations(key);
    if (listing === undefined) {
      listing = listingOf(await vitest.collect(run.files === undefined ? [] : [...run.files]));
      writeDeclarations(key, listing);
    }
    // A file that does not load (or declares nothing: verifies() throws) is a harness error.
    if (listing.errors.length > 0) {
      const first = listing.errors[0]!;
      throw new Error(`a suite file did not load: ${first.file ?? ''} ${first.message}`.trim());
    }
    const selected = checksOf(listing.checks, run.ids);
    const plan = run.planner(selected, workers);
    run.onPlan(plan, selected);
    // A check the budget cuts names the --budget-ms the plan says would fit (largerBudgetOption).
    const budget = state.field.budget;
    if (plan !== undefined && budget !== undefined)
      state.decide({ field: { budget: { ...budget, toFit: plan.budgetToFit } } });
    const schedules = fileSchedules(selected);
    const order = plan?.fileOrder;
    vitest.provide('a2aSchedule', providedSchedule(schedules, workers, order));
    const breadth = plan !== undefined && plan.fits !== 'everything' && plan.breadth.properties.length > 0;
    let [phases, last] = splitLast(suitePhases(schedules, workers, order), schedules);
    if (!breadth) [phases, last] = [suitePhases(schedules, workers, order), []];
    if (breadth) state.decide({ field: { breadth: { phase: 'coverage', cases: {} } } });
    let started = false;
    const lastFiles = new Set(schedules.filter((f) => f.runs === 'last').map((f) => f.file));
    let lastAhead = true;
    const runFiles = async (files: string[]): Promise<void> => {
      if (lastAhead && files.some((f) => lastFiles.has(f))) {
        lastAhead = false;
        const filled = await run.beforeLast();
        if (filled !== undefined) state.decide({ field: { windowFill: filled } });
      }
      if (!started) await vitest.start(files);
      else await vitest.runTestFiles(files);
      started = true;
    };
    // Phase 1 that does not fit the budget runs one check of each MUST requirement first, then every
    // other check, each pass its files in the plan's order; a check of the other pass is skipped by
    // name (nothing is sent).
    const passes = plan?.coveragePasses ?? [undefined];
    for (const pass of passes) {
      const names = pass === undefined ? undefined : new Set(pass.checks);
      const files =
        names === undefined
          ? undefined
          : new Set(selected.filter((c) => names.has(testName(c))).map((c) => c.file));
      if (pass !== undefined) {
        vitest.setGlobalTestNamePattern(exactNames(pass.checks));
        vitest.provide('a2aSchedule', providedSchedule(schedules, workers, pass.fileOrder));
      }
      for (const phase of phases) {
        if (stopped() !== undefined) return;
        const these = files === undefined ? phase : phase.filter((f) => files.has(f));
        // The first phase starts vitest (reporters' onInit, global setup).
        if (these.length > 0) await runFiles(these);
      }
    }
    if (plan?.coveragePasses !== undefined) vitest.setGlobalTestNamePattern(testNamePattern(run.ids));
    if (breadth && stopped() === undefined) {
      const cases = breadthCases(plan, (state.field.deadlineAt ?? Infinity) - Date.now());
      const names = Object.keys(cases);
      if (names.length > 0) {
        state.decide({ field: { breadth: { phase: 'breadth', cases } } });
        vitest.setGlobalTestNamePattern(exactNames(names));
        run.onBreadth();
        const files = [
          ...new Set(selected.filter((c) => cases[testName(c)] !== undefined).map((c) => c.file)),
        ];
        await runFiles(files);
        vitest.setGlobalTestNamePattern(testNamePattern(run.ids));
      }
      state.decide({ field: { breadth: undefined } });
    }
    if (last.length > 0 && stopped() === undefined) await runFiles(last);
  } finally {
    state.provideTo(undefined);
    await vitest.close();
  }
}

type Listeners = Record<'SIGINT' | 'SIGTERM', Array<(...args: unknown[]) => void>>;

function signalListeners(): Listeners {
  return {
    SIGINT: process.listeners('SIGINT') as Listeners['SIGINT'],
    SIGTERM: process.listeners('SIGTERM') as Listeners['SIGTERM'],
  };
}

/** Removes the SIGINT and SIGTERM listeners added since `before`. */
function dropListenersSince(before: Listeners): void {
  const now = signalListeners();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    for (const listener of now[signal]) if (!before[signal].includes(listener)) process.off(signal, listener);
  }
}

/** A pattern that selects exactly these test names (vitest matches it against the full name). */
function exactNames(names: readonly string[]): string {
  return `^(?:${names.map(escapeRegExp).join('|')})$`;
}

/**
 * Folds the breadth pass (tests from `from` on) into the coverage pass: a property's breadth result
 * that reached a verdict (pass or fail) replaces its coverage result; one that did not (the budget ran
 * out, the agent stopped answering) leaves the coverage result standing. Either way the other's
 * traffic still counts (superseded).
 */
export function mergeBreadth(
  all: CollectedTest[],
  from: number | undefined,
): { tests: CollectedTest[]; superseded: CollectedTest[] } {
  if (from === undefined) return { tests: all, superseded: [] };
  const tests = all.slice(0, from);
  const superseded: CollectedTest[] = [];
  for (const later of all.slice(from)) {
    const at = tests.findIndex((t) => t.name === later.name && t.file === later.file);
    const verdict = later.result?.status === 'pass' || later.result?.status === 'fail';
    if (at >= 0 && verdict) {
      superseded.push(tests[at]!);
      tests[at] = later;
    } else if (at >= 0) superseded.push(later);
    else tests.push(later);
  }
  return { tests, superseded };
}
