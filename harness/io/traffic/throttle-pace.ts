// The pace below the card's when something in front of the agent throttles it unannounced: a 429 or
// a gateway's 503 to a request of the run (never to the rate-limit checks' own burst) halves the rate
// the run sends at (multiplicative decrease, from the rate it was sending at), and each answer that
// comes after lets it climb back additively (about one request per second more each second, as
// TCP's congestion avoidance; slower just below the rate a 429 last refused), until it is back at
// the card's pace (or --rate) and no longer applies.
// The governor (governor.ts) queues each request here, once it has a slot and just before it leaves,
// until its turn at the throttled pace and the end of any Retry-After pause. A follow-up on a task
// its check holds (`first`) queues ahead of the rest: the agent's system timeout (C-05) runs on that
// task, and the follow-up is what the check holds it for; the rate the run sends at stays the same.
import { nextIndex, type Lane } from './slots.ts';

/** The lowest rate a throttle lowers the run to: one request every ten seconds. */
const MIN_RATE_PER_S = 0.1;
// How far back the rate the run was sending at is measured when a throttle answers: a throttle's
// own window is a second or longer (RFC 6585 4 leaves it to the server; gateways count per second
// or per minute), so the last second's departures are what it refused.
const RECENT_MS = 1_000;
// Near the rate a throttle last refused (its limit is about there), the climb is ten times slower:
// each probe past that limit costs a Retry-After pause of the whole run, during which every task a
// check holds ages toward the agent's system timeout (C-05). Past that rate, the limit has moved: the
// climb is as fast as before.
const NEAR_REFUSED = 0.85;
const SLOW_CLIMB = 0.1;

export interface ThrottleState {
  /** Requests per second the run may send now; undefined: not throttled (the card's pace alone). */
  ratePerS: number | undefined;
  /** Times the rate was lowered. */
  decreases: number;
  /** The lowest rate the run was lowered to (requests per second); undefined: never. */
  lowestPerS: number | undefined;
  /** Requests let out ahead of others queued before them (follow-ups on a task their check holds). */
  firstLetOut: number;
}

/** A request queued for its turn. */
interface Waiter {
  first: Lane;
  go: () => void;
  /** Epoch ms after which its turn may not come (the run's budget); it is refused with `late`. */
  deadline: number;
  late: (waitMs: number) => void;
}

export interface TurnOptions {
  /** A follow-up on a task its check holds: ahead of every older request queued that is not. */
  first: Lane;
  signal?: AbortSignal | undefined;
  /** Epoch ms after which its turn may not come; a turn that would is refused with `refuse(waitMs)`. */
  deadline?: number | undefined;
  refuse: (waitMs: number) => Error;
}

