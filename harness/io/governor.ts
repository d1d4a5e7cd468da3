// The traffic governor: one per run (per process), under every request the harness sends to the
// target. It keeps the pace the agent card announces (limits.requestsPerMinute, spec 8) over the
// sliding window of C-04 or the one --rate gives, holds every request after a rate-limited answer
// (HTTP 429 or -32012) until Retry-After, caps requests in flight (--concurrency) and agent turns in
// flight (the card's limits.concurrentTasks, C-21), and counts.
import { ERROR_CODES } from '../../schemas/error-codes.ts';

/** A pace: at most `limit` requests in any `windowMs`. */
export interface Pace {
  limit: number;
  windowMs: number;
  source: 'card' | 'option';
}

export interface GovernorSettings {
  /** Null: no pacing (only answers that say "rate limited" slow the run down). */
  pace: Pace | null;
  /** Requests in flight at once. */
  concurrency: number;
  /** Epoch ms after which no wait may end (the run's budget); undefined: none. */
  deadlineAt?: number | undefined;
  /** Agent turns the run may spend (--max-turns); null or undefined: no cap. */
  maxTurns?: number | null;
  /**
   * Agent turns in flight at once: the card's limits.concurrentTasks (spec 8); null or undefined:
   * no cap. Past it the agent would queue the task (C-21) and a check timing a running task would
   * see it `submitted`; only the checks that overflow the agent's slots on purpose go past it.
   */
  taskCap?: number | null;
  /** Longest wait for a task slot before the check is an error (TaskSlotError); default TASK_SLOT_WAIT_MS. */
  taskWaitMs?: number;
  /** How long a check waits on slots only it holds before going past the cap; default OWN_SLOTS_WAIT_MS. */
  ownWaitMs?: number;
}

/** Counts of one check's requests (or of the probe's); summed into RunResult.traffic by the runner. */
export interface TrafficTally {
  requests: number;
  /** Requests that create a task (message/send, message/stream): each is an LLM call on a real agent. */
  agentTurns: number;
  /** Milliseconds a task-creating request took to answer (headers of a stream, the body of a send). */
  turnLatencyMs: number[];
  /** Time spent waiting on the pace or on Retry-After. */
  waitedMs: number;
  /** Time the agent took on requests to message/send and message/stream, malformed ones included. */
  agentMs: number;
  /** Rate-limited answers seen (and resent) outside a client that bypasses pacing. */
  rateLimitedAnswers: number;
  /** Most requests in flight at once while this tally counted. */
  maxInFlight: number;
  /** Most task slots (agent turns in flight, limits.concurrentTasks) held at once when this tally took one. */
  maxTasksInFlight: number;
  /** Governor waits in progress for this tally. */
  waiting: number;
  /** Properties run: generated cases planned and run (the profile may cut them). */
  properties: Array<{ label: string; planned: number; runs: number }>;
  /** What the profile or a budget left out of this check, and the option that covers it. */
  cuts: Array<{ what: string; option: string }>;
}

export function newTally(): TrafficTally {
  return {
    requests: 0,
    agentTurns: 0,
    turnLatencyMs: [],
    waitedMs: 0,
    agentMs: 0,
    rateLimitedAnswers: 0,
    maxInFlight: 0,
    maxTasksInFlight: 0,
    waiting: 0,
    properties: [],
    cuts: [],
  };
}

/** The run's budget does not leave room for a wait on the pace: what is left is not exercised. */
export class PaceBudgetError extends Error {
  constructor(waitMs: number, pace: Pace | null) {
    const at = pace === null ? 'the rate limit' : describePace(pace);
    super(
      `rate budget spent: the next request would wait ${Math.ceil(waitMs / 1000)} s on ${at} beyond the run's budget (a larger --budget-ms, --profile smoke or a higher --rate would exercise it)`,
    );
    this.name = 'PaceBudgetError';
  }
}

/** The run's --max-turns is spent: what is left that needs a turn is not exercised. */
export class TurnBudgetError extends Error {
  constructor(maxTurns: number) {
    super(
      `turn budget spent: the run's ${maxTurns} agent turns (--max-turns) were spent before this check's`,
    );
    this.name = 'TurnBudgetError';
  }
}

/**
 * No task slot freed in time: the run's other requests held every one of the agent's
 * limits.concurrentTasks slots for longer than any turn should take (a check that holds more tasks
 * than that on purpose must say so: verifies(..., { overflowsTasks: true })). The check is an error.
 */
export class TaskSlotError extends Error {
  constructor(cap: number, waitedMs: number) {
    super(
      `task slots held: waited ${Math.round(waitedMs / 1000)} s for one of the agent's ${cap} task slots (limits.concurrentTasks), all held by other requests of the run`,
    );
    this.name = 'TaskSlotError';
  }
}

