// Runs one check function under its budget and turns what it recorded into a CheckResult: status,
// expected beside actual, redacted evidence and reproduction lines. Independent of vitest.
import { setMaxListeners } from 'node:events';
import { performance } from 'node:perf_hooks';
import type { Requirement } from '../../requirements/types.ts';
import { absentCapabilities } from '../capabilities.ts';
import { deliveryEvidence, redact } from '../../core/evidence.ts';
import { RunBudgetError } from '../io/traffic/governor.ts';
import { paceBudgetOptions, PaceBudgetError } from '../io/traffic/pace.ts';
import { newTally, TurnBudgetError, type TrafficTally } from '../io/traffic/tallies.ts';
import { distinctDeliveries, summarizeDeliveries } from '../io/webhooks/webhook-receiver.ts';
import { budgetCut, type FieldSettings, type ProvidedRun } from '../provided.ts';
import type { CheckResult } from '../../core/types.ts';
import { isGovernorStop } from '../io/traffic/governor-stop.ts';
import { ClientPool } from './client-pool.ts';
import { createCheckContext, type CheckContext } from './context.ts';
import { runGovernor } from './run-governor.ts';
import { CheckRecorder, type Outcome } from './recorder.ts';
import {
  expectationAssertion,
  GRACE_RULE,
  settleAt,
  violations,
  type PendingExpectation,
  type WebhookSettlement,
} from './expectations.ts';
import { WebhookScope } from './webhooks.ts';
import { buildResult, collectEvidence } from './check-result.ts';
import { agentTimeOf, BudgetSpent, Planned, withBudget, type WaitingOn } from './check-budget.ts';
import { countReRun, faultsOfRun, rerunDue, verdictOfRuns, type CheckRunOf } from './reruns.ts';

export type CheckFn = (c: CheckContext) => void | Promise<void>;

export interface CheckSpec {
  requirement: Requirement;
  title: string;
  fn: CheckFn;
  file?: string;
  /** Overrides the run's per-check budget (e.g. a webhook retry schedule). */
  timeoutMs?: number;
  /** Holds more tasks than the agent's limits.concurrentTasks on purpose (C-21): no task slot is waited for. */
  overflowsTasks?: boolean;
  /**
   * Awaited between the independent steps of a long check (a property's generated cases): with suite
   * files in several workers, it lets a check that needs the agent idle run first (FileHold.yield).
   * The time it waits does not spend the check's budget.
   */
  betweenSteps?: () => Promise<void>;
  /**
   * Called while the check, after the run's budget ended, still waits on an answer of the target (at
   * the budget's end, then at most once a second): the runner must learn that the check is running,
   * to name it if the target never answers (exit 2), whatever the test runner has not yet told it.
   */
  outlivesRun?: () => void;
}

// Why a cap: a check sees a handful of deliveries (retries included); a target flooding its URL
// must not grow one check result, and the run result the CLI holds, without bound.
const MAX_DELIVERY_EVIDENCE = 50;

/**
 * What of its budget a wait for a delivery may take: what is left, less a quarter of the budget for
 * the steps after it (a delivery not in by then leaves the check not-exercised, never an error).
 */
const WAIT_SHARE_OF_REST = 0.75;

/**
 * Runs a check; its requests are counted in `tally` (RunResult.traffic). A run that met a transport
 * fault is run again from scratch within what is left of the check's budget (reruns.ts).
 */
export async function runCheck(
  spec: CheckSpec,
  run: ProvidedRun,
  tally: TrafficTally = newTally(),
  /** Filled with the webhook expectations the run settles at its end (run.webhookLink). */
  settlement?: WebhookSettlement,
): Promise<CheckResult> {
  const budgetMs = spec.timeoutMs ?? run.checkTimeoutMs;
  const runs: OneRun[] = [];
  let leftMs = budgetMs;
  for (;;) {
    const one = await runOnce(spec, run, tally, leftMs);
    runs.push(one);
    leftMs -= one.countedMs;
    const runEnds = run.field.budget?.endsAt ?? Infinity;
    if (!rerunDue(runs) || leftMs < budgetMs * MIN_RERUN_SHARE || Date.now() >= runEnds) break;
  }
  const { result, decidedBy } = verdictOfRuns(runs);
  const decider = runs[decidedBy]!;
  // The faults of the other runs were absorbed when a run decided (complete, or a proven violation).
  if (decider.faults.length === 0 || decider.result.status === 'fail') {
    runs.forEach((r, i) => i !== decidedBy && countReRun(tally, r.faults));
  }
  if (settlement !== undefined) {
    settlement.expectations.push(...decider.settled.expectations);
    settlement.lagsMs.push(...decider.settled.lagsMs);
  }
  return result;
}

// Why: a re-run with less than a quarter of the check's budget left would mostly end on the budget,
// a verdict about the harness's arithmetic rather than the agent.
const MIN_RERUN_SHARE = 0.25;

