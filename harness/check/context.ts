// The context a check function receives: the target (clients whose every exchange is evidence),
// the agent card, the run's settings, and the recorder's expected-vs-actual helpers.
import type { Requirement } from '../../requirements/types.ts';
import type { Exchange, RecordedResponse } from '../../core/evidence.ts';
import { RunBudgetError, sharedGovernor, type TrafficGovernor } from '../io/governor.ts';
import { PaceBudgetError, paceIntervalMs } from '../io/pace.ts';
import { RateLimitedError } from '../io/rate-limited.ts';
import { TaskSlotError } from '../io/slots.ts';
import { TurnBudgetError, WaitClock, type TrafficTally } from '../io/tallies.ts';
import { RemoteGovernor } from '../io/worker-link.ts';
import type { SseStream } from '../io/sse-reader.ts';
import {
  createTargetClient,
  settled,
  type RpcOptions,
  type StreamOptions,
  type TargetClient,
  type TargetClientOptions,
} from '../io/target-client.ts';
import { authKindOf, largerBudgetOption, secretsOf, targetOptions, type ProvidedRun } from '../provided.ts';
import type { AuthKind } from '../../core/types.ts';
import type fc from 'fast-check';
import { propertyLimits } from './profile.ts';
import {
  checkProperty,
  type PropertyAllowance,
  type PropertyPredicate,
  type PropertyRunOptions,
} from './property.ts';
import { AsyncLocalStorage } from 'node:async_hooks';
import type { CheckRecorder } from './recorder.ts';
import type { CheckWebhooks, WebhookScope } from './webhooks.ts';

/** An exchange that got an HTTP answer. */
export type AnsweredExchange = Exchange & { response: RecordedResponse };

/** The target gave no HTTP answer where the check needed one: a harness-side `error`, not a finding. */
export class NoAnswerError extends Error {
  constructor(readonly exchange: Exchange) {
    super(
      `no answer from the target for ${exchange.request.method} ${exchange.request.url}: ${exchange.error?.message ?? 'unknown'}`,
    );
    this.name = 'NoAnswerError';
  }
}

/**
 * An HTTP answer the target finished: headers followed by a deadline, a reset or a dropped
 * connection are no answer (the harness could not conclude). A body over the cap is an answer, and
 * its size the finding.
 */
export function completeAnswer(ex: Exchange): ex is AnsweredExchange {
  return ex.response !== undefined && (ex.error === undefined || ex.error.kind === 'body-too-large');
}

