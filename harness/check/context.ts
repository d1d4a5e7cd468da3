// The check contract: what a check function receives (CheckContext) and how one is made for a
// check (createCheckContext): the target (clients whose every exchange is evidence), the agent card,
// the run's settings, and the recorder's expected-vs-actual helpers. Each concern behind it has its
// own module: the client pool (client-pool.ts), agent time (agent-time.ts), cases and lanes
// (cases.ts), the run's governor (run-governor.ts).
import type { Requirement } from '../../requirements/types.ts';
import type { Exchange } from '../../core/evidence.ts';
import type { AuthKind } from '../../core/types.ts';
import { completeAnswer, FAULTS, type AnsweredExchange } from '../io/target/faults.ts';
import { isGovernorStop } from '../io/traffic/governor-stop.ts';
import type { SseStream } from '../io/target/sse-reader.ts';
import {
  settled,
  type RpcOptions,
  type StreamOptions,
  type TargetClient,
  type TargetClientOptions,
} from '../io/target/target-client.ts';
import { authKindOf, type ProvidedRun } from '../provided.ts';
import type fc from 'fast-check';
import { planWait, pollIntervalOf, scaledForRun } from './agent-time.ts';
import { propertyAllowance, recorderInScope, runEach, type EachOptions } from './cases.ts';
import type { ClientPool } from './client-pool.ts';
import { checkProperty, type PropertyPredicate, type PropertyRunOptions } from './property.ts';
import type { CheckRecorder } from './recorder.ts';
import { runGovernor } from './run-governor.ts';
import { NoAnswerError } from './no-answer.ts';
import type { CheckWebhooks, WebhookScope } from './webhooks.ts';

export { NoAnswerError };

/**
 * The exchange, answered whole; a deadline or reset mid-answer is no answer: NoAnswerError, and the
 * check ends as a harness error or not-exercised, never graded.
 */
export function requireAnswer(ex: Exchange): AnsweredExchange {
  if (!completeAnswer(ex)) throw new NoAnswerError(ex);
  return ex;
}

/**
 * The stream, whose events() ends by throwing NoAnswerError when the stream ended on a transport
 * fault (a reset, an answer cut short, a gateway's page) before its final event: what it did not
 * carry is no finding, and the check re-runs (reruns.ts). A stream the agent ended is as it is.
 */
function faultAware(s: SseStream, exchanges: () => Exchange[]): SseStream {
  return {
    get transcript() {
      return s.transcript;
    },
    done: s.done,
    close: () => s.close(),
    async *events() {
      yield* s.events();
      const t = await s.done;
      if (t.finalIndex !== null || t.error === undefined || FAULTS[t.error.kind].answer) return;
      const ex = exchanges().find((e) => e.id === t.exchangeId);
      if (ex !== undefined && ex.error !== undefined) throw new NoAnswerError(ex);
    },
  };
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
   * Awaits what another check makes for this one (a file's shared sample, a probe of the target made
   * once): the time it waits does not spend this check's budget (the check making it has its own,
   * and the agent's turns it takes are that check's). `maker`: the signal of the check making it
   * (its c.signal); should that check's budget end first, this one ends not-exercised, saying so.
   */
  awaitShared<T>(made: Promise<T>, maker?: AbortSignal): Promise<T>;
  /**
   * What this agent takes per turn: the 95th percentile of its recent task-creating requests' answer
   * times, run-wide (harness/io/traffic/governor.ts); 0 before the first.
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

/** How a check's context reaches its runner (run-check.ts): the budget and the run's file lock. */
export interface CheckHooks {
  /** Extends the check's budget by a wait it planned. */
  extendBudget?: (ms: number) => void;
  /** Awaited between a property's generated cases (CheckSpec.betweenSteps). */
  betweenSteps?: () => Promise<void>;
  /** The check's test name (`<requirement id> <title>`): the run's plan gives its properties their cases. */
  name?: string;
  /** Time the check waits on another check or on the agent, not spending its budget (Planned.paused). */
  standAside?: <T>(wait: Promise<T>) => Promise<T>;
  /** The next `ms` are the agent's: what c.scaled() grew a length by for its turns (Planned.hold). */
  holdTurns?: (ms: number) => void;
}

/** The maker of a shared sample ended (its budget) before the sample was made. */
const MAKER_ENDED = Symbol('maker ended');

/**
 * `made`, or MAKER_ENDED once `maker` is aborted before it settled (a sample made before its maker's
 * budget ended is still the sample: an already settled `made` wins the race).
 */
function unlessMakerEnds<T>(
  made: Promise<T>,
  maker: AbortSignal | undefined,
): Promise<T | typeof MAKER_ENDED> {
  if (maker === undefined) return made;
  let onAbort = (): void => undefined;
  const ended = maker.aborted
    ? Promise.resolve(MAKER_ENDED)
    : new Promise<typeof MAKER_ENDED>((resolve) => {
        onAbort = () => resolve(MAKER_ENDED);
        maker.addEventListener('abort', onAbort, { once: true });
      });
  return Promise.race([made, ended]).finally(() => maker.removeEventListener('abort', onAbort));
}

export function createCheckContext(
  requirement: Requirement,
  run: ProvidedRun,
  recorder: CheckRecorder,
  pool: ClientPool,
  hooks: WebhookScope,
  signal: AbortSignal,
  {
    extendBudget = () => undefined,
    betweenSteps,
    name,
    standAside = (wait) => wait,
    holdTurns = () => undefined,
  }: CheckHooks = {},
): CheckContext {
  const { auth: _auth, card, ...config } = run;
  const client = pool.create();
  const rec = (): CheckRecorder => recorderInScope(recorder);
  return {
    planWait: (ms, what) => planWait(run, ms, what, recorder, pool.tally, extendBudget),
    awaitShared: async (made, maker) => {
      const value = await standAside(unlessMakerEnds(made, maker));
      if (value === MAKER_ENDED) {
        return rec().notExercised(
          'the shared sample it reads was not made: the check making it ended (its budget) before it was',
        );
      }
      return value;
    },
    turnLatencyMs: () => runGovernor(run).turnAllowanceMs(),
    scaled: (ms) => scaledForRun(run, card, ms, holdTurns),
    pollIntervalMs: () => pollIntervalOf(run),
    requirement,
    target: { baseUrl: run.baseUrl, agentId: run.agentId, authKind: authKindOf(run.auth) },
    config,
    card,
    signal,
    client,
    newClient: (overrides) => pool.create(overrides),
    exchanges: () => pool.exchanges(),
    cite: (exchanges) => pool.cite(exchanges),
    rpc: (method, params, opts) => settled(client.rpc(method, params, opts).then(requireAnswer)),
    stream: (method, params, opts) =>
      settled(client.stream(method, params, opts).then((s) => faultAware(s, () => pool.exchanges()))),
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
          isFault: (e) => e instanceof NoAnswerError && !signal.aborted,
          allowance: propertyAllowance(run, pool.tally, recorder, label, name),
          betweenCases: betweenSteps,
        },
      ),
    each: (label, cases, each, options) =>
      runEach(run, { recorder, tally: pool.tally, signal }, name, betweenSteps, label, cases, each, options),
  };
}
