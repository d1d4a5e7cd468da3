// The agent's pace: at most so many requests in a sliding window, as its card announces
// (limits.requestsPerMinute, spec 8, over C-04's window) or as --rate gives. The window counts every
// request when it leaves; a rate-limited answer pauses the whole window until Retry-After.

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

/**
 * The run's sliding window: requests are let out one after another, each when the window (and a
 * pause after a rate-limited answer) has room for it.
 */
export class PaceWindow {
  private sentAt: number[] = [];
  private head = 0;
  private queue: Promise<void> = Promise.resolve();
  private pausedUntil = 0;

  constructor(private readonly settings: PaceSettings) {}

  /**
   * Waits for this request's turn in the window, then counts it as sent. Requests queue in the order
   * they ask. `wait` sleeps (and accounts the wait); a wait past the deadline throws PaceBudgetError.
   */
  next(wait: (ms: number) => Promise<void>): Promise<void> {
    const turn = this.queue.then(() => this.awaitRoom(wait));
    // The next request queues behind this one whatever becomes of it.
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  /** A request sent at once whatever the pace (the rate-limit checks, C-04): still counted in the window. */
  sentNow(): void {
    this.sentAt.push(Date.now());
  }

  /** Holds every request until `until` (an answer's Retry-After); returns the ms left of the pause. */
  pauseUntil(until: number): number {
    this.pausedUntil = Math.max(this.pausedUntil, until);
    return Math.max(0, this.pausedUntil - Date.now());
  }

  private async awaitRoom(wait: (ms: number) => Promise<void>): Promise<void> {
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
      await wait(waitMs);
    }
  }
}

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
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
