// The event-loop lag sampler (harness/io/traffic/loop-lag.ts): a stamp taken right after the loop was held up
// is known to be late by about the hold-up; before the sampler runs, or after it stops, it says 0.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { LoopLag } from '../../../harness/io/traffic/loop-lag.ts';

/** Holds this process's event loop, as a loaded machine or a busy worker does. */
function holdUp(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // busy
  }
}

let lag: LoopLag | undefined;
afterEach(() => lag?.stop());

describe('LoopLag', () => {
  it('bounds how late a stamp taken after a hold-up is', async () => {
    lag = new LoopLag().start();
    await sleep(30);
    holdUp(200);
    await sleep(0);
    const stamp = performance.now();
    expect(lag.lagBefore(stamp)).toBeGreaterThanOrEqual(180);
  });

  it('forgets a hold-up that ended well before the stamp', async () => {
    lag = new LoopLag().start();
    await sleep(30);
    holdUp(200);
    await sleep(0);
    const hold = lag.lagBefore(performance.now());
    await sleep(400);
    // Timers on a loaded test runner may run late, but not by as much as the hold-up.
    expect(lag.lagBefore(performance.now())).toBeLessThan(hold);
  });

  it('says 0 when it is not running', () => {
    lag = new LoopLag();
    expect(lag.lagBefore(performance.now())).toBe(0);
    lag.start();
    lag.stop();
    expect(lag.lagBefore(performance.now())).toBe(0);
  });
});
