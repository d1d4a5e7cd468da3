// The rate window filled ahead of the rate-limit burst (spec 8, C-04). The burst must put more than
// limits.requestsPerMinute into one 60 s window. The run's own requests already count there, and the
// burst sends the rest at --concurrency, one round trip after another, at the end of the run when
// nothing else runs: at 6,000 a minute some 3,500 card requests, seconds behind a 40 ms network.
// The runner sends part of them earlier instead, while the other files leave request slots idle, where
// they cost no wall time. The fill keeps clear of the checks:
// - it sends only while a quarter of the request slots are idle and no request waits for one, from
//   half the slots at most;
// - it leaves the pace room for what the plan says the checks have still to send (the plan's estimate
//   runs high), and a tenth of the pace besides, so no check waits on the pace for it;
// - it runs only when the burst will be sent (a card of at most BURST_MAX_LIMIT a minute), the pace
//   is the card's own (under --rate the run keeps a pace below the agent's, and a burst of its own
//   would crowd it) and the plan expects the run before the burst to end well inside one window (else
//   the filled requests leave the window before the burst);
// - it stops at the first answer that is not a card (a refusal included: the agent's window is not the
//   card's, and the checks must not pay for it), when the run's budget ends, and before the burst.
// It changes no verdict: the burst still sends up to limit + 20 requests of its own before it says the
// limit was not enforced; it only reaches the refusal sooner.
import { BURST_MAX_LIMIT, sendBurstRequest } from '../check/burst-request.ts';
import { RunBudgetError, type Governor } from '../io/traffic/governor.ts';
import { paceCap, requestsPerMinute, sleep, type Pace } from '../io/traffic/pace.ts';
import { newTally, type TrafficTally } from '../io/traffic/tallies.ts';
import { isRateLimitedAnswer } from '../io/traffic/rate-limited.ts';
import { createTargetClient, type TargetClientOptions } from '../io/target/target-client.ts';
import type { WindowFillReport } from '../../core/types.ts';
import type { RunPlan } from './plan.ts';

/** The run before the burst, as the plan estimates it, must end within this: the fill is still in the window. */
export const FILL_HORIZON_MS = 50_000;
/** Below this many requests a fill saves less than a few round trips of the burst: none is sent. */
const MIN_FILL = 64;
/** How often an idle lane looks again for idle slots. */
const IDLE_POLL_MS = 10;

export interface FillPlanInput {
  /** The pace the run keeps (FieldSettings.pace, set from the card or --rate). */
  pace: Pace | null;
  plan: RunPlan | undefined;
  /** The selection runs a burst (a check of a file that runs last, with a burst sample). */
  burst: boolean;
  /** Requests in the pace's window when the fill would start (the probe's). */
  inWindow: number;
}

/** What the fill may send at most, and what it leaves the checks; `requests` 0: no fill. */
export interface FillGoal {
  requests: number;
  /** The checks' requests still to come, as the plan estimates them (before the fill starts). */
  ahead: number;
  /** Room of the pace the fill never takes, beside `ahead`. */
  margin: number;
  cap: number;
}

export function windowFillGoal(i: FillPlanInput): FillGoal {
  const none = { requests: 0, ahead: 0, margin: 0, cap: 0 };
  const { pace, plan } = i;
  if (!i.burst || pace === null || pace.source !== 'card' || plan === undefined) return none;
  // Above it the burst is not sent (not-exercised): nothing to fill for.
  if ((requestsPerMinute(pace) ?? Infinity) > BURST_MAX_LIMIT) return none;
  if (plan.fits !== 'everything' || plan.ahead.ms > FILL_HORIZON_MS) return none;
  const cap = paceCap(pace);
  const margin = Math.ceil(cap / 10);
  const requests = cap - plan.ahead.requests - margin - i.inWindow;
  return requests < MIN_FILL ? none : { requests, ahead: plan.ahead.requests, margin, cap };
}

export interface WindowFill {
  /** Ends the fill (its requests in flight are answered or aborted first) and says what it sent. */
  stop(): Promise<WindowFillReport>;
  /** The fill's requests, for the run's traffic. */
  tally: TrafficTally;
  /** Settles when the fill has ended (its goal, a refusal, the budget) and no request of it is in flight. */
  done: Promise<void>;
}

export interface FillOptions {
  goal: FillGoal;
  governor: Governor;
  /** The target, its credentials and network settings, as the checks' clients have them (targetOptions). */
  target: Omit<TargetClientOptions, 'governor' | 'bypassPacing' | 'tally' | 'maxExchanges'>;
}

/** Starts the fill; `stop()` before the burst. */
export function startWindowFill(o: FillOptions): WindowFill {
  const { goal, governor } = o;
  const tally = newTally();
  const client = createTargetClient({
    ...o.target,
    governor,
    bypassPacing: true,
    tally,
    maxExchanges: 1,
    recordBodyChars: 0,
  });
  const t0 = Date.now();
  const report: WindowFillReport = { requests: 0, served: 0, goal: goal.requests, ms: 0, ended: 'goal' };
  let ended: WindowFillReport['ended'] | undefined;
  const end = (why: WindowFillReport['ended']): void => {
    if (ended !== undefined) return;
    ended = why;
    report.ended = why;
    report.ms = Date.now() - t0;
  };
  const concurrency = governor.settings.concurrency;
  const headroom = Math.ceil(concurrency / 4);
  // Whether the pace still has room for one more beside what the checks have to send.
  const roomLeft = (): boolean => {
    const checksSent = governor.total.requests - report.requests;
    const ahead = Math.max(0, goal.ahead - checksSent);
    return governor.inPaceWindow() + ahead + goal.margin < goal.cap;
  };
  const lane = async (): Promise<void> => {
    while (ended === undefined) {
      if (report.requests >= goal.requests || !roomLeft()) return end('goal');
      if (governor.idleSlots < headroom) {
        await sleep(IDLE_POLL_MS);
        continue;
      }
      report.requests += 1;
      let ex;
      try {
        ex = await sendBurstRequest(client);
      } catch (e) {
        return end(e instanceof RunBudgetError ? 'budget' : 'not-served');
      }
      if (isRateLimitedAnswer(ex.response?.status, ex.response?.json)) return end('refused');
      const json = ex.response?.json as { result?: unknown } | undefined;
      // After stop(), an aborted request ends nothing more: the fill has ended already.
      if (ex.response?.status !== 200 || json?.result === undefined) return end('not-served');
      report.served += 1;
    }
  };
  const lanes = Promise.all(Array.from({ length: Math.max(1, Math.floor(concurrency / 2)) }, lane));
  return {
    tally,
    done: lanes.then(() => undefined),
    stop: async () => {
      end('burst');
      await client.close();
      await lanes;
      return report;
    },
  };
}
