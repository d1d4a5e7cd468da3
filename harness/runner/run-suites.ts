// runSuites(): one run of the selected suites, from the run's webhook receiver and governor link to the
// outcome: the passes (run-phases.ts) under the run's budget and interrupt (run-end.ts), the window
// fill before the rate-limit burst, the webhook expectations settled at the end, the cut checks.
import type { HarnessError, WindowFillReport } from '../../core/types.ts';
import {
  interruptedBy,
  interruptedMessage,
  interruptionOf,
  type Interruption,
} from '../../core/interrupt.ts';
import type { ProgressListener } from '../../core/progress.ts';
import { Governor } from '../io/traffic/governor.ts';
import type { ThrottleState } from '../io/traffic/throttle-pace.ts';
import type { TrafficTally } from '../io/traffic/tallies.ts';
import { serveWebhookLink, type WebhookLink } from '../io/links/webhook-link.ts';
import { serveWorkerLink, type WorkerLinkServer } from '../io/links/worker-link.ts';
import { largerBudgetOption, secretsOf, targetOptions } from '../provided.ts';
import { Collector, type CollectedTest } from './collector.ts';
import { FileLock, fileLockCalls } from './file-lock.ts';
import type { Listing } from './list-checks.ts';
import { PROJECT_ROOT, SUITES_DIR } from './paths.ts';
import type { RunPlan } from './plan.ts';
import { budgeted, GRACE_MS, pacedDeadline, type RunEnd } from './run-end.ts';
import { testName } from './plan-estimate.ts';
import { mergeBreadth, runPhases, type Planner } from './run-phases.ts';
import type { RunState } from './run-state.ts';
import { settleWebhookExpectations, type Settled } from './settle-webhooks.ts';
import { suiteFilesFor } from './suite-files.ts';
import { suiteWorkers } from './suite-workers.ts';
import { startWindowFill, windowFillGoal, type WindowFill } from './window-fill.ts';

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
   * Set when the run's budget was spent (or the run was interrupted) before every check ran: what did
   * not run is not-exercised with this message, never an error.
   */
  budgetSpent?: string;
  /** Requirements with a selected check that never started (the budget or an interrupt ended first). */
  notRun?: string[];
  /**
   * Set when checks were still running at the end of the grace after the budget (each waits on an
   * answer the target did not give): the run could not be done.
   */
  interrupted?: string;
  /** Set when a signal stopped the run (core/interrupt.ts): the checks it cut are not-exercised. */
  signalled?: Interruption;
  /** The run's webhook receiver and the expectations settled at the end (report traffic.webhooks). */
  webhooks?: Settled;
  /** The rate window filled ahead of the burst (window-fill.ts): what it sent, and its requests' tally. */
  windowFill?: { report: WindowFillReport; tally: TrafficTally };
  /** The runner's governor's pace below the card's (traffic.rateLimit.throttled); none: no runner governor. */
  throttled?: ThrottleState;
}

/**
 * The run's webhook receiver, listening from before the first check to after the last expectation is
 * settled. A receiver that cannot listen (a fixed port in use) is left to the checks, which then say so.
 */
async function runReceiver(state: RunState): Promise<WebhookLink | undefined> {
  const { webhookListen, webhookPublicUrl } = state.settings;
  try {
    const opts: Parameters<typeof serveWebhookLink>[0] = { ...webhookListen };
    if (webhookPublicUrl !== undefined) opts.publicUrl = webhookPublicUrl;
    const hooks = await serveWebhookLink(opts);
    state.decide({ webhookLink: hooks.url });
    return hooks;
  } catch {
    state.decide({ webhookLink: undefined });
    return undefined;
  }
}

const seconds = (ms: number): string => `${Math.round(ms / 100) / 10} s`;

