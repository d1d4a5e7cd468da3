// Runs the conformance suites (suites/**) through vitest's programmatic API with the target injected
// by `provide`, a test-name filter built from the selected requirement ids, and a whole-run budget.
import type { FieldSettings, ProvidedRun } from '../provided.ts';
import type { HarnessError, WindowFillReport } from '../../core/types.ts';
import type { TrafficTally } from '../io/traffic/tallies.ts';
import { startWindowFill, windowFillGoal, type WindowFill } from './window-fill.ts';
import { Collector, type CollectedTest } from './collector.ts';
import type { ProgressListener } from '../../core/progress.ts';
import { declarationsKey, readDeclarations, writeDeclarations } from './declaration-cache.ts';
import { listingOf, type Listing } from './list-checks.ts';
import type { RunPlan } from './plan.ts';
import { fileSchedules, providedSchedule, suitePhases, type FileSchedule } from './schedule.ts';
import { suiteFilesFor } from './suite-files.ts';
import { Governor } from '../io/traffic/governor.ts';
import { FileLock, fileLockCalls } from './file-lock.ts';
import { serveWorkerLink, type WorkerLinkServer } from '../io/links/worker-link.ts';
import { serveWebhookLink, type WebhookLink } from '../io/links/webhook-link.ts';
import { largerBudgetOption, secretsOf, targetOptions } from '../provided.ts';
import { settleWebhookExpectations, type Settled } from './settle-webhooks.ts';
import { PROJECT_ROOT, SUITES_CONFIG, SUITES_DIR } from './paths.ts';

export interface SuitesOutcome {
  /** One result per check: a property's breadth-pass result replaces its coverage-pass one. */
  tests: CollectedTest[];
  /** The results a breadth-pass result replaced, or that ended without a verdict: their traffic counts. */
  superseded?: CollectedTest[];
  /** The run's plan, when a planner made one, and the passes the run made. */
  plan?: RunPlan;
  passes?: 'one' | 'coverage-then-breadth';
  /** Wall time of the suites. */
  ms?: number;
  harnessErrors: HarnessError[];
  /**
   * Set when the run's budget was spent before every check ran: what did not run is not-exercised,
   * never an error (the message names the --budget-ms that would fit it).
   */
  budgetSpent?: string;
  /** Requirements with a selected check that never started (the budget ended first). */
  notRun?: string[];
  /**
   * Set when checks were still running at the end of the grace after the budget (each waits on an
   * answer the target did not give): the run could not be done.
   */
  interrupted?: string;
  /** The run's webhook receiver and the expectations settled at the end (report traffic.webhooks). */
  webhooks?: Settled;
  /** The rate window filled ahead of the burst (window-fill.ts): what it sent, and its requests' tally. */
  windowFill?: { report: WindowFillReport; tally: TrafficTally };
}

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

// After the budget, running checks get this long (and the agent's turn allowance) to end: no request
// is admitted any more, and a check ends not-exercised once the target answered what it sent. A check
// still running then waits on an answer the target did not give: the runner stops waiting for vitest
// (closed in the background) and the run could not be done.
const GRACE_MS = 5_000;
// What a paced run keeps of its budget for the rate-limit checks, which wait for a window to reset.
const RESERVE_MS = 75_000;
// What a paced run without them keeps: the checks under way end, late deliveries settle, the reports
// are written. At 60 requests/min the last 15 s of a 5-minute budget still let out the requests of
// the window before whose sends leave it then.
const REPORTS_RESERVE_MS = 15_000;

/**
 * No paced wait may end after this: the run ends by itself within its budget, leaving the rate-limit
 * checks (they run last, unpaced) and the reports their share.
 */
export function pacedDeadline(startedAt: number, budgetMs: number, rateLimitChecks: boolean): number {
  const reserve = rateLimitChecks
    ? Math.min(RESERVE_MS, budgetMs / 10)
    : Math.min(REPORTS_RESERVE_MS, budgetMs / 20);
  return startedAt + budgetMs - reserve;
}