/** One run of a check: its result, the faults it met, what of the budget it counted, its open expectations. */
interface OneRun extends CheckRunOf {
  countedMs: number;
  settled: WebhookSettlement;
}

/** Runs the check once, from scratch (fresh clients, webhook URLs and recorder), within `budgetMs`. */
async function runOnce(
  spec: CheckSpec,
  run: ProvidedRun,
  tally: TrafficTally,
  budgetMs: number,
): Promise<OneRun> {
  const t0 = performance.now();
  const settlement: WebhookSettlement = { expectations: [], lagsMs: [] };
  const absent = absentCapabilities(spec.requirement, run.card);
  const recorder = new CheckRecorder();
  const controller = new AbortController();
  // Every request of the check listens to it (a governor wait, a remote admit): many at once is normal.
  setMaxListeners(0, controller.signal);
  const pool = new ClientPool(run, tally, controller.signal, spec.overflowsTasks === true);
  const planned = new Planned();
  const agentTime = agentTimeOf(runGovernor(run), tally, planned);
  const credited0 = agentTime();
  const waitBoundMs = (): number => {
    const spent = performance.now() - t0 - (agentTime() - credited0);
    return budgetMs * WAIT_SHARE_OF_REST - spent;
  };
  const hooks = new WebhookScope(run, { waitBoundMs, agentWait: (wait) => planned.paused(wait) });
  let outcome: Outcome;
  let thrown: unknown;
  const budget = run.field.budget;
  if (absent.length > 0) {
    outcome = {
      status: 'not-applicable',
      message: `capability absent from the agent card: ${absent.join(', ')}`,
    };
  } else if (budget !== undefined && Date.now() >= budget.endsAt) {
    outcome = runBudgetOutcome(run.field, tally, 'ran');
  } else {
    try {
      const extend = (ms: number): void => void (planned.ms += ms);
      const between = spec.betweenSteps;
      const betweenSteps = between === undefined ? undefined : () => planned.paused(between());
      const c = createCheckContext(spec.requirement, run, recorder, pool, hooks, controller.signal, {
        extendBudget: extend,
        betweenSteps,
        name: `${spec.requirement.id} ${spec.title}`,
        standAside: (wait) => planned.paused(wait),
        holdTurns: (ms) => planned.hold(ms),
      });
      const waitingOn = (): WaitingOn =>
        hooks.waitingOnDeliveries > 0 ? 'deliveries' : tally.waiting > 0 ? 'limits' : undefined;
      await withBudget(
        Promise.resolve().then(() => spec.fn(c)),
        budgetMs,
        controller,
        agentTime,
        waitingOn,
        budget === undefined
          ? undefined
          : { endsAt: budget.endsAt, unanswered: () => pool.unanswered(), outlived: spec.outlivesRun },
      );
    } catch (e) {
      thrown = e;
    }
    await pool.closeAll();
    settlement.expectations.push(...(await settleExpectations(hooks, recorder)));
    settlement.lagsMs.push(...hooks.lagsMs);
    outcome = outcomeOf(thrown, recorder, tally, run.field, hooks);
  }
  const received = hooks.deliveries();
  if (received.length > MAX_DELIVERY_EVIDENCE) {
    recorder.info(
      `${received.length} deliveries to this check's URLs; the first ${MAX_DELIVERY_EVIDENCE} are kept as evidence`,
    );
  }
  // The user's secrets (the run's credentials, any a client was given). A webhook secret or header
  // value a suite configures is made up by the harness and is no secret: it stays readable, so a
  // signature can be checked by hand. The verdict is decided: redaction never changes what it compared.
  const secrets = pool.secrets();
  const deliveries = received.slice(0, MAX_DELIVERY_EVIDENCE).map((d) => deliveryEvidence(d, secrets));
  const evidence = collectEvidence(pool.exchanges(), deliveries);
  const result = redact(buildResult(spec, run, outcome, recorder, evidence, performance.now() - t0), secrets);
  // A run the harness ended (its budget, the run's, an interrupt, the pace) met no fault of the target.
  const ended = controller.signal.aborted || isGovernorStop(thrown);
  const faults = ended ? [] : redact(faultsOfRun(thrown, outcome.status, pool.ownExchanges()), secrets);
  const countedMs = performance.now() - t0 - (agentTime() - credited0);
  return { result, faults, countedMs, settled: settlement };
}

/**
 * Records each webhook expectation the check stated as an assertion, on the evidence in now. With the
 * run's receiver (run.webhookLink) those not yet broken stay open and are returned: the runner settles
 * them at the end of the run. Without it, the check waits out the grace period itself (from the lags
 * this worker has seen) unless a violation is already in.
 */