export async function runSuites(
  state: RunState,
  ids: readonly string[],
  budgetMs: number,
  log: (line: string) => void,
  progress?: ProgressListener,
  planner: Planner = () => undefined,
  /** Aborted by SIGINT or SIGTERM (core/interrupt.ts): the run ends as at its budget, now. */
  interrupt?: AbortSignal,
  /**
   * When the run started, before its probe: --budget-ms is the whole run's, so what the probe spent
   * (a cold start, a turn measured up to --cold-start-ms) is spent of it. Default: now.
   */
  runStartedAt: number = Date.now(),
): Promise<SuitesOutcome> {
  const suitesStartedAt = Date.now();
  const startedAt = Math.min(runStartedAt, suitesStartedAt);
  const collector = new Collector(PROJECT_ROOT, log, progress);
  // Until the selection is known, as if the rate-limit checks ran (onPlan settles it). No request is
  // admitted after the budget, and a check still running ends once the target answered it.
  const endsAt = startedAt + budgetMs;
  state.decide({
    field: {
      deadlineAt: pacedDeadline(startedAt, budgetMs, true),
      budget: { ms: budgetMs, endsAt, toFit: null },
    },
  });
  let ended: (RunEnd & { graceMs: number }) | undefined;
  let stuck: Array<{ name: string; file: string }> = [];
  let selected: Listing['checks'] = [];
  let plan: RunPlan | undefined;
  let breadthFrom: number | undefined;
  const exitCode = process.exitCode;
  const files = suiteFilesFor(PROJECT_ROOT, SUITES_DIR, ids);
  // No suite file spells a selected id: nothing to run, every selected requirement is not-exercised.
  if (files?.length === 0) return { tests: [], harnessErrors: [] };
  const hooks = await runReceiver(state);
  const workers = suiteWorkers(state.run, files?.length ?? Infinity);
  state.decide({ field: { suiteWorkers: workers } });
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
  const why = (end: RunEnd): string =>
    end.by === 'budget'
      ? `the run budget of ${budgetMs} ms was spent before every check ran`
      : `${interruptedBy(end.interruption)} before every check ran`;
  try {
    // Files in several workers share the runner's governor; so does one worker of a run that can be
    // interrupted, so that after the interrupt no request leaves.
    if (workers > 1 || interrupt !== undefined) {
      governor = new Governor({ ...state.run.field, endsAt });
      link = await serveWorkerLink(governor, fileLockCalls(new FileLock()));
      state.decide({ field: { governorUrl: link.url } });
    }
    const run = runPhases({
      state,
      collector,
      files,
      ids,
      workers,
      stopped: () => (ended === undefined ? undefined : why(ended)),
      planner,
      onPlan: (p, checks) => {
        plan = p;
        selected = checks;
        const rateLimitChecks = checks.some((c) => c.plan?.file.runs?.when === 'last');
        const deadlineAt = pacedDeadline(startedAt, budgetMs, rateLimitChecks);
        state.decide({ field: { deadlineAt } });
        if (governor !== undefined) governor.settings.deadlineAt = deadlineAt;
        const goal = windowFillGoal({
          pace: state.run.field.pace,
          plan: p,
          burst: checks.some((c) => c.plan?.file.runs?.when === 'last' && burstIn(c.plan.file)),
          inWindow: governor?.inPaceWindow() ?? 0,
        });
        if (governor !== undefined && workers > 1 && goal.requests > 0)
          fill = startWindowFill({ goal, governor, target: targetOptions(state.run) });
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
    const onEnd = (end: RunEnd, ms: number): void => {
      ended = { ...end, graceMs: ms };
      if (end.by === 'interrupt') {
        governor?.stopAdmitting(`${interruptedBy(end.interruption)}: no request is sent after it`);
        log(
          `${interruptedBy(end.interruption)}: no new request; the checks under way get ${seconds(ms)} to end, the rest are not exercised; every report is written`,
        );
      } else {
        log(
          `budget: ${why(end)} (${largerBudgetOption(state.run.field)} would fit it); no request is sent after it, the checks under way get ${seconds(ms)} to end`,
        );
      }
    };
    const unanswered = (): number | undefined => governor?.inFlightNow;
    stuck = await budgeted(run, endsAt, grace, collector, onEnd, unanswered, interrupt);
    if (ended !== undefined && stuck.length === 0) {
      const at = ended.by === 'budget' ? 'after it' : 'after the interrupt';
      log(
        `${ended.by === 'budget' ? 'budget' : 'interrupt'}: the checks under way ended ${seconds(Date.now() - ended.at)} ${at}`,
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
  const signalled = ended?.by === 'interrupt' ? ended.interruption : interruptionOf(interrupt);
  let webhooks: Settled | undefined;
  if (hooks !== undefined) {
    try {
      webhooks = await settleWebhookExpectations(collector.tests, hooks.receiver, {
        secrets: secretsOf(state.run),
        // Interrupted: settled on the deliveries in, at once.
        notAfter: signalled === undefined ? endsAt + GRACE_MS : Date.now(),
        log,
      });
    } finally {
      await hooks.close();
    }
  }
  // Results that arrive after this point are ignored: the run is over.
  const graceMs = ended?.graceMs ?? GRACE_MS;
  const waiting = `still waiting on the target's answer ${seconds(graceMs)} after the run budget of ${budgetMs} ms was spent`;
  // Interrupted, a check still running is cut like one that never ran: not exercised.
  const cut =
    signalled === undefined
      ? stuck.map<CollectedTest>((t) => ({ ...t, state: 'failed', errors: [waiting] }))
      : [];
  const { tests, superseded } = mergeBreadth([...collector.tests, ...cut], breadthFrom);
  const outcome: SuitesOutcome = { tests, superseded, harnessErrors: [...collector.harnessErrors] };
  if (cut.length > 0) {
    const names = stuck.slice(0, 3).map((t) => t.name);
    const more = stuck.length > 3 ? ` and ${stuck.length - 3} more` : '';
    outcome.interrupted = `the run budget of ${budgetMs} ms was spent and ${stuck.length} check(s) were still waiting on the target's answer ${seconds(graceMs)} later: ${names.join('; ')}${more}`;
  }
  if (signalled !== undefined) outcome.signalled = signalled;
  if (ended !== undefined || signalled !== undefined) {
    outcome.budgetSpent =
      ended?.by === 'budget'
        ? `${why(ended)}; ${largerBudgetOption(state.run.field)} would fit it`
        : interruptedMessage(signalled!);
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
  outcome.ms = Date.now() - suitesStartedAt;
  if (webhooks !== undefined) outcome.webhooks = webhooks;
  if (filled !== undefined) outcome.windowFill = filled;
  if (governor !== undefined) outcome.throttled = governor.throttleState();
  return outcome;
}

/** A file whose declaration has a burst sample (the rate-limit checks, C-04). */
function burstIn(file: { samples?: Record<string, { burst?: boolean }> }): boolean {
  return Object.values(file.samples ?? {}).some((sample) => sample.burst === true);
}