export interface CheckContext {
  readonly requirement: Requirement;
  readonly target: { readonly baseUrl: string; readonly agentId: string; readonly authKind: AuthKind };
  readonly config: Readonly<Omit<ProvidedRun, 'auth' | 'card'>>;
  /** The extended card the run's probe fetched (spec 2.14), or null. */
  readonly card: Record<string, unknown> | null;
  /** Aborted when the check's budget is spent. */
  readonly signal: AbortSignal;
  /** A client with the run's credentials. */
  readonly client: TargetClient;
  /** Every exchange the check's clients sent so far, and those it cites. */
  exchanges(): Exchange[];
  /**
   * Makes exchanges another check sent part of this check's evidence: its verdict reads their answers
   * (a shared sample), so a failure shows them, whatever --evidence keeps of the check that sent them.
   */
  cite(exchanges: readonly Exchange[]): void;
  /** Another client (other credentials, agent, budget); its exchanges are evidence too. */
  newClient(overrides?: Partial<TargetClientOptions>): TargetClient;
  /** client.rpc() that insists on a complete HTTP answer: none is a harness `error`, never a pass or fail. */
  rpc(method: string, params?: unknown, opts?: RpcOptions): Promise<AnsweredExchange>;
  stream(method: string, params?: unknown, opts?: StreamOptions): Promise<SseStream>;
  /** The webhook capture receiver, started on first use; deliveries to newUrl() URLs are evidence. */
  webhooks(): Promise<CheckWebhooks>;
  /**
   * Soft assertion, recorded as expected beside actual; returns whether it held. `expected` is a value
   * (deep equality) or a matcher of `is`; a predicate is `is.where(description, test)`.
   */
  check(label: string, actual: unknown, expected: unknown): boolean;
  /** Hard assertion: a miss ends the check as failed. */
  require(label: string, actual: unknown, expected: unknown): void;
  fail(message: string, detail?: { expected?: unknown; actual?: unknown }): never;
  notExercised(reason: string): never;
  notApplicable(reason: string): never;
  /**
   * A wait the check plans beyond its budget (e.g. a system timeout of minutes): the budget grows by
   * `ms` when the run allows such a wait (--max-wait; 10 s without it), else the check ends
   * not-exercised, naming the --max-wait that would exercise it.
   */
  planWait(ms: number, what: string): void;
  /**
   * What this agent takes per turn: the 95th percentile of its recent task-creating requests' answer
   * times, run-wide (harness/io/governor.ts); 0 before the first.
   */
  turnLatencyMs(): number;
  /**
   * A length the harness scripts (a directive's delayMs, how long a task must stay running for a
   * request to meet it) or a window it watches for a transition, given as on a fast unpaced agent,
   * grown by what this agent has shown it takes per turn and what a request has lately waited on its
   * pace (scaledToAgent). What the pace added does not spend the budget of this worker's checks while
   * it runs (pacedLengthsMs).
   */
  scaled(ms: number): number;
  /**
   * The shortest interval between one check's repeated reads of the same thing (a poll for a state)
   * that keeps the check to its share of the agent's pace: the pace's interval between requests times
   * the suite files that run at once; 0 without a pace. A faster poll only queues on the pace and
   * takes the requests the other files' checks need (at 60 requests/min, about 4 s with 4 files).
   */
  pollIntervalMs(): number;
  info(message: string, data?: unknown): void;
  /**
   * A property over generated inputs (fast-check, seed and runs from the run). A counterexample is a
   * failed assertion with its replay seed; a predicate returning false or throwing fails the case.
   * `numRuns` overrides the run's --runs; `lanes` runs independent cases side by side
   * (PropertyRunOptions).
   */
  property<T>(
    label: string,
    arb: fc.Arbitrary<T>,
    predicate: PropertyPredicate<T>,
    options?: Pick<PropertyRunOptions, 'numRuns' | 'lanes'>,
  ): Promise<boolean>;
  /**
   * An enumerated property: `run` once per case (a method, a field, a malformed value), in order, the
   * most telling case first. Every case runs unless the run's plan cuts it: phase 1 of a run whose
   * budget cannot hold every check runs the first case only (every requirement first), the breadth
   * pass what fits of the rest; the report says how many ran and which option runs them all. Declare
   * the check with `verifies(..., { property: { requests, turns, cases } })` so the plan knows what
   * each further case costs. Returns the cases that ran.
   */
  each<T>(
    label: string,
    cases: readonly T[],
    run: (item: T, index: number) => Promise<void> | void,
    options?: EachOptions,
  ): Promise<number>;
}

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
const caseScope = new AsyncLocalStorage<{ of: CheckRecorder; case: CheckRecorder }>();

let remote: RemoteGovernor | undefined;

/** The runner's governor when suite files run in several workers (field.governorUrl), else none. */
export function remoteGovernor(run: ProvidedRun): RemoteGovernor | undefined {
  const url = run.field.governorUrl;
  if (url === undefined) return undefined;
  if (remote?.url !== url) remote = new RemoteGovernor(url);
  return remote;
}

/** The run's governor: every client of every check of the run, in every worker, goes through it. */
export function runGovernor(run: ProvidedRun): TrafficGovernor {
  const linked = remoteGovernor(run);
  if (linked !== undefined) return linked;
  const f = run.field;
  const settings = {
    profile: f.profile,
    pace: f.pace,
    concurrency: f.concurrency,
    deadlineAt: f.deadlineAt,
    endsAt: f.budget?.endsAt,
    maxTurns: f.maxTurns,
    taskCap: f.taskCap,
    probedTurnMs: f.probedTurnMs,
  };
  return sharedGovernor(
    `${run.baseUrl} ${run.agentId} ${f.deadlineAt ?? ''} ${f.budget?.endsAt ?? ''}`,
    settings,
  );
}

