// requestsPerMinute enforcement (spec 8, C-04): a sliding 60 s window per agent, counted across
// credentials. Rejected requests are not counted, so waiting Retry-After seconds always admits.

export const WINDOW_MS = 60_000;

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** A ring buffer of the admission times inside the window: O(1) per request, `limit` numbers of memory. */
export class SlidingWindowLimiter {
  private readonly times: Float64Array;
  private head = 0;
  private count = 0;

  constructor(readonly limit: number) {
    this.times = new Float64Array(limit);
  }

  take(now: number = Date.now()): RateDecision {
    while (this.count > 0 && (this.times[this.head] as number) <= now - WINDOW_MS) {
      this.head = (this.head + 1) % this.limit;
      this.count -= 1;
    }
    if (this.count >= this.limit) {
      const oldest = this.times[this.head] as number;
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((oldest + WINDOW_MS - now) / 1000)) };
    }
    this.times[(this.head + this.count) % this.limit] = now;
    this.count += 1;
    return { allowed: true };
  }
}