/** The agent kept answering "rate limited" after every wait it asked for: the check is an error. */
export class RateLimitedError extends Error {
  constructor(attempts: number, detail: string) {
    super(`rate limited: ${attempts} rate-limited answers in a row (${detail})`);
    this.name = 'RateLimitedError';
  }
}

export function describePace(p: Pace): string {
  const per = p.windowMs === 1000 ? 's' : p.windowMs === 3_600_000 ? 'h' : p.windowMs === 60_000 ? 'm' : '';
  return per === '' ? `${p.limit} requests per ${p.windowMs} ms` : `${p.limit}/${per}`;
}

export function requestsPerMinute(p: Pace | null): number | null {
  return p === null ? null : Math.round(((p.limit * 60_000) / p.windowMs) * 100) / 100;
}

// Why a margin: the agent counts a request when it arrives, the governor when it leaves, and the
// probe and other clients of the agent share its window; 5% fewer requests and 1 s more of window
// keep a paced run clear of the limit, and a rate-limited answer is resent anyway.
const PACE_SHARE = 0.95;
const WINDOW_SLACK_MS = 1_000;
// Without Retry-After: 1, 2, 4, 8, 16 s, then the check gives up ("rate limited").
const BACKOFF_MS = [1_000, 2_000, 4_000, 8_000, 16_000];
const MAX_RETRY_AFTER_MS = 120_000;
const RECENT_TURNS = 50;
// Longest wait for a task slot: every holder ends by itself (a send's deadline, a stream's total
// budget, its final event, the check's end), so a wait this long means a holder that never ends.
export const TASK_SLOT_WAIT_MS = 120_000;
// How long a check waits on task slots that only its own requests hold before it goes past the cap:
// its own short tasks free them sooner; a task it holds on purpose (a second message naming a task id
// it holds, C-16) never would.
export const OWN_SLOTS_WAIT_MS = 5_000;

export function paceCap(p: Pace): number {
  return Math.max(1, Math.floor(p.limit * PACE_SHARE));
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(signal.reason as Error);
      return;
    }
    const timer = setTimeout(done, ms);
    function done(): void {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }
    function onAbort(): void {
      clearTimeout(timer);
      reject(signal!.reason as Error);
    }
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export interface AdmitOptions {
  turn: boolean;
  tally?: TrafficTally | undefined;
  signal?: AbortSignal | undefined;
  /** Sent at once whatever the pace (the rate-limit checks, C-04); still counted in the window. */
  bypass?: boolean | undefined;
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
  onRateLimited(
    retryAfterMs: number | undefined,
    attempt: number,
    o: Pick<AdmitOptions, 'tally' | 'signal'>,
  ): Promise<void>;
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
  heldBackMs(): number;
}

export class Governor implements TrafficGovernor {
  private sentAt: number[] = [];
  private head = 0;
  private queue: Promise<void> = Promise.resolve();
  private pausedUntil = 0;
  private inFlight = 0;
  private slotWaiters: Array<() => void> = [];
  private tasksInFlight = 0;
  private taskWaiters: Array<() => void> = [];
  private taskOwners = new Map<unknown, number>();
  /** Run-wide counts (every tally also counts its own). */
  readonly total: TrafficTally = newTally();
  private waiters = 0;
  private waitingSince = 0;
  private heldMs = 0;

  constructor(public settings: GovernorSettings) {}

  get maxInFlight(): number {
    return this.total.maxInFlight;
  }

  /** Most task slots held at once. */
  get maxTasksInFlight(): number {
    return this.total.maxTasksInFlight;
  }

  /** The run's counts and, when a check counts too, its tally: every count goes to both. */
  private tallies(tally: TrafficTally | undefined): TrafficTally[] {
    return tally === undefined ? [this.total] : [this.total, tally];
  }

  /** Requests in flight now. */
  get inFlightNow(): number {
    return this.inFlight;
  }

  /** Task slots held now. */
  get tasksNow(): number {
    return this.tasksInFlight;
  }

  /**
   * Wall time so far during which some request waited on the pace or on Retry-After: the agent's
   * limits held the run back, so no check's budget runs meanwhile (a check waiting on another
   * check's paced scenario included).
   */
  heldBackMs(): number {
    return this.heldMs + (this.waiters > 0 ? Date.now() - this.waitingSince : 0);
  }

  private hold(tally: TrafficTally | undefined): () => void {
    const t0 = Date.now();
    if (this.waiters === 0) this.waitingSince = t0;
    this.waiters += 1;
    if (tally !== undefined) tally.waiting += 1;
    return () => {
      const now = Date.now();
      this.waiters -= 1;
      if (this.waiters === 0) this.heldMs += now - this.waitingSince;
      if (tally !== undefined) tally.waiting -= 1;
      for (const t of this.tallies(tally)) t.waitedMs += now - t0;
    };
  }