/** A governor's refusal to wait or to spend (a budget spent) or to go on (rate limited, no task slot): never a finding. */
export function isGovernorStop(
  e: unknown,
): e is PaceBudgetError | TurnBudgetError | RunBudgetError | RateLimitedError | TaskSlotError {
  return (
    e instanceof PaceBudgetError ||
    e instanceof TurnBudgetError ||
    e instanceof RunBudgetError ||
    e instanceof RateLimitedError ||
    e instanceof TaskSlotError
  );
}

// Why two turns: a scripted length must outlast the harness's next request reaching the agent after
// it heard of the task (one answer on its way back, the request on its way in), each of which a
// slow agent (a model call per turn, a loaded gateway) takes about a turn's time for. Why one pace
// wait: that next request also waits for its turn on the agent's pace before it leaves, and under a
// window the run keeps full that is the longest wait of the pace's last window (a whole burst of
// other requests let out before it).
const TURNS_PER_SCRIPTED_LENGTH = 2;
const PACE_WAITS_PER_SCRIPTED_LENGTH = 1;

/** What this run has shown of the agent, as scaledToAgent() reads it. */
export interface AgentTimes {
  /** TrafficGovernor.turnAllowanceMs(): recent turns' answer time (95th percentile). */
  turnLatencyMs: number;
  /** TrafficGovernor.paceWaitMs(): the longest a request lately waited on the pace before it left. */
  paceWaitMs?: number | undefined;
  /** The card's limits.systemTimeoutMs (C-05), when it advertises one. */
  systemTimeoutMs?: number | undefined;
  /**
   * Ms left before the run's deadline (its budget: no paced wait ends after it), when it has one:
   * what the pace adds never reaches past it. A length cut there ends no later than the run's own
   * waits, whose next request is then refused (not-exercised), so the run still ends by itself.
   */
  untilDeadlineMs?: number | undefined;
}

/**
 * `ms`, a length tuned on an agent that answers at once and is not paced, grown by what this run
 * has shown of the agent: ms + 2 × turnLatencyMs + paceWaitMs (the pace's part no further than the
 * run's deadline). Never shorter than `ms`; grown no
 * further than half the agent's system timeout when it advertises one (C-05: a scripted task longer
 * than that would be canceled by the agent before it could end as scripted). On a fast agent the run
 * never waited for, `ms` itself.
 */
export function scaledToAgent(ms: number, agent: AgentTimes): number {
  const pace = PACE_WAITS_PER_SCRIPTED_LENGTH * Math.max(0, agent.paceWaitMs ?? 0);
  const grown =
    ms +
    TURNS_PER_SCRIPTED_LENGTH * Math.max(0, agent.turnLatencyMs) +
    Math.min(pace, Math.max(0, agent.untilDeadlineMs ?? Infinity));
  const timeout = agent.systemTimeoutMs;
  const cap = timeout === undefined ? Infinity : Math.max(ms, timeout / 2);
  return Math.round(Math.min(grown, cap));
}

// What c.scaled added for the pace, held from the moment it was asked: a check waiting out a script
// (or another check's sample made of one) grown by the pace is held back by the agent's pace as
// surely as a request waiting on it, though no request may be waiting meanwhile (the other workers
// wait out their scripts too). Per worker: the checks that share a sample run in one.
const pacedLengths = new WaitClock();

function holdForPace(ms: number): void {
  if (ms <= 0) return;
  setTimeout(pacedLengths.start(), ms).unref();
}

/**
 * Wall time during which a length or window c.scaled grew by the agent's pace ran in this worker:
 * like the governor's heldBackMs(), no check's budget spends it (run-check.ts).
 */
export function pacedLengthsMs(): number {
  return pacedLengths.ms();
}

/** The card's limits.systemTimeoutMs (the C-05 extension), when it is a positive number. */
function systemTimeoutOf(card: Record<string, unknown> | null): number | undefined {
  const limits = card?.limits;
  const ms =
    typeof limits === 'object' && limits !== null
      ? (limits as Record<string, unknown>).systemTimeoutMs
      : undefined;
  return typeof ms === 'number' && ms > 0 ? ms : undefined;
}

/** The longest wait a check may plan without --max-wait. */
export const DEFAULT_MAX_WAIT_MS = 10_000;

export class ClientPool {
  private readonly clients: TargetClient[] = [];

