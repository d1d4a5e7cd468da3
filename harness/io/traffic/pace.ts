// The agent's pace: at most so many requests in a sliding window, as its card announces
// (limits.requestsPerMinute, spec 8, over C-04's window) or as --rate gives. The window counts every
// request when it leaves; a rate-limited answer pauses the whole window until Retry-After, and one
// from something in front of the agent lowers the pace below the card's (throttle-pace.ts).
import { GovernorStop } from './governor-stop.ts';
import { ThrottlePace } from './throttle-pace.ts';
import type { Profile } from '../../../core/types.ts';

/** A pace: at most `limit` requests in any `windowMs`. */
export interface Pace {
  limit: number;
  windowMs: number;
  source: 'card' | 'option';
}

/** What the window reads of the run's settings (the governor's, shared: later changes count). */
export interface PaceSettings {
  /** Null: no pacing (only answers that say "rate limited" slow the run down). */
  pace: Pace | null;
  /** Epoch ms after which no wait may end (the run's budget); undefined: none. */
  deadlineAt?: number | undefined;
  /** The run's profile: a PaceBudgetError names only the options that would help (paceBudgetOptions). */
  profile?: Profile | undefined;
}

/**
 * The options that would give a paced run room for what its budget left out: more time, a higher
 * pace, and (unless the run is already in it) the smoke profile, whose properties spend fewer requests.
 */
export function paceBudgetOptions(profile?: Profile): string {
  return profile === 'smoke' ? '--budget-ms or --rate' : '--budget-ms, --rate or --profile smoke';
}

