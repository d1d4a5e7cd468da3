// JSON-RPC requests as the suites write them by hand (spec 2.1, 4.8): a fresh request id, and the
// method whose params are optional and that every agent serves, the suites' cheapest valid call.
import { randomUUID } from 'node:crypto';

export { basePathOf } from '../../harness/check/index.ts';

/** agent/authenticatedExtendedCard (spec 4.8): answered without a task, params optional. */
export const CARD = 'agent/authenticatedExtendedCard';

/** A request id no other request of the run uses. */
export function requestId(): string {
  return `conf-${randomUUID()}`;
}