  constructor(
    private readonly run: ProvidedRun,
    /** Counts this pool's requests; the governor's waits do not spend the check's budget. */
    readonly tally?: TrafficTally,
    private readonly signal?: AbortSignal,
    /** The check fills or overflows the agent's task slots on purpose (verifies' overflowsTasks, C-21). */
    private readonly overflowTasks = false,
  ) {}

  create(overrides: Partial<TargetClientOptions> = {}): TargetClient {
    const client = createTargetClient({
      ...targetOptions(this.run),
      governor: runGovernor(this.run),
      ...(this.tally === undefined ? {} : { tally: this.tally }),
      ...(this.signal === undefined ? {} : { signal: this.signal }),
      ...(this.overflowTasks ? { overflowTasks: true } : {}),
      ...overrides,
      secrets: [...secretsOf(this.run), ...(overrides.secrets ?? [])],
    });
    this.clients.push(client);
    return client;
  }

  private readonly cited: Exchange[] = [];

  /** Exchanges another check of the run sent that this check's verdict reads (a shared sample). */
  cite(exchanges: readonly Exchange[]): void {
    for (const ex of exchanges) if (!this.cited.includes(ex)) this.cited.push(ex);
  }

  /** Every exchange of every client, in creation order per client, then those the check cites. */
  exchanges(): Exchange[] {
    const own = this.clients.flatMap((c) => c.exchanges());
    return [...own, ...this.cited.filter((ex) => !own.includes(ex))];
  }

  /** Every secret this pool's clients redact: the run's and any a client was given or added. */
  secrets(): string[] {
    return [...new Set([...secretsOf(this.run), ...this.clients.flatMap((c) => c.secrets())])];
  }

  /** Requests this pool's clients sent that the target has not answered yet (TargetClient.unanswered). */
  unanswered(): number {
    return this.clients.reduce((n, c) => n + c.unanswered(), 0);
  }

  async closeAll(): Promise<void> {
    await Promise.allSettled(this.clients.map((c) => c.close()));
  }
}

/** How a check's context reaches its runner (run-check.ts): the budget and the run's file lock. */
export interface CheckHooks {
  /** Extends the check's budget by a wait it planned. */
  extendBudget?: (ms: number) => void;
  /** Awaited between a property's generated cases (CheckSpec.betweenSteps). */
  betweenSteps?: () => Promise<void>;
  /** The check's test name (`<requirement id> <title>`): the run's plan gives its properties their cases. */
  name?: string;
}