/** The run's budget does not leave room for a wait on the pace: what is left is not exercised. */
export class PaceBudgetError extends GovernorStop {
  constructor(waitMs: number, pace: Pace | null, profile?: Profile) {
    const at = pace === null ? 'the rate limit' : describePace(pace);
    const smoke = profile === 'smoke' ? '' : ', --profile smoke';
    super(
      `rate budget spent: the next request would wait ${Math.ceil(waitMs / 1000)} s on ${at} beyond the run's budget (a larger --budget-ms${smoke} or a higher --rate would exercise it)`,
    );
    this.name = 'PaceBudgetError';
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

/** Requests the run lets into one window of the pace. */
export function paceCap(p: Pace): number {
  return Math.max(1, Math.floor(p.limit * PACE_SHARE));
}

/** The mean interval between the requests the run lets out under this pace (its window over its cap). */
export function paceIntervalMs(p: Pace): number {
  return (p.windowMs + WINDOW_SLACK_MS) / paceCap(p);
}

// How long the waits of the past count without a pace (a Retry-After pause): about a window of the
// paces cards announce (per minute).
const RECENT_WAITS_MS = 60_000;

/**
 * The run's sliding window: requests are let out one after another, each when the window (and a
 * pause after a rate-limited answer) has room for it.
 */
export class PaceWindow {
  private sentAt: number[] = [];
  private head = 0;
  private queue: Promise<void> = Promise.resolve();
  private pausedUntil = 0;
  /**
   * Each request still queued (first in, first out, as the queue): when it asked, and the count of
   * the window's sleeps before then (its wait counts only if the window slept while it was queued: a
   * request merely handed along the queue did not wait on the pace).
   */
  private readonly asking: Array<{ at: number; sleeps: number }> = [];
  /** Sleeps of the window begun so far, and whether one is in progress. */
  private sleeps = 0;
  private sleeping = false;
  /** Waits of the last window, as [let out at, ms waited]; each wait longer than every later one. */
  private readonly longest: Array<[number, number]> = [];
  /** The pace below the card's after throttles the card did not announce (AIMD). */
  readonly throttle: ThrottlePace;

  constructor(private readonly settings: PaceSettings) {
    this.throttle = new ThrottlePace(
      () => {
        const pace = this.settings.pace;
        return pace === null ? undefined : 1000 / paceIntervalMs(pace);
      },
      () => this.pausedUntil,
    );
  }

  /**
   * Waits for this request's turn in the window, then counts it as sent. Requests queue in the order
   * they ask. `wait` sleeps (and accounts the wait); a wait past the deadline throws PaceBudgetError.
   * `keep`: the request waits until the window also has room for that many more, and counts them now
   * too: the follow-ups that must reach the agent while what this request starts still runs, sent as
   * prepaid() (at most the window's cap in all).
   */
  next(wait: (ms: number) => Promise<void>, keep = 0): Promise<void> {
    // A sleep in progress when it asks holds it too.
    this.asking.push({ at: Date.now(), sleeps: this.sleeping ? this.sleeps - 1 : this.sleeps });
    const turn = this.queue.then(() => this.awaitRoom(wait, keep));
    // The next request queues behind this one whatever becomes of it; requests leave the queue in
    // the order they asked, so the one leaving is the first of `asking`.
    this.queue = turn.then(
      () => this.left(true),
      () => this.left(false),
    );
    return turn;
  }

  /**
   * The longest a request has waited to be let out (the pace, a Retry-After pause) within the last
   * window of the pace, or is waiting now: under a window the run keeps full, a request may wait
   * about that long again, whichever moment it asks. 0 when nothing waited.
   */
  recentWaitMs(now = Date.now()): number {
    const pace = this.settings.pace;
    const recent = pace === null ? RECENT_WAITS_MS : pace.windowMs + WINDOW_SLACK_MS;
    while (this.longest.length > 0 && this.longest[0]![0] <= now - recent) this.longest.shift();
    return Math.max(this.longest[0]?.[1] ?? 0, this.waitedMs(this.asking[0], now));
  }

  /** How long a queued request has waited on the pace so far (0 if the window never slept since it asked). */
  private waitedMs(asked: { at: number; sleeps: number } | undefined, now: number): number {
    return asked === undefined || asked.sleeps === this.sleeps ? 0 : now - asked.at;
  }

  /** A request left the queue (`sent`: let out; else refused or aborted): its wait counts if sent. */
  private left(sent: boolean): void {
    const asked = this.asking.shift();
    const now = Date.now();
    const waited = this.waitedMs(asked, now);
    if (!sent || waited === 0) return;
    // Only the longest waits matter: one shorter than a later one never is the longest again.
    while (this.longest.length > 0 && this.longest[this.longest.length - 1]![1] <= waited) this.longest.pop();
    this.longest.push([now, waited]);
  }

  /**
   * Requests let out within the pace's window (and its slack) until `now`; without a pace, within
   * the last minute.
   */
  counted(now = Date.now()): number {
    const pace = this.settings.pace;
    return this.countedAt(now, pace === null ? RECENT_WAITS_MS : pace.windowMs + WINDOW_SLACK_MS);
  }

  private countedAt(now: number, windowMs: number): number {
    while (this.head < this.sentAt.length && this.sentAt[this.head]! <= now - windowMs) this.head += 1;
    if (this.head > 1024) {
      this.sentAt = this.sentAt.slice(this.head);
      this.head = 0;
    }
    return this.sentAt.length - this.head;
  }

  /** A request sent at once whatever the pace (the rate-limit checks, C-04): still counted in the window. */
  sentNow(): void {
    this.sentAt.push(Date.now());
  }

  /**
   * A request whose place in the window an earlier request kept (next's `keep`): it queues behind no
   * one and is not counted again; only a Retry-After pause holds it.
   */
  async prepaid(wait: (ms: number) => Promise<void>): Promise<void> {
    const now = Date.now();
    const waitMs = this.pausedUntil - now;
    if (waitMs <= 0) return;
    this.refuseBeyondDeadline(now, waitMs);
    await wait(waitMs);
  }

  /** A wait that would end after the run's deadline is refused: what is left is not exercised. */
  private refuseBeyondDeadline(now: number, waitMs: number): void {
    const deadline = this.settings.deadlineAt;
    if (deadline !== undefined && now + waitMs > deadline)
      throw new PaceBudgetError(waitMs, this.settings.pace, this.settings.profile);
  }

  /** When the Retry-After pause ends (epoch ms; past: none). */
  get pauseEnds(): number {
    return this.pausedUntil;
  }

  /** Holds every request until `until` (an answer's Retry-After); returns the ms left of the pause. */
  pauseUntil(until: number): number {
    this.pausedUntil = Math.max(this.pausedUntil, until);
    return Math.max(0, this.pausedUntil - Date.now());
  }

  private async awaitRoom(wait: (ms: number) => Promise<void>, keep: number): Promise<void> {
    for (;;) {
      const now = Date.now();
      let waitMs = this.pausedUntil - now;
      const pace = this.settings.pace;
      // This request and the ones it keeps room for.
      const room = pace === null ? 1 : Math.min(1 + Math.max(0, Math.floor(keep)), paceCap(pace));
      if (waitMs <= 0 && pace !== null) {
        const windowMs = pace.windowMs + WINDOW_SLACK_MS;
        // Room for `room` once the oldest `counted + room - cap` sends have left the window.
        const over = this.countedAt(now, windowMs) + room - paceCap(pace);
        waitMs = over <= 0 ? 0 : this.sentAt[this.head + over - 1]! + windowMs - now + 1;
      }
      if (waitMs <= 0) {
        // Counted when admitted, before the next queued request looks at the window.
        for (let i = 0; i < room; i += 1) this.sentAt.push(now);
        return;
      }
      this.refuseBeyondDeadline(now, waitMs);
      this.sleeps += 1;
      this.sleeping = true;
      try {
        await wait(waitMs);
      } finally {
        this.sleeping = false;
      }
    }
  }
}

/**
 * Resolves after `ms`, or rejects with the signal's reason when it aborts first. On the global timer,
 * not node:timers/promises: the governor's pace tests drive this wait with a fake clock, which cannot
 * reach the promise timers.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
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