  /** Waits for the pace and a free slot, then counts the request as sent and in flight. */
  async admit(o: AdmitOptions): Promise<() => void> {
    const cap = this.settings.maxTurns;
    if (o.turn && cap !== null && cap !== undefined && this.total.agentTurns >= cap)
      throw new TurnBudgetError(cap);
    if (o.bypass === true) {
      this.sentAt.push(Date.now());
    } else {
      const turn = this.queue.then(() => this.awaitPace(o));
      // The next request queues behind this one whatever becomes of it.
      this.queue = turn.catch(() => undefined);
      await turn;
    }
    await this.awaitSlot(o);
    this.count(o);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.inFlight -= 1;
      this.slotWaiters.shift()?.();
    };
  }

  /**
   * An answer said "rate limited": every request waits until Retry-After (or the backoff of
   * `attempt`), this one included. Returns the wait, or throws when the agent asks too much of it.
   */
  async onRateLimited(
    retryAfterMs: number | undefined,
    attempt: number,
    o: Pick<AdmitOptions, 'tally' | 'signal'>,
  ): Promise<void> {
    for (const t of this.tallies(o.tally)) t.rateLimitedAnswers += 1;
    const backoff = BACKOFF_MS[attempt];
    const detail =
      retryAfterMs === undefined ? 'no Retry-After' : `Retry-After ${Math.ceil(retryAfterMs / 1000)} s`;
    if (backoff === undefined) throw new RateLimitedError(attempt + 1, detail);
    const waitMs = Math.min(retryAfterMs ?? backoff, MAX_RETRY_AFTER_MS);
    const until = Date.now() + waitMs;
    if (this.settings.deadlineAt !== undefined && until > this.settings.deadlineAt) {
      throw new RateLimitedError(attempt + 1, `${detail}, beyond the run's budget`);
    }
    this.pausedUntil = Math.max(this.pausedUntil, until);
    const done = this.hold(o.tally);
    try {
      await sleep(Math.max(0, this.pausedUntil - Date.now()), o.signal);
    } finally {
      done();
    }
  }

  async holdTask(o: TaskSlotOptions): Promise<() => void> {
    const cap = this.settings.taskCap;
    if (cap === null || cap === undefined) return () => undefined;
    const owner = o.owner ?? o.tally;
    if (this.tasksInFlight < cap && this.taskWaiters.length === 0) this.tasksInFlight += 1;
    else await this.awaitTaskSlot(cap, o, owner);
    for (const t of this.tallies(o.tally))
      t.maxTasksInFlight = Math.max(t.maxTasksInFlight, this.tasksInFlight);
    this.ownTask(owner, 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.ownTask(owner, -1);
      // Handed to the first waiter as it is: no newcomer takes it in between (first come, first served).
      const next = this.tasksInFlight > cap ? undefined : this.taskWaiters.shift();
      if (next === undefined) this.tasksInFlight -= 1;
      else next();
    };
  }

  private ownTask(owner: unknown, n: number): void {
    if (owner === undefined) return;
    const held = (this.taskOwners.get(owner) ?? 0) + n;
    if (held > 0) this.taskOwners.set(owner, held);
    else this.taskOwners.delete(owner);
  }

  notATurn(tally: TrafficTally | undefined): void {
    for (const t of this.tallies(tally)) t.agentTurns -= 1;
  }

  /** Records a task-creating request's answer time. */
  turnAnswered(ms: number, tally: TrafficTally | undefined): void {
    for (const t of this.tallies(tally)) t.turnLatencyMs.push(ms);
  }

  /**
   * What a slow agent adds to a turn: the 95th percentile of the last turns' answer times (0 before
   * the first). Deadlines and first-event budgets of task-creating requests grow by it, so an LLM
   * agent's seconds per turn never turn into a harness error.
   */
  turnAllowanceMs(): number {
    const recent = this.total.turnLatencyMs.slice(-RECENT_TURNS).sort((a, b) => a - b);
    if (recent.length === 0) return 0;
    return Math.round(recent[Math.min(recent.length - 1, Math.floor(recent.length * 0.95))]!);
  }

  private count(o: AdmitOptions): void {
    this.inFlight += 1;
    for (const t of this.tallies(o.tally)) {
      t.requests += 1;
      if (o.turn) t.agentTurns += 1;
      t.maxInFlight = Math.max(t.maxInFlight, this.inFlight);
    }
  }

  private async awaitPace({ signal, tally }: AdmitOptions): Promise<void> {
    for (;;) {
      const now = Date.now();
      let waitMs = this.pausedUntil - now;
      const pace = this.settings.pace;
      if (waitMs <= 0 && pace !== null) {
        const windowMs = pace.windowMs + WINDOW_SLACK_MS;
        while (this.head < this.sentAt.length && this.sentAt[this.head]! <= now - windowMs) this.head += 1;
        if (this.head > 1024) {
          this.sentAt = this.sentAt.slice(this.head);
          this.head = 0;
        }
        const counted = this.sentAt.length - this.head;
        waitMs = counted < paceCap(pace) ? 0 : this.sentAt[this.head]! + windowMs - now + 1;
      }
      if (waitMs <= 0) {
        // Counted when admitted, before the next queued request looks at the window.
        this.sentAt.push(now);
        return;
      }
      const deadline = this.settings.deadlineAt;
      if (deadline !== undefined && now + waitMs > deadline) throw new PaceBudgetError(waitMs, pace);
      const done = this.hold(tally);
      try {
        await sleep(waitMs, signal);
      } finally {
        done();
      }
    }
  }

  /** Queues for the next released task slot, within taskWaitMs and the check's signal. */
  private async awaitTaskSlot(
    cap: number,
    { signal, tally }: TaskSlotOptions,
    owner: unknown,
  ): Promise<void> {
    const done = this.hold(tally);
    try {
      await new Promise<void>((resolve, reject) => {
        if (signal?.aborted === true) {
          reject(signal.reason as Error);
          return;
        }
        const leave = (): void => {
          clearTimeout(timer);
          clearInterval(self);
          signal?.removeEventListener('abort', onAbort);
        };
        const grant = (): void => {
          leave();
          resolve();
        };
        const giveUp = (error: Error): void => {
          leave();
          this.taskWaiters = this.taskWaiters.filter((w) => w !== grant);
          reject(error);
        };
        const onAbort = (): void => giveUp(signal!.reason as Error);
        const waitMs = this.settings.taskWaitMs ?? TASK_SLOT_WAIT_MS;
        const timer = setTimeout(() => giveUp(new TaskSlotError(cap, waitMs)), waitMs);
        // Every slot held by this check itself, for a while: no one else can free them, go past the cap.
        const self = setInterval(() => {
          const own = owner === undefined ? 0 : (this.taskOwners.get(owner) ?? 0);
          if (own === 0 || own < this.tasksInFlight) return;
          this.taskWaiters = this.taskWaiters.filter((w) => w !== grant);
          this.tasksInFlight += 1;
          grant();
        }, this.settings.ownWaitMs ?? OWN_SLOTS_WAIT_MS);
        this.taskWaiters.push(grant);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    } finally {
      done();
    }
  }

  private async awaitSlot({ signal, tally }: AdmitOptions): Promise<void> {
    const cap = this.settings.concurrency;
    while (this.inFlight >= cap) {
      if (signal?.aborted === true) throw signal.reason as Error;
      const done = this.hold(tally);
      await new Promise<void>((resolve, reject) => {
        const wake = (): void => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        };
        const onAbort = (): void => {
          this.slotWaiters = this.slotWaiters.filter((w) => w !== wake);
          reject(signal!.reason as Error);
        };
        this.slotWaiters.push(wake);
        signal?.addEventListener('abort', onAbort, { once: true });
      }).finally(done);
    }
  }
}

