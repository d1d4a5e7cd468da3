// Time in a check: a pause between polls and the measured duration of some work. A pause is never
// evidence that nothing else arrives (a window the harness chose proves nothing about the agent), and
// every window a check waits in grows with the agent's turn latency (c.scaled), never a tuned constant.
import { setTimeout } from 'node:timers/promises';

/** Resolves after `ms`; with `{ ref: false }` the timer does not keep the process alive. */
export function sleep(ms: number, opts: { ref?: boolean } = {}): Promise<void> {
  return setTimeout(ms, undefined, opts);
}

/** Elapsed milliseconds of `work`, beside its value. */
export async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const t0 = performance.now();
  const value = await work();
  return { value, ms: Math.round(performance.now() - t0) };
}
