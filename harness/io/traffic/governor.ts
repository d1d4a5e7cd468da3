// The traffic governor: one per run (per process), under every request the harness sends to the
// target. It keeps the pace the agent card announces (pace.ts), holds every request after a
// rate-limited answer until Retry-After (rate-limited.ts), caps requests in flight (--concurrency)
// and agent turns in flight (the card's limits.concurrentTasks, C-21; slots.ts), and counts
// (tallies.ts). Suite files in several workers reach the runner's governor over worker-link.ts.
import { GovernorStop } from './governor-stop.ts';
import { PaceBudgetError, PaceWindow, sleep, type PaceSettings } from './pace.ts';
import { RateLimitedError, rateLimitedWaitMs, UnavailableBackoff } from './rate-limited.ts';
import type { ThrottleState } from './throttle-pace.ts';
import { RequestSlots, TaskSlotError, TaskSlots, type Lane, type TaskSlotSettings } from './slots.ts';
import {
  checkTurnBudget,
  count,
  newTally,
  turnAllowanceMs,
  TurnBudgetError,
  WaitClock,
  type TrafficTally,
} from './tallies.ts';

export interface GovernorSettings extends PaceSettings, TaskSlotSettings {
  /** Requests in flight at once. */
  concurrency: number;
  /** Agent turns the run may spend (--max-turns); null or undefined: no cap. */
  maxTurns?: number | null;
  /** Epoch ms when the run's budget ends (FieldSettings.budget): no request is admitted after it. */
  endsAt?: number | undefined;
  /** FieldSettings.probedTurnMs: the turn allowance before the run's first turn. */
  probedTurnMs?: number | undefined;
}

/** The run's budget ended: no request is sent after it, and what is left is not exercised. */
export class RunBudgetError extends GovernorStop {
  /** `message`: an interrupt's own (INTERRUPTED_PREFIX first, harness/runner/run-suites.ts). */
  constructor(message = "run budget spent: no request is sent after the run's budget (--budget-ms) ends") {
    super(message);
    this.name = 'RunBudgetError';
  }

  /** The run was interrupted (SIGINT, SIGTERM), not out of budget: read from the message, which crosses the worker link. */
  get interrupted(): boolean {
    return this.message.startsWith(INTERRUPTED_PREFIX);
  }
}

/**
 * Every refusal of the governor, by class: the one list of them. The worker link rebuilds a refusal
 * of the runner's governor in the worker with its own class from it, so a check tells them apart
 * there as in one process. A new stop extends GovernorStop and joins this list.
 */
export const GOVERNOR_STOPS: ReadonlyArray<abstract new (...args: never[]) => GovernorStop> = [
  PaceBudgetError,
  TurnBudgetError,
  RunBudgetError,
  RateLimitedError,
  TaskSlotError,
];

/** How the message of a RunBudgetError an interrupt caused begins (core/interrupt.ts interruptedBy()). */
export const INTERRUPTED_PREFIX = 'interrupted (';

/** Throws RunBudgetError once the run's budget has ended (undefined: no budget). */
export function checkRunBudget(endsAt: number | undefined, now = Date.now()): void {
  if (endsAt !== undefined && now >= endsAt) throw new RunBudgetError();
}

export interface AdmitOptions {
  turn: boolean;
  tally?: TrafficTally | undefined;
  signal?: AbortSignal | undefined;
  /** Sent at once whatever the pace (the rate-limit checks, C-04); still counted in the window. */
  bypass?: boolean | undefined;
  /** Let out once the pace's window also has room for this many follow-ups, counted now (PaceRoom). */
  keep?: number | undefined;
  /** A follow-up whose place an earlier request kept: let out at once, not counted again (PaceRoom). */
  prepaid?: boolean | undefined;
  /**
   * Whose request (a check; default its tally), as for holdTask: one whose task a turn of it made is
   * still held is let out ahead of the run's other requests waiting for a slot or a throttled pace.
   */
  owner?: unknown;
}