/**
 * The Retry-After an answer asks for, in ms: the header (delay-seconds or an HTTP date, RFC 9110
 * 10.2.3), else C-04's `error.data.retryAfterSeconds`; undefined when neither says.
 */
export function retryAfterMs(
  headers: Record<string, string | string[] | undefined> | undefined,
  json: unknown,
): number | undefined {
  const raw = headers?.['retry-after'];
  const header = Array.isArray(raw) ? raw[0] : raw;
  if (header !== undefined) {
    if (/^\s*\d+\s*$/.test(header)) return Number(header) * 1000;
    const at = Date.parse(header);
    if (!Number.isNaN(at)) return Math.max(0, at - Date.now());
  }
  const data = errorOf(json)?.data;
  const seconds =
    typeof data === 'object' && data !== null
      ? (data as Record<string, unknown>).retryAfterSeconds
      : undefined;
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : undefined;
}

function errorOf(json: unknown): { code?: unknown; data?: unknown } | undefined {
  if (typeof json !== 'object' || json === null) return undefined;
  const error = (json as Record<string, unknown>).error;
  return typeof error === 'object' && error !== null
    ? (error as { code?: unknown; data?: unknown })
    : undefined;
}

/** HTTP 429, or C-04's error code in a JSON-RPC answer (whatever the status). */
export function isRateLimitedAnswer(status: number | undefined, json: unknown): boolean {
  return status === 429 || errorOf(json)?.code === ERROR_CODES.RATE_LIMITED;
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
