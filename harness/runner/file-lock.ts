// The suite-file lock, when suite files run in several workers: files that fill the agent's task
// slots or trip its rate limit (per-agent limits, C-04, C-21) run alone, every other test shares the
// lock. The runner holds it (FileLock) and serves it over the worker link (harness/io/links/worker-link.ts); a test
// holds it through holdFileLock().
import type { WorkerCallHandlers, WorkerLinkClient } from '../io/links/worker-link.ts';

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

/** Test holders: any number of shared ones, or the tests of one exclusive file. */
export class FileLock {
  private shared = 0;
  private owner: string | null = null;
  private owned = 0;
  private queue: Array<{ key: string | null; grant: () => void }> = [];

  acquire(key: string | null): Promise<void> {
    return new Promise((grant) => {
      // The exclusive file already holding the lock lets its own concurrent tests in at once.
      if (key !== null && this.owner === key) {
        this.owned += 1;
        grant();
        return;
      }
      this.queue.push({ key, grant });
      this.pump();
    });
  }

  /**
   * A shared holder lets a waiting exclusive file in first, then holds the lock again; with none
   * waiting it keeps its hold.
   */
  async yieldShared(): Promise<void> {
    if (!this.queue.some((q) => q.key !== null)) return;
    this.release(null);
    await this.acquire(null);
  }

  release(key: string | null): void {
    if (key === null) this.shared -= 1;
    else if ((this.owned -= 1) === 0) this.owner = null;
    this.pump();
  }

  private pump(): void {
    for (;;) {
      const next = this.queue[0];
      if (next === undefined) return;
      if (next.key === null ? this.owner !== null : this.shared > 0 || this.owner !== null) return;
      this.queue.shift();
      if (next.key === null) this.shared += 1;
      else {
        this.owner = next.key;
        this.owned = 1;
      }
      next.grant();
    }
  }
}

/**
 * The lock's calls of the worker link. Each grant is a numbered hold that ends once: by its unlock,
 * sent again until answered (a lost unlock would keep every file that runs alone waiting), or, when
 * the worker is gone before a grant reaches it, given back by the runner.
 */
export function fileLockCalls(lock: FileLock): Pick<WorkerCallHandlers, 'lock' | 'yield' | 'unlock'> {
  const holds = new Map<number, string | null>();
  let last = 0;
  const end = (hold: number): void => {
    if (!holds.has(hold)) return;
    const key = holds.get(hold)!;
    holds.delete(hold);
    lock.release(key);
  };
  return {
    lock: async ({ exclusive }) => {
      await lock.acquire(exclusive);
      last += 1;
      const hold = last;
      holds.set(hold, exclusive);
      return { answer: { hold }, giveBack: () => end(hold) };
    },
    yield: async ({ hold }) => {
      // Only a live shared hold yields; an ended or exclusive one has nothing to give up.
      if (holds.get(hold) !== null) return { answer: {} };
      await lock.yieldShared();
      return { answer: {}, giveBack: () => end(hold) };
    },
    unlock: ({ hold }) => {
      end(hold);
      return { answer: {} };
    },
  };
}

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
