// When the suites end: the paced deadline a run keeps inside its budget, and the watch that ends the
// suites at the budget (no request admitted, the checks under way get a grace, what never ran is
// cut) and waits no longer for checks that wait on an answer the target does not give.
import { interruptionOf, type Interruption } from '../../core/interrupt.ts';
import type { Collector } from './collector.ts';

// After the budget, running checks get this long (and the agent's turn allowance) to end: no request
// is admitted any more, and a check ends not-exercised once the target answered what it sent. A check
// still running then waits on an answer the target did not give: the runner stops waiting for vitest
// (closed in the background) and the run could not be done.
export const GRACE_MS = 5_000;
// What a paced run keeps of its budget for the rate-limit checks, which wait for a window to reset.
const RESERVE_MS = 75_000;
// What a paced run without them keeps: the checks under way end, late deliveries settle, the reports
// are written. At 60 requests/min the last 15 s of a 5-minute budget still let out the requests of
// the window before whose sends leave it then.
const REPORTS_RESERVE_MS = 15_000;

/**
 * No paced wait may end after this: the run ends by itself within its budget, leaving the rate-limit
 * checks (they run last, unpaced) and the reports their share.
 */
export function pacedDeadline(startedAt: number, budgetMs: number, rateLimitChecks: boolean): number {
  const reserve = rateLimitChecks
    ? Math.min(RESERVE_MS, budgetMs / 10)
    : Math.min(REPORTS_RESERVE_MS, budgetMs / 20);
  return startedAt + budgetMs - reserve;
}

/** What ended the suites before they finished: the run's budget, or a signal (core/interrupt.ts). */
export type RunEnd = { at: number } & ({ by: 'budget' } | { by: 'interrupt'; interruption: Interruption });

/**
 * Resolves when vitest finished, or at the end of the grace after the budget (or an interrupt) with
 * the checks that started before it and are still running (each waits on an answer the target did
 * not give: a check started after it sends nothing). After the end (`onEnd` is told), no phase
 * starts, no request is admitted, and a check that starts ends at once not-exercised; once every check
 * under way at the end has reported, vitest is cancelled (its cancel would drop the results of checks
 * still running, so not before), skipping what is left. At the end of the grace, vitest is cancelled
 * and closed in the background.
 */
export async function budgeted(
  run: Promise<unknown>,
  endsAt: number,
  graceMs: () => number,
  collector: Pick<Collector, 'unfinished' | 'cancel' | 'abandon'>,
  onEnd: (end: RunEnd, graceMs: number) => void,
  /**
   * Requests to the target not yet answered, run-wide (the runner's governor), read at the end of
   * the grace; undefined: the runner cannot tell (one worker keeps its own count).
   */
  unanswered: () => number | undefined = () => undefined,
  /** Aborted by SIGINT or SIGTERM: the run ends now, as at its budget. */
  interrupt?: AbortSignal,
): Promise<Array<{ name: string; file: string }>> {
  let budgetTimer: NodeJS.Timeout | undefined;
  let graceTimer: NodeJS.Timeout | undefined;
  let settleTimer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const spent = new Promise<Array<{ name: string; file: string }>>((resolve) => {
    let ended = false;
    const end = (how: RunEnd): void => {
      if (ended) return;
      ended = true;
      clearTimeout(budgetTimer);
      const grace = graceMs();
      onEnd(how, grace);
      const settle = (): void => {
        if (collector.unfinished(how.at).length === 0) collector.cancel();
        else settleTimer = setTimeout(settle, SETTLE_POLL_MS);
      };
      settleTimer = setTimeout(settle, SETTLE_AFTER_MS);
      graceTimer = setTimeout(() => {
        clearTimeout(settleTimer);
        // A check still running while no request of the run waits on the target is not waiting
        // on the target (a sleep, a lock, a wait of its own that outlasted the grace): it is cut by
        // the budget like one that never ran, and the run is no run that could not be done.
        const waiting = unanswered() !== 0;
        const unfinished = waiting ? collector.unfinished(how.at) : [];
        collector.cancel();
        collector.abandon();
        resolve(unfinished);
      }, grace);
    };
    budgetTimer = setTimeout(() => end({ by: 'budget', at: endsAt }), Math.max(0, endsAt - Date.now()));
    onAbort = () => {
      const interruption = interruptionOf(interrupt);
      if (interruption !== undefined) end({ by: 'interrupt', interruption, at: Date.now() });
    };
    if (interrupt?.aborted === true) onAbort();
    else interrupt?.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([run.then(() => []), spent]);
  } finally {
    if (onAbort !== undefined) interrupt?.removeEventListener('abort', onAbort);
    clearTimeout(budgetTimer);
    clearTimeout(graceTimer);
    clearTimeout(settleTimer);
  }
}

// How often the runner looks, after the budget, whether the checks under way at it have all reported;
// first after a second, for the news of a check that started just before the budget to reach the
// runner (vitest sends its workers' news every 100 ms, later on a loaded machine).
const SETTLE_POLL_MS = 100;
const SETTLE_AFTER_MS = 1_000;
