// The suite-file lock, when suite files run in several workers: files that fill the agent's task
// slots or trip its rate limit (per-agent limits, C-04, C-21) run alone, every other test shares the
// lock. The runner holds it (FileLock) and serves it over the worker link (harness/io/links/worker-link.ts); a test
// holds it through holdFileLock() (harness/io/links/file-hold.ts).
import type { WorkerCallHandlers } from '../io/links/worker-link.ts';

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