// Workers the suite files share against a --target: an agent's seconds per turn and its network
// delay are waits, so files overlap them. Four keep the agent's task slots busy on a slow agent (1.5 s
// per turn: 155 s with three, 144 s with four); more only add memory on two cores.
const FIELD_WORKERS = 4;
// Workers against the bundled server: its answers are instant, but a certification still waits on
// spec-bound times (the 5 s receiver timeout of 6.5, the 2 s system timeout of section 3 and 4.1), which
// more workers overlap with the other files while the checks that need the agent idle run in turn
// (`npm run certify` on two cores: 22-23 s in one worker, 18.5-19.7 s in two, 17.5-17.8 s in three;
// BENCHMARKS.md).
const BUNDLED_WORKERS = 3;
const MIN_PARALLEL_FILES = 8;

/** Workers for this run: one for a fixed receiver port, a low --concurrency or a narrow run. */
export function suiteWorkers(provided: ProvidedRun, files: number): number {
  // A fixed --webhook-listen port is bound once by the runner (webhookLink); without it, by each worker.
  const fixedPort = provided.webhookListen.port !== 0 && provided.webhookLink === undefined;
  if (fixedPort || provided.field.concurrency < 8) return 1;
  // A narrow run (--only a few sections) is over before more workers would have loaded.
  if (files < MIN_PARALLEL_FILES) return 1;
  return provided.bundled ? BUNDLED_WORKERS : FIELD_WORKERS;
}

function vitestOptions(provided: ProvidedRun, ids: readonly string[], collector: Collector, workers: number) {
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
    testTimeout: provided.checkTimeoutMs + 5_000,
    provide: { a2aRun: provided },
  };
}

/** The checks of these requirements: those a test-name filter of `ids` keeps. */
function checksOf(checks: Listing['checks'], ids: readonly string[]): Listing['checks'] {
  const wanted = new Set(ids);
  return checks.filter((c) => wanted.has(c.requirementId));
}

/** What the runner does with the collected checks before the first one runs: its plan, if any. */
export type Planner = (checks: Listing['checks'], workers: number) => RunPlan | undefined;