export function createCheckContext(
  requirement: Requirement,
  run: ProvidedRun,
  recorder: CheckRecorder,
  pool: ClientPool,
  hooks: WebhookScope,
  signal: AbortSignal,
  { extendBudget = () => undefined, betweenSteps, name }: CheckHooks = {},
): CheckContext {
  const { auth: _auth, card, ...config } = run;
  const client = pool.create();
  // Inside a c.each case run beside others, what the check records goes to that case's fork.
  const rec = (): CheckRecorder => {
    const scope = caseScope.getStore();
    return scope?.of === recorder ? scope.case : recorder;
  };
  return {
    planWait(ms, what) {
      const allowed = run.field.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
      if (ms > allowed) {
        const option = `--max-wait ${Math.ceil(ms / 60_000) + 1}m`;
        pool.tally?.cuts.push({ what: 'waits longer than the run allows (e.g. a system timeout)', option });
        recorder.notExercised(
          `${what} needs a wait of ${Math.ceil(ms / 1000)} s, above the ${Math.round(allowed / 1000)} s this run waits (${option} would exercise it)`,
        );
      }
      extendBudget(ms);
    },
    turnLatencyMs: () => runGovernor(run).turnAllowanceMs(),
    scaled: (ms) => {
      const governor = runGovernor(run);
      const unpaced = { turnLatencyMs: governor.turnAllowanceMs(), systemTimeoutMs: systemTimeoutOf(card) };
      const deadline = run.field.deadlineAt;
      const untilDeadlineMs = deadline === undefined ? undefined : deadline - Date.now();
      const scaled = scaledToAgent(ms, { ...unpaced, paceWaitMs: governor.paceWaitMs(), untilDeadlineMs });
      holdForPace(scaled - scaledToAgent(ms, unpaced));
      return scaled;
    },
    pollIntervalMs: () => {
      const pace = run.field.pace;
      return pace === null ? 0 : Math.ceil(paceIntervalMs(pace) * (run.field.suiteWorkers ?? 1));
    },
    requirement,
    target: { baseUrl: run.baseUrl, agentId: run.agentId, authKind: authKindOf(run.auth) },
    config,
    card,
    signal,
    client,
    newClient: (overrides) => pool.create(overrides),
    exchanges: () => pool.exchanges(),
    cite: (exchanges) => pool.cite(exchanges),
    rpc: (method, params, opts) =>
      settled(
        client.rpc(method, params, opts).then((ex) => {
          if (!completeAnswer(ex)) throw new NoAnswerError(ex);
          return ex as AnsweredExchange;
        }),
      ),
    stream: (method, params, opts) => client.stream(method, params, opts),
    webhooks: () => hooks.open(),
    check: (label, actual, expected) => rec().check(label, actual, expected),
    require: (label, actual, expected) => rec().require(label, actual, expected),
    fail: (message, detail) => rec().fail(message, detail),
    notExercised: (reason) => rec().notExercised(reason),
    notApplicable: (reason) => rec().notApplicable(reason),
    info: (message, data) => rec().info(message, data),
    property: (label, arb, predicate, options) =>
      checkProperty(
        recorder,
        run,
        (e) => e instanceof NoAnswerError || isGovernorStop(e) || signal.aborted,
        label,
        arb,
        predicate,
        {
          ...options,
          allowance: propertyAllowance(run, pool.tally, recorder, label, name),
          betweenCases: betweenSteps,
        },
      ),
    each: async (label, cases, each, options = {}) => {
      const cap = planCases(run, name);
      const runs = Math.min(cases.length, cap ?? Infinity);
      const lanes = Math.max(1, Math.floor(options.lanes ?? 1));
      // Steps that must not overlap (CheckSpec.betweenSteps) come between rounds: no case in flight.
      for (let i = 0; i < runs; i += lanes) {
        if (i > 0) await betweenSteps?.();
        if (lanes === 1) await each(cases[i]!, i);
        else await eachRound(recorder, cases.slice(i, Math.min(runs, i + lanes)), i, each);
      }
      if (runs < cases.length) {
        const { option, why } = planCut(run);
        recorder.info(`${label}: ${runs} of ${cases.length} cases (${why}; ${option} runs them all)`);
        pool.tally?.properties.push({ label, planned: cases.length, runs });
        pool.tally?.cuts.push({
          what: "cases of an enumerated property beyond what the run's budget holds at this agent's pace",
          option,
        });
      }
      return runs;
    },
  };
}

/**
 * One round of c.each cases side by side, each recording into its own fork of the check's recorder;
 * the forks are adopted in case order up to the first case that threw, whose error is rethrown.
 */
async function eachRound<T>(
  recorder: CheckRecorder,
  round: readonly T[],
  first: number,
  each: (item: T, index: number) => Promise<void> | void,
): Promise<void> {
  const forks = round.map(() => recorder.fork());
  const settled = await Promise.allSettled(
    round.map((item, k) =>
      caseScope.run({ of: recorder, case: forks[k]! }, async () => each(item, first + k)),
    ),
  );
  for (let k = 0; k < round.length; k += 1) {
    recorder.adopt(forks[k]!);
    const s = settled[k]!;
    if (s.status === 'rejected') throw s.reason;
  }
}

/** The cases the run's plan gives a property of this check (harness/runner/plan.ts); undefined: no cap. */
function planCases(run: ProvidedRun, name: string | undefined): number | undefined {
  const breadth = run.field.breadth;
  return breadth === undefined ? undefined : breadth.phase === 'coverage' ? 1 : breadth.cases[name ?? ''];
}

/** What a cut by the run's plan is told as: why, the option that runs more, the tally's words. */
function planCut(run: ProvidedRun): { option: string; why: string; what: string } {
  const breadth = run.field.breadth;
  return {
    option: largerBudgetOption(run.field),
    why: `the run's plan: ${breadth?.phase === 'coverage' ? 'one case each in phase 1, every requirement first' : 'what fits of the budget after every requirement ran once'}`,
    what: "generated cases of a property beyond what the run's budget holds at this agent's pace",
  };
}

/** The profile's allowance for one property of a check, or none (`full`). */
function propertyAllowance(
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