export interface TaskSlotOptions extends Pick<AdmitOptions, 'tally' | 'signal'> {
  /**
   * Who holds the slot (a check; default its tally). A check whose own requests hold every slot
   * taken is let past the cap after OWN_SLOTS_WAIT_MS instead of waiting on itself: it may hold a
   * task on purpose (e.g. a second message naming a task id it holds, C-16), which no one else frees.
   */
  owner?: unknown;
}

/** What a client and a check's budget need of the run's governor (local, or the runner's over loopback). */
export interface TrafficGovernor {
  admit(o: AdmitOptions): Promise<() => void>;
  /**
   * An answer said "rate limited": every request waits until Retry-After (or the backoff of
   * `attempt`), this one included. Throws RateLimitedError when the agent asks too much of it.
   */
  onRateLimited(
    retryAfterMs: number | undefined,
    attempt: number,
    o: Pick<AdmitOptions, 'tally' | 'signal'>,
  ): Promise<void>;
  /**
   * Something in front of the agent answered 503 (a gateway, a rolling deploy): every request waits
   * until Retry-After (or a second), and the pace drops below the card's (throttle-pace.ts). The
   * request itself is not resent here (a send may have reached the agent); nothing is counted as
   * rate limited. Never throws: a pause beyond the run's budget is cut to it.
   */
  onUnavailable(retryAfterMs: number | undefined, o: Pick<AdmitOptions, 'tally' | 'signal'>): Promise<void>;
  turnAnswered(ms: number, tally: TrafficTally | undefined): void;
  /** A request counted as a turn when admitted made no task (the agent refused it): uncounts it. */
  notATurn(tally: TrafficTally | undefined): void;
  /**
   * Waits for one of the agent's task slots (limits.concurrentTasks) and holds it until the returned
   * release is called: around a task-creating request, from before it is admitted until its task
   * ends (a send's answer, a stream's final event or end). Never waits without a cap.
   */
  holdTask(o: TaskSlotOptions): Promise<() => void>;
  turnAllowanceMs(): number;
  /**
   * What a request has lately waited on the pace (or a Retry-After pause) before it left for the
   * agent: PaceWindow.recentWaitMs(), run-wide. 0 on an agent the run never waited for.
   */
  paceWaitMs(): number;
  heldBackMs(): number;
}

export class Governor implements TrafficGovernor {
  private readonly window: PaceWindow;
  private readonly requests: RequestSlots;
  private readonly tasks: TaskSlots;
  private readonly clock = new WaitClock();
  /** Run-wide counts (every tally also counts its own). */
  readonly total: TrafficTally = newTally();

  /** How long the run waits for a front's 503 (doubling while the front stays unavailable). */
  private readonly unavailable = new UnavailableBackoff();

  /** Aborted once the governor stops admitting (stopAdmitting): every wait on the pace ends then. */
  private readonly stopped = new AbortController();

  constructor(readonly settings: GovernorSettings) {
    this.window = new PaceWindow(settings);
    this.requests = new RequestSlots(() => this.settings.concurrency);
    this.tasks = new TaskSlots(settings);
  }

  get maxInFlight(): number {
    return this.total.maxInFlight;
  }

  /** Most task slots held at once. */
  get maxTasksInFlight(): number {
    return this.total.maxTasksInFlight;
  }

  /** Requests in flight now. */
  get inFlightNow(): number {
    return this.requests.now;
  }

  /**
   * Request slots free now that no one waits for: what a request sent only while the run leaves
   * slots idle (harness/runner/window-fill.ts) may take without delaying a check's.
   */
  get idleSlots(): number {
    return this.requests.waiting > 0 ? 0 : Math.max(0, this.settings.concurrency - this.requests.now);
  }

  /** Requests waiting for a request slot now. */
  get slotWaiters(): number {
    return this.requests.waiting;
  }