async function settleExpectations(
  hooks: WebhookScope,
  recorder: CheckRecorder,
): Promise<PendingExpectation[]> {
  const stated = hooks.expectations;
  if (stated.length === 0) return [];
  const broken = (): boolean => stated.some((e) => violations(e, hooks.allDeliveries()).length > 0);
  if (!hooks.linked && !broken()) {
    const grace = hooks.localGraceMs();
    const until = Math.max(...stated.map((e) => settleAt(e, grace)));
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, until - Date.now())));
    recorder.info(`webhook expectations settled after a grace period of ${grace} ms (${GRACE_RULE})`);
  }
  const pending: PendingExpectation[] = [];
  for (const e of stated) {
    const a = expectationAssertion(e, hooks.allDeliveries());
    recorder.check(e.label, a.actual, a.expected);
    if (hooks.linked && a.pass) pending.push({ ...e, assertion: recorder.assertions.length - 1 });
  }
  if (pending.length > 0) {
    recorder.info(
      `${pending.length} webhook expectation(s) held so far and are settled at the end of the run (${GRACE_RULE})`,
    );
  }
  return pending;
}

/**
 * The budget spent in the check's own code is a harness error (a hang); spent while the check waited
 * on the agent (a delivery, its pace, Retry-After or a task slot) it leaves the check not exercised,
 * saying what arrived, unless a failure was recorded: not seeing something within a window the
 * harness chose is never a fail, and a slow agent is never a harness error. The governor's "rate
 * budget spent" and the run's budget ended (RunBudgetError) leave the check not exercised and its
 * "rate limited" is a harness error (never a
 * fail) unless a failure was recorded.
 */
function outcomeOf(
  thrown: unknown,
  recorder: CheckRecorder,
  tally: TrafficTally,
  field: FieldSettings,
  hooks: WebhookScope,
): Outcome {
  if (thrown instanceof BudgetSpent) return budgetSpentOutcome(thrown, recorder, hooks);
  const outcome = recorder.finish(thrown);
  if (outcome.status !== 'error' || !isGovernorStop(thrown)) return outcome;
  if (thrown instanceof RunBudgetError && thrown.interrupted) {
    // The run was interrupted (SIGINT, SIGTERM) while the check ran: what it saw decides nothing.
    tally.cuts.push({
      what: "checks the run's interrupt ended before they finished",
      option: 'a run that is not interrupted',
    });
    return { status: 'not-exercised', message: `${thrown.message}; this check did not finish` };
  }
  if (thrown instanceof RunBudgetError) return runBudgetOutcome(field, tally, 'finished');
  if (thrown instanceof PaceBudgetError) {
    tally.cuts.push({
      what: 'checks past the rate budget of the run',
      option: paceBudgetOptions(field.profile),
    });
  } else if (thrown instanceof TurnBudgetError) {
    tally.cuts.push({ what: 'checks past the turn budget of the run', option: '--max-turns' });
  } else {
    return { status: 'error', message: thrown.message };
  }
  return { status: 'not-exercised', message: thrown.message };
}

// Why a cap: the message is one line of the report; the evidence keeps the deliveries themselves.
const MAX_DELIVERIES_SAID = 10;

function budgetSpentOutcome(spent: BudgetSpent, recorder: CheckRecorder, hooks: WebhookScope): Outcome {
  if (spent.waitingOn === undefined) return { status: 'error', message: spent.message };
  const failed = recorder.finish(spent);
  if (failed.status === 'fail') return failed;
  const why = `the check's budget of ${spent.budgetMs} ms (--check-timeout-ms) ended while it waited`;
  if (spent.waitingOn === 'limits') {
    return {
      status: 'not-exercised',
      message: `${why} on the agent's limits (its pace, a Retry-After or a task slot)`,
    };
  }
  const seen = summarizeDeliveries(distinctDeliveries(hooks.deliveries()));
  const more = seen.length > MAX_DELIVERIES_SAID ? ` and ${seen.length - MAX_DELIVERIES_SAID} more` : '';
  return {
    status: 'not-exercised',
    message: `${why} for a webhook delivery (the spec sets no delivery latency); received at the check's URLs: ${JSON.stringify(seen.slice(0, MAX_DELIVERIES_SAID))}${more}`,
  };
}

/**
 * The run's budget (--budget-ms) ended before this check ran, or before it finished (its next request
 * refused, or nothing it sent left unanswered): not exercised, naming the budget that would fit it.
 */
function runBudgetOutcome(field: FieldSettings, tally: TrafficTally, before: 'ran' | 'finished'): Outcome {
  const cut = budgetCut(field, before);
  tally.cuts.push(cut);
  const budget = field.budget === undefined ? 'the run budget' : `the run budget of ${field.budget.ms} ms`;
  return {
    status: 'not-exercised',
    message: `${budget} was spent before this check ${before}; ${cut.option} would fit it`,
  };
}
