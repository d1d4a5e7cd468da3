// The pace below the card's when something in front of the agent throttles it unannounced: a 429 or
// a gateway's 503 to a request of the run (never to the rate-limit checks' own burst) halves the rate
// the run sends at (multiplicative decrease, from the rate it was sending at), and each answer that
// comes after lets it climb back additively (about one request per second more each second, as
// TCP's congestion avoidance), until it is back at the card's pace (or --rate) and no longer applies.
// The governor (governor.ts) holds each request, once it has a slot and just before it leaves, until
// its turn at the throttled pace and the end of any Retry-After pause.

/** The lowest rate a throttle lowers the run to: one request every ten seconds. */
const MIN_RATE_PER_S = 0.1;
// How far back the rate the run was sending at is measured when a throttle answers: a throttle's
// own window is a second or longer (RFC 6585 4 leaves it to the server; gateways count per second
// or per minute), so the last second's departures are what it refused.
const RECENT_MS = 1_000;

export interface ThrottleState {
  /** Requests per second the run may send now; undefined: not throttled (the card's pace alone). */
  ratePerS: number | undefined;
  /** Times the rate was lowered. */
  decreases: number;
  /** The lowest rate the run was lowered to (requests per second); undefined: never. */
  lowestPerS: number | undefined;
}

export class ThrottlePace {
  private rate: number | undefined;
  private decreases = 0;
  private lowest: number | undefined;
  /** Departures of the last RECENT_MS (epoch ms), oldest first. */
  private readonly recent: number[] = [];
  private lastAt = Number.NEGATIVE_INFINITY;
  /** A throttle answer before this (epoch ms) belongs to the episode that last lowered the rate. */
  private episodeEnds = Number.NEGATIVE_INFINITY;

  /** `ceilingPerS`: the card's pace (or --rate) in requests per second; undefined: none. */
  constructor(private readonly ceilingPerS: () => number | undefined) {}

  /**
   * A request about to leave at `now`: reserves its departure, at the throttled pace after the one
   * reserved before it and not before `notBefore` (a Retry-After pause), and returns the ms to wait
   * for it (0 when not throttled and not paused).
   */
  reserve(now: number, notBefore = 0): number {
    const gap = this.rate === undefined ? 0 : 1000 / this.rate;
    const at = Math.max(now, notBefore, this.rate === undefined ? now : this.lastAt + gap);
    this.lastAt = at;
    this.recent.push(at);
    this.trim(now);
    return at - now;
  }

  /**
   * Something in front of the agent refused a request at `now` (429, or a gateway's 503), asking to
   * wait until `pausedUntil`: the rate halves from what the run was sending at, once per episode
   * (answers to requests sent before the pause ends are of the same one).
   */
  throttled(now: number, pausedUntil: number): void {
    if (now < this.episodeEnds) return;
    this.trim(now);
    const sent = this.recent.filter((at) => at <= now).length;
    const sending = Math.max(sent * (1000 / RECENT_MS), MIN_RATE_PER_S);
    const from = Math.min(this.rate ?? sending, sending);
    this.rate = Math.max(MIN_RATE_PER_S, from / 2);
    this.decreases += 1;
    this.lowest = Math.min(this.lowest ?? this.rate, this.rate);
    this.episodeEnds = Math.max(now, pausedUntil);
  }

  /** An answer came (a request ended without a throttle): the rate climbs by one over itself. */
  answered(): void {
    if (this.rate === undefined) return;
    this.rate += 1 / this.rate;
    const ceiling = this.ceilingPerS();
    if (ceiling !== undefined && this.rate >= ceiling) this.rate = undefined;
  }

  state(): ThrottleState {
    return { ratePerS: this.rate, decreases: this.decreases, lowestPerS: this.lowest };
  }

  /** Departures within RECENT_MS before `now` (those reserved for later are not yet counted out). */
  private trim(now: number): void {
    while (this.recent.length > 0 && this.recent[0]! <= now - RECENT_MS) this.recent.shift();
  }
}
