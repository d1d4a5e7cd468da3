// The worker's side of the suite-file lock (the runner's side: harness/runner/file-lock.ts): a test
// holds the lock over the worker link, shared or exclusive to its file, and a long check yields it
// between its steps to a file that must run alone.
import type { WorkerLinkClient } from './worker-link.ts';

/** A test's hold on the suite-file lock (holdFileLock). */
export interface FileHold {
  /**
   * Between the independent steps of a long check (a property's generated cases): when a file that
   * runs alone waits for the lock, lets it run first, then holds the lock again. A shared hold asks at
   * most every YIELD_EVERY_MS; an exclusive one has nothing to yield to.
   */
  yield(): Promise<void>;
  release(): Promise<void>;
}

// How often a shared hold asks whether an exclusive file waits: rarely enough to cost nothing beside
// a property's cases, often enough that a slot-filling check never waits for a whole property.
const YIELD_EVERY_MS = 200;

/** Holds the suite-file lock for one test, through the worker link: shared, or exclusive to its file. */
export async function holdFileLock(
  link: WorkerLinkClient,
  exclusive: string | null,
  /** Ends the wait for the lock (a grant that never reaches its worker is given back by the runner). */
  signal?: AbortSignal,
): Promise<FileHold> {
  const { hold } = await link.call('lock', { exclusive }, signal);
  // Yields and the release run one after another: a release never overtakes a yield still waiting
  // to hold the lock again (it would release a hold not yet regained).
  let last: Promise<unknown> = Promise.resolve();
  const inTurn = (op: () => Promise<unknown>): Promise<void> => {
    last = last.then(op, op);
    return last.then(() => undefined);
  };
  let yieldedAt = Date.now();
  return {
    yield: () => {
      if (exclusive !== null || Date.now() - yieldedAt < YIELD_EVERY_MS) return Promise.resolve();
      // A yield that could not be made leaves the hold as it was: the check goes on.
      return inTurn(async () => {
        await link.call('yield', { hold }).catch(() => undefined);
        yieldedAt = Date.now();
      });
    },
    release: () => inTurn(() => link.callUntilAnswered('unlock', { hold })),
  };
}
