// The run's slots: requests in flight at once (--concurrency), and the agent's task slots (agent
// turns in flight at once: the card's limits.concurrentTasks, spec 8, C-21). Past the agent's cap it
// would queue the task and a check timing a running task would see it `submitted`; only the checks
// that overflow the agent's slots on purpose go past it.
import { GovernorStop } from './governor-stop.ts';

/**
 * No task slot freed in time: the run's other requests held every one of the agent's
 * limits.concurrentTasks slots for longer than any turn should take (a check that holds more tasks
 * than that on purpose must say so: verifies(..., { overflowsTasks: true })). The check is an error.
 */
export class TaskSlotError extends GovernorStop {
  constructor(cap: number, waitedMs: number) {
    super(
      `task slots held: waited ${Math.round(waitedMs / 1000)} s for one of the agent's ${cap} task slots (limits.concurrentTasks), all held by other requests of the run`,
    );
    this.name = 'TaskSlotError';
  }
}

// Longest wait for a task slot: every holder ends by itself (a send's deadline, a stream's total
// budget, its final event, the check's end), so a wait this long means a holder that never ends.
export const TASK_SLOT_WAIT_MS = 120_000;
// How long a check waits on task slots that only its own requests hold before it goes past the cap:
// its own short tasks free them sooner; a task it holds on purpose (a second message naming a task id
// it holds, C-16) never would.
export const OWN_SLOTS_WAIT_MS = 5_000;

/** Requests in flight, at most `cap()` at once; a waiter is woken when one ends. */
export class RequestSlots {
  private inFlight = 0;
  private waiters: Array<() => void> = [];

  constructor(private readonly cap: () => number) {}

  get now(): number {
    return this.inFlight;
  }

  /** Takers waiting for a slot. */
  get waiting(): number {
    return this.waiters.length;
  }

  /**
   * Takes a slot (waiting while all are taken; `wait` accounts each wait and returns its end), and
   * returns its release.
   */
  async take(signal: AbortSignal | undefined, wait: () => () => void): Promise<() => void> {
    while (this.inFlight >= this.cap()) {
      if (signal?.aborted === true) throw signal.reason as Error;
      const done = wait();
      await new Promise<void>((resolve, reject) => {
        const wake = (): void => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        };
        const onAbort = (): void => {
          this.waiters = this.waiters.filter((w) => w !== wake);
          reject(signal!.reason as Error);
        };
        this.waiters.push(wake);
        signal?.addEventListener('abort', onAbort, { once: true });
      }).finally(done);
    }
    this.inFlight += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.inFlight -= 1;
      this.waiters.shift()?.();
    };
  }
}

export interface TaskSlotSettings {
  /** Agent turns in flight at once; null or undefined: no cap. */
  taskCap?: number | null;
  /** Longest wait for a task slot before the check is an error (TaskSlotError); default TASK_SLOT_WAIT_MS. */
  taskWaitMs?: number;
  /** How long a check waits on slots only it holds before going past the cap; default OWN_SLOTS_WAIT_MS. */
  ownWaitMs?: number;
}

/**
 * The agent's task slots, first come, first served. Each slot has an owner (a check): a check whose
 * own requests hold every slot taken is let past the cap after ownWaitMs instead of waiting on itself.
 */
export class TaskSlots {
  private held = 0;
  private waiters: Array<() => void> = [];
  private owners = new Map<unknown, number>();

  constructor(private readonly settings: TaskSlotSettings) {}

  /** Slots held now. */
  get now(): number {
    return this.held;
  }

  /**
   * Takes a slot for `owner` (waiting, within taskWaitMs and the signal, while all are taken; `wait`
   * accounts the wait and returns its end) and returns its release. No cap: takes nothing.
   */
  async take(
    owner: unknown,
    signal: AbortSignal | undefined,
    wait: () => () => void,
  ): Promise<(() => void) | undefined> {
    const cap = this.settings.taskCap;
    if (cap === null || cap === undefined) return undefined;
    if (this.held < cap && this.waiters.length === 0) this.held += 1;
    else {
      const done = wait();
      try {
        await this.queue(cap, signal, owner);
      } finally {
        done();
      }
    }
    this.own(owner, 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.own(owner, -1);
      // Handed to the first waiter as it is: no newcomer takes it in between (first come, first served).
      const next = this.held > cap ? undefined : this.waiters.shift();
      if (next === undefined) this.held -= 1;
      else next();
    };
  }

  private own(owner: unknown, n: number): void {
    if (owner === undefined) return;
    const held = (this.owners.get(owner) ?? 0) + n;
    if (held > 0) this.owners.set(owner, held);
    else this.owners.delete(owner);
  }

  /** Queues for the next released slot, within taskWaitMs and the signal. */
  private queue(cap: number, signal: AbortSignal | undefined, owner: unknown): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted === true) {
        reject(signal.reason as Error);
        return;
      }
      const leave = (): void => {
        clearTimeout(timer);
        clearInterval(self);
        signal?.removeEventListener('abort', onAbort);
      };
      const grant = (): void => {
        leave();
        resolve();
      };
      const giveUp = (error: Error): void => {
        leave();
        this.waiters = this.waiters.filter((w) => w !== grant);
        reject(error);
      };
      const onAbort = (): void => giveUp(signal!.reason as Error);
      const waitMs = this.settings.taskWaitMs ?? TASK_SLOT_WAIT_MS;
      const timer = setTimeout(() => giveUp(new TaskSlotError(cap, waitMs)), waitMs);
      // Every slot held by this check itself, for a while: no one else can free them, go past the cap.
      const self = setInterval(() => {
        const own = owner === undefined ? 0 : (this.owners.get(owner) ?? 0);
        if (own === 0 || own < this.held) return;
        this.waiters = this.waiters.filter((w) => w !== grant);
        this.held += 1;
        grant();
      }, this.settings.ownWaitMs ?? OWN_SLOTS_WAIT_MS);
      this.waiters.push(grant);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}