  /** Requests let out within the pace's window now (a minute's without a pace), bursts included. */
  inPaceWindow(): number {
    return this.window.counted();
  }

  /** Task slots held now. */
  get tasksNow(): number {
    return this.tasks.now;
  }

  /**
   * Wall time so far during which some request waited on the pace or on Retry-After: the agent's
   * limits held the run back, so no check's budget runs meanwhile (a check waiting on another
   * check's paced scenario included).
   */
  heldBackMs(): number {
    return this.clock.ms();
  }

  /**
   * Waits for the pace and a free slot, then counts the request as sent and in flight. Refused once the
   * run's budget has ended (RunBudgetError), also when it ends while the request waits.
   */
  async admit(o: AdmitOptions): Promise<() => void> {
    this.checkOpen();
    if (o.turn) checkTurnBudget(this.total.agentTurns, this.settings.maxTurns);
    if (o.bypass === true) this.window.sentNow();
    else if (o.prepaid === true) await this.window.prepaid((ms) => this.waitFor(ms, o));
    else await this.window.next((ms) => this.waitFor(ms, o), o.keep ?? 0);
    // A follow-up on a task its check holds goes first, for a slot as for its turn (throttle-pace.ts).
    const owner = o.owner ?? o.tally;
    const first = (): boolean => o.prepaid === true || this.tasks.holdsLiveTask(owner);
    const taken = await this.requests.take(o.signal, () => this.hold(o.tally), first);
    // Just before it leaves: its turn at a pace a throttle lowered, after any Retry-After pause
    // (begun while it waited for its slot too). The burst's requests (C-04) take no part in it.
    const paced = o.bypass !== true;
    try {
      if (paced) await this.throttleTurn(first, o);
    } catch (e) {
      taken();
      throw e;
    }
    // A request of the run that ended lets a throttled pace climb back.
    const release = paced
      ? (): void => {
          taken();
          this.window.throttle.answered();
        }
      : taken;
    try {
      this.checkOpen();
    } catch (e) {
      release();
      throw e;
    }
    if (o.turn) this.tasks.turnLeft(owner);
    count.request(this.tallies(o.tally), o.turn, this.requests.now);
    return release;
  }

  /** Waits for the request's turn at the throttled pace; refused when it would come after the deadline. */
  private async throttleTurn(first: Lane, o: AdmitOptions): Promise<void> {
    const throttle = this.window.throttle;
    const now = Date.now();
    const waitMs = throttle.waitMs(now, first());
    const deadline = this.settings.deadlineAt;
    const refuse = (ms: number): Error => new PaceBudgetError(ms, this.settings.pace, this.settings.profile);
    // Past the deadline with no wait ahead (it waited for its slot, not the pace): the run's budget
    // for requests is spent, and no pace is to blame.
    if (deadline !== undefined && now + waitMs > deadline)
      throw waitMs > 0 ? refuse(waitMs) : new RunBudgetError();
    if (throttle.leaveNow(now)) return;
    const done = this.hold(o.tally);
    try {
      await throttle.turn({ first, signal: this.withStop(o.signal), deadline, refuse });
    } finally {
      done();
    }
  }

  async onRateLimited(
    retryAfterMs: number | undefined,
    attempt: number,
    o: Pick<AdmitOptions, 'tally' | 'signal'>,
  ): Promise<void> {
    count.rateLimited(this.tallies(o.tally));
    const waitMs = rateLimitedWaitMs(retryAfterMs, attempt, this.settings.deadlineAt);
    const done = this.hold(o.tally);
    try {
      const now = Date.now();
      const pausedMs = this.window.pauseUntil(now + waitMs);
      // A fresh request refused: below the card's pace from now on, until answers let it climb back.
      // The same request refused again is the backoff's (`attempt`), not a new sign of the pace.
      if (attempt === 0) this.window.throttle.throttled(now, now + pausedMs);
      await sleep(pausedMs, this.withStop(o.signal));
    } finally {
      done();
    }
  }