interface PhaseRun {
  options: ReturnType<typeof vitestOptions>;
  provided: ProvidedRun;
  files: readonly string[] | undefined;
  ids: readonly string[];
  workers: number;
  stopped: () => string | undefined;
  planner: Planner;
  /** Told the selected checks and the plan, and when the run makes a breadth pass, where its results start in the collector. */
  onPlan: (plan: RunPlan | undefined, selected: Listing['checks']) => void;
  onBreadth: () => void;
  /** Called before the files that run last start (once); what it returns is provided to them. */
  beforeLast: () => Promise<FieldSettings['windowFill']>;
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
async function runPhases(run: PhaseRun): Promise<void> {
  const { provided, workers, stopped } = run;
  // What startVitest sets before it creates its instance.
  process.env.TEST = 'true';
  process.env.VITEST = 'true';
  process.env.NODE_ENV ??= 'test';
  // Loaded on demand: vitest/node is the heaviest import of the CLI (seconds under tsx).
  const { createVitest } = await import('vitest/node');
  const vitest = await createVitest('test', run.options);
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
    if (plan !== undefined && provided.field.budget !== undefined)
      provided.field.budget.toFit = plan.budgetToFit;
    // The paced deadline, now that the selection says whether rate-limit checks run (onPlan).
    vitest.provide('a2aRun', provided);
    const schedules = fileSchedules(selected);
    const order = plan?.fileOrder;
    vitest.provide('a2aSchedule', providedSchedule(schedules, workers, order));
    const breadth = plan !== undefined && plan.fits !== 'everything' && plan.breadth.properties.length > 0;
    let [phases, last] = splitLast(suitePhases(schedules, workers, order), schedules);
    if (!breadth) [phases, last] = [suitePhases(schedules, workers, order), []];
    if (breadth) {
      provided.field.breadth = { phase: 'coverage', cases: {} };
      vitest.provide('a2aRun', provided);
    }
    let started = false;
    const lastFiles = new Set(schedules.filter((f) => f.runs === 'last').map((f) => f.file));
    let lastAhead = true;
    const runFiles = async (files: string[]): Promise<void> => {
      if (lastAhead && files.some((f) => lastFiles.has(f))) {
        lastAhead = false;
        const filled = await run.beforeLast();
        if (filled !== undefined) {
          provided.field.windowFill = filled;
          vitest.provide('a2aRun', provided);
        }
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
      const cases = breadthCases(plan, (provided.field.deadlineAt ?? Infinity) - Date.now());
      const names = Object.keys(cases);
      if (names.length > 0) {
        provided.field.breadth = { phase: 'breadth', cases };
        vitest.provide('a2aRun', provided);
        vitest.setGlobalTestNamePattern(exactNames(names));
        run.onBreadth();
        const files = [
          ...new Set(selected.filter((c) => cases[testName(c)] !== undefined).map((c) => c.file)),
        ];
        await runFiles(files);
        vitest.setGlobalTestNamePattern(testNamePattern(run.ids));
      }
      delete provided.field.breadth;
      vitest.provide('a2aRun', provided);
    }
    if (last.length > 0 && stopped() === undefined) await runFiles(last);
  } finally {
    await vitest.close();
  }
}

const testName = (c: { requirementId: string; title: string }): string => `${c.requirementId} ${c.title}`;

const seconds = (ms: number): string => `${Math.round(ms / 100) / 10} s`;

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

/**
 * Resolves when vitest finished, or at the end of the grace after the budget with the checks that
 * started before the budget ended and are still running (each waits on an answer the target did not
 * give: a check started after it sends nothing). After the budget (`onSpent` is told), no phase
 * starts, no request is admitted, and a check that starts ends at once not-exercised; once every check
 * under way at the budget has reported, vitest is cancelled (its cancel would drop the results of
 * checks still running, so not before), skipping what is left. At the end of the grace, vitest is
 * cancelled and closed in the background.
 */
export async function budgeted(
  run: Promise<unknown>,
  endsAt: number,
  graceMs: () => number,
  collector: Pick<Collector, 'unfinished' | 'cancel' | 'abandon'>,
  onSpent: (graceMs: number) => void,
  /**
   * Requests to the target not yet answered, run-wide (the runner's governor), read at the end of
   * the grace; undefined: the runner cannot tell (one worker keeps its own count).
   */
  unanswered: () => number | undefined = () => undefined,
): Promise<Array<{ name: string; file: string }>> {
  let budgetTimer: NodeJS.Timeout | undefined;
  let graceTimer: NodeJS.Timeout | undefined;
  let settleTimer: NodeJS.Timeout | undefined;
  const spent = new Promise<Array<{ name: string; file: string }>>((resolve) => {
    budgetTimer = setTimeout(
      () => {
        const grace = graceMs();
        onSpent(grace);
        const settle = (): void => {
          if (collector.unfinished(endsAt).length === 0) collector.cancel();
          else settleTimer = setTimeout(settle, SETTLE_POLL_MS);
        };
        settleTimer = setTimeout(settle, SETTLE_AFTER_MS);
        graceTimer = setTimeout(() => {
          clearTimeout(settleTimer);
          // A check still running while no request of the run waits on the target is not waiting
          // on the target (a sleep, a lock, a wait of its own that outlasted the grace): it is cut by
          // the budget like one that never ran, and the run is no run that could not be done.
          const waiting = unanswered() !== 0;
          const unfinished = waiting ? collector.unfinished(endsAt) : [];
          collector.cancel();
          collector.abandon();
          resolve(unfinished);
        }, grace);
      },
      Math.max(0, endsAt - Date.now()),
    );
  });
  try {
    return await Promise.race([run.then(() => []), spent]);
  } finally {
    clearTimeout(budgetTimer);
    clearTimeout(graceTimer);
    clearTimeout(settleTimer);
  }
}

// How often the runner looks, after the budget, whether the checks under way at it have all reported;
// first after a second, for the news of a check that started just before the budget to reach the
// runner (vitest sends its workers' news every 100 ms, later on a loaded machine).
const SETTLE_POLL_MS = 100;
const SETTLE_AFTER_MS = 1_000;

/**
 * The run's webhook receiver, listening from before the first check to after the last expectation is
 * settled. A receiver that cannot listen (a fixed port in use) is left to the checks, which then say so.
 */
async function runReceiver(provided: ProvidedRun): Promise<WebhookLink | undefined> {
  try {
    const opts: Parameters<typeof serveWebhookLink>[0] = { ...provided.webhookListen };
    if (provided.webhookPublicUrl !== undefined) opts.publicUrl = provided.webhookPublicUrl;
    const hooks = await serveWebhookLink(opts);
    provided.webhookLink = hooks.url;
    return hooks;
  } catch {
    delete provided.webhookLink;
    return undefined;
  }
}

export async function runSuites(
  provided: ProvidedRun,
  ids: readonly string[],
  budgetMs: number,
  log: (line: string) => void,
  progress?: ProgressListener,
  planner: Planner = () => undefined,
): Promise<SuitesOutcome> {
  const startedAt = Date.now();
  const collector = new Collector(PROJECT_ROOT, log, progress);
  // Until the selection is known, as if the rate-limit checks ran (onPlan settles it).
  provided.field.deadlineAt = pacedDeadline(startedAt, budgetMs, true);
  // No request is admitted after this, and a check still running ends once the target answered it.
  provided.field.budget = { ms: budgetMs, endsAt: startedAt + budgetMs, toFit: null };
  let spent: string | undefined;
  let stuck: Array<{ name: string; file: string }> = [];
  let graceMs = GRACE_MS;
  let selected: Listing['checks'] = [];
  let plan: RunPlan | undefined;
  let breadthFrom: number | undefined;
  const suitesStarted = Date.now();
  const exitCode = process.exitCode;
  const files = suiteFilesFor(PROJECT_ROOT, SUITES_DIR, ids);
  // No suite file spells a selected id: nothing to run, every selected requirement is not-exercised.
  if (files?.length === 0) return { tests: [], harnessErrors: [] };
  const hooks = await runReceiver(provided);
  const workers = suiteWorkers(provided, files?.length ?? Infinity);
  provided.field.suiteWorkers = workers;
  let link: WorkerLinkServer | undefined;
  let governor: Governor | undefined;
  let fill: WindowFill | undefined;
  let filled: SuitesOutcome['windowFill'];
  const endFill = async (): Promise<void> => {
    if (fill === undefined) return;
    const ending = fill;
    fill = undefined;
    filled = { report: await ending.stop(), tally: ending.tally };
  };
  try {
    if (workers > 1) {
      governor = new Governor({ ...provided.field, endsAt: provided.field.budget.endsAt });
      link = await serveWorkerLink(governor, fileLockCalls(new FileLock()));
      provided.field.governorUrl = link.url;
    }
    const options = vitestOptions(provided, ids, collector, workers);
    const run = runPhases({
      options,
      provided,
      files,
      ids,
      workers,
      stopped: () => spent,
      planner,
      onPlan: (p, checks) => {
        plan = p;
        selected = checks;
        const rateLimitChecks = checks.some((c) => c.plan?.file.runs?.when === 'last');
        provided.field.deadlineAt = pacedDeadline(startedAt, budgetMs, rateLimitChecks);
        if (governor !== undefined) governor.settings.deadlineAt = provided.field.deadlineAt;
        const goal = windowFillGoal({
          pace: provided.field.pace,
          plan: p,
          burst: checks.some((c) => c.plan?.file.runs?.when === 'last' && burstIn(c.plan.file)),
          inWindow: governor?.inPaceWindow() ?? 0,
        });
        if (governor !== undefined && goal.requests > 0)
          fill = startWindowFill({ goal, governor, target: targetOptions(provided) });
      },
      onBreadth: () => {
        breadthFrom = collector.tests.length;
      },
      beforeLast: async () => {
        await endFill();
        return filled === undefined
          ? undefined
          : { requests: filled.report.requests, served: filled.report.served, endedAt: Date.now() };
      },
    });
    // A slow agent's answer to a request sent just before the budget still comes within the grace.
    const grace = (): number => GRACE_MS + (governor?.turnAllowanceMs() ?? 0);
    const onSpent = (ms: number): void => {
      graceMs = ms;
      spent = `the run budget of ${budgetMs} ms was spent before every check ran`;
      log(
        `budget: ${spent} (${largerBudgetOption(provided.field)} would fit it); no request is sent after it, the checks under way get ${seconds(ms)} to end`,
      );
    };
    const unanswered = (): number | undefined => governor?.inFlightNow;
    stuck = await budgeted(run, provided.field.budget.endsAt, grace, collector, onSpent, unanswered);
    if (spent !== undefined && stuck.length === 0) {
      log(
        `budget: the checks under way ended ${seconds(Date.now() - provided.field.budget.endsAt)} after it`,
      );
    }
  } catch (e) {
    collector.harnessErrors.push({
      message: `vitest failed: ${(e as Error).message}`,
      stack: (e as Error).stack,
    });
  } finally {
    // startVitest sets process.exitCode on test failures; the runner decides the exit code itself.
    process.exitCode = exitCode;
    await endFill();
    await link?.close();
  }
  let webhooks: Settled | undefined;
  if (hooks !== undefined) {
    try {
      webhooks = await settleWebhookExpectations(collector.tests, hooks.receiver, {
        secrets: secretsOf(provided),
        notAfter: startedAt + budgetMs + GRACE_MS,
        log,
      });
    } finally {
      await hooks.close();
    }
  }
  // Results that arrive after this point are ignored: the run is over.
  const waiting = `still waiting on the target's answer ${seconds(graceMs)} after the run budget of ${budgetMs} ms was spent`;
  const cut = stuck.map<CollectedTest>((t) => ({ ...t, state: 'failed', errors: [waiting] }));
  const { tests, superseded } = mergeBreadth([...collector.tests, ...cut], breadthFrom);
  const outcome: SuitesOutcome = { tests, superseded, harnessErrors: [...collector.harnessErrors] };
  if (stuck.length > 0) {
    const names = stuck.slice(0, 3).map((t) => t.name);
    const more = stuck.length > 3 ? ` and ${stuck.length - 3} more` : '';
    outcome.interrupted = `the run budget of ${budgetMs} ms was spent and ${stuck.length} check(s) were still waiting on the target's answer ${seconds(graceMs)} later: ${names.join('; ')}${more}`;
  }
  if (spent !== undefined) {
    outcome.budgetSpent = `${spent}; ${largerBudgetOption(provided.field)} would fit it`;
    const ran = new Set(
      tests.filter((t) => t.result !== undefined || t.state === 'failed').map((t) => t.name),
    );
    const notRun = new Set(selected.filter((c) => !ran.has(testName(c))).map((c) => c.requirementId));
    outcome.notRun = [...notRun].sort();
  }
  if (plan !== undefined) {
    outcome.plan = plan;
    outcome.passes = breadthFrom === undefined ? 'one' : 'coverage-then-breadth';
  }
  outcome.ms = Date.now() - suitesStarted;
  if (webhooks !== undefined) outcome.webhooks = webhooks;
  if (filled !== undefined) outcome.windowFill = filled;
  return outcome;
}

/** A file whose declaration has a burst sample (the rate-limit checks, C-04). */
function burstIn(file: { samples?: Record<string, { burst?: boolean }> }): boolean {
  return Object.values(file.samples ?? {}).some((sample) => sample.burst === true);
}
