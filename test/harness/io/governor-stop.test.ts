// The governor's stops (io/traffic/governor-stop.ts): one base class, so "is this a stop" is one
// instanceof; and one list, GOVERNOR_STOPS, from which the worker link rebuilds each refusal of the
// runner's governor in the worker with its own class and message.
import { describe, expect, it } from 'vitest';
import { FileLock, fileLockCalls } from '../../../harness/runner/file-lock.ts';
import { GOVERNOR_STOPS, Governor, RunBudgetError } from '../../../harness/io/traffic/governor.ts';
import type { GovernorStop } from '../../../harness/io/traffic/governor-stop.ts';
import { isGovernorStop } from '../../../harness/io/traffic/governor-stop.ts';
import { PaceBudgetError } from '../../../harness/io/traffic/pace.ts';
import { RateLimitedError } from '../../../harness/io/traffic/rate-limited.ts';
import { TaskSlotError } from '../../../harness/io/traffic/slots.ts';
import { TurnBudgetError } from '../../../harness/io/traffic/tallies.ts';
import { LinkError } from '../../../harness/io/links/link-protocol.ts';
import { RemoteGovernor, serveWorkerLink } from '../../../harness/io/links/worker-link.ts';

// One of each stop, as the governor throws it.
const STOPS: GovernorStop[] = [
  new PaceBudgetError(61_000, { limit: 60, windowMs: 60_000, source: 'card' }),
  new TurnBudgetError(40),
  new RunBudgetError(),
  new RateLimitedError(6, 'HTTP 429'),
  new TaskSlotError(2, 120_000),
];

describe("the governor's stops", () => {
  it('are every class of GOVERNOR_STOPS, each a GovernorStop, and nothing else is one', () => {
    expect(new Set(STOPS.map((s) => s.constructor))).toEqual(new Set(GOVERNOR_STOPS));
    for (const stop of STOPS) expect(isGovernorStop(stop)).toBe(true);
    expect(isGovernorStop(new Error('no answer'))).toBe(false);
    expect(isGovernorStop(new LinkError('bad body'))).toBe(false);
  });

  it('cross the worker link as their own class, with their message', async () => {
    for (const stop of STOPS) {
      const governor = new Governor({ pace: null, concurrency: 1 });
      governor.admit = () => Promise.reject(stop);
      const link = await serveWorkerLink(governor, fileLockCalls(new FileLock()));
      try {
        const refused = await new RemoteGovernor(link.url).admit({ turn: false }).catch((e: unknown) => e);
        expect(refused).toBeInstanceOf(stop.constructor);
        expect(isGovernorStop(refused)).toBe(true);
        expect(refused).toMatchObject({ name: stop.name, message: stop.message });
      } finally {
        await link.close();
      }
    }
  });
});
