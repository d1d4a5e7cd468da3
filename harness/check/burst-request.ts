// The request the rate-limit checks repeat to put more than limits.requestsPerMinute into one 60 s
// window (spec 8, C-04; suites/08-limits/rate-limit.test.ts), and the one the runner sends ahead of
// them while the run's other files leave request slots idle (harness/runner/window-fill.ts): a card
// request, which every agent answers alike, creates no task and costs no agent turn.
import type { Exchange } from '../../core/evidence.ts';
import type { TargetClient } from '../io/target/target-client.ts';

/** C-04's request budget for the burst: a larger limit cannot be reached in a run's time (not-exercised). */
export const BURST_MAX_LIMIT = 6_000;

export function sendBurstRequest(client: TargetClient): Promise<Exchange> {
  return client.rpc('agent/authenticatedExtendedCard', { includeCapabilities: false });
}
