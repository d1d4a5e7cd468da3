// How late this process runs its callbacks: a timer every INTERVAL_MS notes how far past its time it
// fired. A time a handler stamps (a webhook attempt's arrival) is late by as much as the loop was held
// up when the bytes came in, which the tick that fires first after such a hold-up measures (timers
// run before the I/O callbacks of the same turn). A timing check adds this bound to its tolerance, so
// it never grades the harness's own scheduling on a loaded machine as the agent being late.

const INTERVAL_MS = 10;
/** A hold-up ended this long before a stamp still counts against it (one loop turn, generously). */
const LOOKBACK_MS = 100;
/** Ticks this much late or less are not kept (timer granularity). */
const NOISE_MS = 2;
const KEEP_MS = 10_000;

export class LoopLag {
  private readonly late: Array<{ at: number; ms: number }> = [];
  private timer: NodeJS.Timeout | undefined;
  private due = 0;

  start(): this {
    if (this.timer !== undefined) return this;
    this.due = performance.now() + INTERVAL_MS;
    this.timer = setInterval(() => this.tick(), INTERVAL_MS);
    this.timer.unref();
    return this;
  }

  stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }

  /**
   * Milliseconds by which a stamp taken at `at` (performance.now()) may follow the event it stamps:
   * the longest hold-up measured in the LOOKBACK_MS before it, plus one interval (a hold-up shorter
   * than the interval can fall between two ticks). 0 when the sampler was not running.
   */
  lagBefore(at: number): number {
    if (this.timer === undefined) return 0;
    let worst = 0;
    for (const s of this.late) if (s.at <= at && s.at >= at - LOOKBACK_MS) worst = Math.max(worst, s.ms);
    return Math.round(worst + INTERVAL_MS);
  }

  private tick(): void {
    const now = performance.now();
    const ms = now - this.due;
    // setInterval re-arms from when the callback runs: the next tick is due an interval from now.
    this.due = now + INTERVAL_MS;
    if (ms > NOISE_MS) this.late.push({ at: now, ms });
    while (this.late.length > 0 && this.late[0]!.at < now - KEEP_MS) this.late.shift();
  }
}