export class ThrottlePace {
  private rate: number | undefined;
  private decreases = 0;
  private lowest: number | undefined;
  private firstLetOut = 0;
  /** Departures of the last RECENT_MS (epoch ms), oldest first. */
  private readonly recent: number[] = [];
  private lastAt = Number.NEGATIVE_INFINITY;
  /** The rate the run was sending at when a throttle last refused it for too many requests. */
  private refusedPerS: number | undefined;
  /** A throttle answer before this (epoch ms) belongs to the episode that last lowered the rate. */
  private episodeEnds = Number.NEGATIVE_INFINITY;
  /** Requests waiting for their turn, in the order they asked (nextIndex picks each turn's). */
  private readonly queue: Waiter[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;

  /**
   * `ceilingPerS`: the card's pace (or --rate) in requests per second; undefined: none.
   * `pauseEnds`: when the Retry-After pause ends (epoch ms; past: none), read at each turn.
   */
  constructor(
    private readonly ceilingPerS: () => number | undefined,
    private readonly pauseEnds: () => number = () => 0,
  ) {}

  /** Lets a request out at `now` when its turn is now (no one queued, no pause, the gap kept). */
  leaveNow(now: number): boolean {
    if (this.queue.length > 0 || this.nextAt(now) > now) return false;
    this.depart(now);
    return true;
  }

  /**
   * The ms a request asking at `now` would wait for its turn: behind every request queued, or for a
   * `first` one behind the other `first` ones only.
   */
  waitMs(now: number, first: boolean): number {
    const ahead = first ? this.queue.filter((w) => w.first()).length : this.queue.length;
    return this.nextAt(now) + ahead * this.gapMs() - now;
  }

  /** Queues a request until its turn; rejects with the signal's reason, or `refuse` past its deadline. */
  turn(o: TurnOptions): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const signal = o.signal;
      if (signal?.aborted === true) {
        reject(signal.reason as Error);
        return;
      }
      const leave = (): void => {
        const i = this.queue.indexOf(w);
        if (i >= 0) this.queue.splice(i, 1);
        signal?.removeEventListener('abort', onAbort);
      };
      const onAbort = (): void => {
        leave();
        reject(signal!.reason as Error);
      };
      const w: Waiter = {
        first: o.first,
        go: () => {
          leave();
          resolve();
        },
        deadline: o.deadline ?? Number.POSITIVE_INFINITY,
        late: (waitMs) => {
          leave();
          reject(o.refuse(waitMs));
        },
      };
      this.queue.push(w);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.pump();
    });
  }

  /**
   * Something in front of the agent refused a request at `now` (429, or a gateway's 503), asking to
   * wait until `pausedUntil`: the rate halves from what the run was sending at, once per episode
   * (answers to requests sent before the pause ends are of the same one). `tooMany`: a 429 (too
   * many requests, RFC 6585 4), whose rate the climb back approaches slowly; a 503 says nothing of it.
   */
  throttled(now: number, pausedUntil: number, tooMany = true): void {
    if (now < this.episodeEnds) return;
    this.trim(now);
    const sent = this.recent.filter((at) => at <= now).length;
    const sending = Math.max(sent * (1000 / RECENT_MS), MIN_RATE_PER_S);
    if (tooMany) this.refusedPerS = sending;
    const from = Math.min(this.rate ?? sending, sending);
    this.rate = Math.max(MIN_RATE_PER_S, from / 2);
    this.decreases += 1;
    this.lowest = Math.min(this.lowest ?? this.rate, this.rate);
    this.episodeEnds = Math.max(now, pausedUntil);
  }

  /**
   * An answer came (a request ended without a throttle): the rate climbs by one over itself, a tenth
   * of that just below the rate a throttle last refused.
   */
  answered(): void {
    if (this.rate === undefined) return;
    const refused = this.refusedPerS ?? Infinity;
    const near = this.rate >= NEAR_REFUSED * refused && this.rate < refused;
    this.rate += (near ? SLOW_CLIMB : 1) / this.rate;
    const ceiling = this.ceilingPerS();
    if (ceiling !== undefined && this.rate >= ceiling) this.rate = undefined;
    // The next turn may come sooner now.
    if (this.queue.length > 0) this.pump();
  }

  state(): ThrottleState {
    return {
      ratePerS: this.rate,
      decreases: this.decreases,
      lowestPerS: this.lowest,
      firstLetOut: this.firstLetOut,
    };
  }

  private gapMs(): number {
    return this.rate === undefined ? 0 : 1000 / this.rate;
  }

  /** When the next request may leave: after the pause, and a gap after the last one left. */
  private nextAt(now: number): number {
    return Math.max(now, this.pauseEnds(), this.lastAt + this.gapMs());
  }

  private depart(now: number): void {
    this.lastAt = now;
    this.recent.push(now);
    this.trim(now);
  }

  /** Lets out each queued request whose turn has come, then sleeps until the next one's. */
  private pump(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    for (;;) {
      if (this.queue.length === 0) return;
      const now = Date.now();
      const at = this.nextAt(now);
      if (at <= now) {
        const i = nextIndex(this.queue);
        if (i > 0) this.firstLetOut += 1;
        this.depart(now);
        this.queue[i]!.go();
        continue;
      }
      this.refuseLate(now, at);
      if (this.queue.length === 0) return;
      // Woken earlier by an answer (a faster pace); a pause or a lower pace begun meanwhile is read then.
      this.timer = setTimeout(() => this.pump(), at - now);
      return;
    }
  }

  /** Refuses now each queued request whose turn would come after its deadline, not at the deadline. */
  private refuseLate(now: number, nextAt: number): void {
    const gap = this.gapMs();
    const order = [...this.queue.filter((w) => w.first()), ...this.queue.filter((w) => !w.first())];
    const late = order.map((w, i) => ({ w, at: nextAt + i * gap })).filter(({ w, at }) => at > w.deadline);
    for (const { w, at } of late) w.late(at - now);
  }

  /** Departures within RECENT_MS before `now`. */
  private trim(now: number): void {
    while (this.recent.length > 0 && this.recent[0]! <= now - RECENT_MS) this.recent.shift();
  }
}