  async onUnavailable(
    retryAfterMs: number | undefined,
    o: Pick<AdmitOptions, 'tally' | 'signal'>,
  ): Promise<void> {
    const now = Date.now();
    const deadline = this.settings.deadlineAt ?? Number.POSITIVE_INFINITY;
    const until = Math.min(now + this.unavailable.waitMs(now, retryAfterMs), deadline);
    const done = this.hold(o.tally);
    try {
      const pausedMs = this.window.pauseUntil(until);
      this.window.throttle.throttled(now, now + pausedMs, false);
      await sleep(pausedMs, this.withStop(o.signal)).catch(() => undefined);
    } finally {
      done();
    }
  }

  /** The pace below the card's after unannounced throttles (report.json traffic.rateLimit.throttled). */
  throttleState(): ThrottleState {
    return this.window.throttle.state();
  }

  async holdTask(o: TaskSlotOptions): Promise<() => void> {
    const release = await this.tasks.take(o.owner ?? o.tally, o.signal, () => this.hold(o.tally));
    count.tasksHeld(this.tallies(o.tally), this.tasks.now);
    return release;
  }

  notATurn(tally: TrafficTally | undefined): void {
    count.notATurn(this.tallies(tally));
  }

  /** Records a task-creating request's answer time. */
  turnAnswered(ms: number, tally: TrafficTally | undefined): void {
    count.turnAnswered(this.tallies(tally), ms);
  }

  turnAllowanceMs(): number {
    return turnAllowanceMs(this.total.turnLatencyMs, this.settings.probedTurnMs);
  }

  paceWaitMs(): number {
    return this.window.recentWaitMs();
  }

  /** The run's counts and, when a check counts too, its tally: every count goes to both. */
  private tallies(tally: TrafficTally | undefined): TrafficTally[] {
    return tally === undefined ? [this.total] : [this.total, tally];
  }

  /** A wait begins (the run held back, the tally waiting); the returned function ends and counts it. */
  private hold(tally: TrafficTally | undefined): () => void {
    const t0 = Date.now();
    const stop = this.clock.start();
    if (tally !== undefined) tally.waiting += 1;
    return () => {
      stop();
      if (tally !== undefined) tally.waiting -= 1;
      count.waited(this.tallies(tally), Date.now() - t0);
    };
  }

  /**
   * Admits no request from now on (an interrupt of the run): each is refused with a RunBudgetError of
   * this message, those waiting on the pace at once.
   */
  stopAdmitting(message: string): void {
    if (!this.stopped.signal.aborted) this.stopped.abort(new RunBudgetError(message));
  }

  /** A wait's signal that also ends when the governor stops admitting. */
  private withStop(signal: AbortSignal | undefined): AbortSignal {
    const stop = this.stopped.signal;
    return signal === undefined ? stop : AbortSignal.any([signal, stop]);
  }

  private checkOpen(): void {
    const reason = this.stopped.signal.reason as RunBudgetError | undefined;
    if (reason !== undefined) throw new RunBudgetError(reason.message);
    checkRunBudget(this.settings.endsAt);
  }

  private async waitFor(
    ms: number,
    { tally, signal }: Pick<AdmitOptions, 'tally' | 'signal'>,
  ): Promise<void> {
    const done = this.hold(tally);
    try {
      await sleep(ms, this.withStop(signal));
    } finally {
      done();
    }
  }
}

let shared: { key: string; governor: Governor } | undefined;

/**
 * The process's governor for the run `key`: every client of that run in this process shares it (the
 * suites run in one worker); another key (a new run in the same process) starts a new one.
 */
export function sharedGovernor(key: string, settings: GovernorSettings): Governor {
  if (shared?.key !== key) shared = { key, governor: new Governor(settings) };
  return shared.governor;
}
