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

/**
 * Whether a waiter goes ahead of the older ones now: a follow-up on a task its check holds (the
 * agent's system timeout runs on that task). Read at each turn: a task made while it waited counts.
 */
export type Lane = () => boolean;

/** The waiter to serve next (its index; the queue in the order they asked): the oldest going first, else the oldest. */
export function nextIndex(queue: ReadonlyArray<{ first: Lane }>): number {
  return Math.max(
    0,
    queue.findIndex((w) => w.first()),
  );
}

/**
 * Requests in flight, at most `cap()` at once; a waiter is woken when one ends, the `first` ones
 * (follow-ups on a task their check holds, throttle-pace.ts) before the rest.
 */
export class RequestSlots {
  private inFlight = 0;
  private waiters: Array<{ first: Lane; wake: () => void }> = [];

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
   * returns its release. `first`: woken before every waiter that does not go first.
   */
  async take(
    signal: AbortSignal | undefined,
    wait: () => () => void,
    first: Lane = () => false,
  ): Promise<() => void> {
    while (this.inFlight >= this.cap()) {
      if (signal?.aborted === true) throw signal.reason as Error;
      const done = wait();
      await new Promise<void>((resolve, reject) => {
        const waiter = {
          first,
          wake: (): void => {
            signal?.removeEventListener('abort', onAbort);
            resolve();
          },
        };
        const onAbort = (): void => {
          this.waiters = this.waiters.filter((w) => w !== waiter);
          reject(signal!.reason as Error);
        };
        this.waiters.push(waiter);
        signal?.addEventListener('abort', onAbort, { once: true });
      }).finally(done);
    }
    this.inFlight += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.inFlight -= 1;
      this.waiters.splice(nextIndex(this.waiters), 1)[0]?.wake();
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
 * The agent's task slots, first come, first served, except that a check holding a live task is
 * served before the checks that hold none. Each slot has an owner (a check): a check whose
 * own requests hold every slot taken is let past the cap after ownWaitMs instead of waiting on itself.
 * Owners are known without a cap too: a slot whose turn has left marks a task its check may hold
 * (holdsLiveTask), whose follow-ups the governor lets out first.
 */
export class TaskSlots {
  private held = 0;
  private waiters: Array<{ first: Lane; grant: () => void }> = [];
  /** Each owner's slots: whether the turn it was taken for has left for the agent. */
  private owners = new Map<unknown, Array<{ left: boolean }>>();

  constructor(private readonly settings: TaskSlotSettings) {}

  /** Slots held now. */
  get now(): number {
    return this.held;
  }

  /**
   * Takes a slot for `owner` (waiting, within taskWaitMs and the signal, while all are taken; `wait`
   * accounts the wait and returns its end) and returns its release. No cap: only its owner is known.
   */
  async take(owner: unknown, signal: AbortSignal | undefined, wait: () => () => void): Promise<() => void> {
    const cap = this.settings.taskCap;
    if (cap === null || cap === undefined) return this.own(owner);
    if (this.held < cap && this.waiters.length === 0) this.held += 1;
    else {
      const done = wait();
      try {
        await this.queue(cap, signal, owner);
      } finally {
        done();
      }
    }
    const disown = this.own(owner);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      disown();
      // Handed to the first waiter as it is: no newcomer takes it in between (first come, first served).
      const next = this.held > cap ? undefined : this.waiters.splice(nextIndex(this.waiters), 1)[0];
      if (next === undefined) this.held -= 1;
      else next.grant();
    };
  }

  /** The turn of one of `owner`'s slots left for the agent (the oldest whose turn had not). */
  turnLeft(owner: unknown): void {
    const slot = this.owners.get(owner)?.find((s) => !s.left);
    if (slot !== undefined) slot.left = true;
  }

  /**
   * Whether `owner` holds a slot whose turn has left: a task it made may be live (the agent's system
   * timeout running on it, C-05), and its requests now are what the check holds it for.
   */
  holdsLiveTask(owner: unknown): boolean {
    return this.owners.get(owner)?.some((s) => s.left) ?? false;
  }

  /** Records a slot of `owner`'s; returns its removal (idempotent). */
  private own(owner: unknown): () => void {
    if (owner === undefined) return () => undefined;
    const slot = { left: false };
    const slots = this.owners.get(owner) ?? [];
    slots.push(slot);
    this.owners.set(owner, slots);
    return () => {
      const i = slots.indexOf(slot);
      if (i < 0) return;
      slots.splice(i, 1);
      if (slots.length === 0 && this.owners.get(owner) === slots) this.owners.delete(owner);
    };
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
      // A check that holds a live task already is granted a slot before the rest (its task ages).
      const waiter = {
        first: () => this.holdsLiveTask(owner),
        grant: (): void => {
          leave();
          resolve();
        },
      };
      const giveUp = (error: Error): void => {
        leave();
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(error);
      };
      const onAbort = (): void => giveUp(signal!.reason as Error);
      const waitMs = this.settings.taskWaitMs ?? TASK_SLOT_WAIT_MS;
      const timer = setTimeout(() => giveUp(new TaskSlotError(cap, waitMs)), waitMs);
      // Every slot held by this check itself, for a while: no one else can free them, go past the cap.
      const self = setInterval(() => {
        const own = owner === undefined ? 0 : (this.owners.get(owner)?.length ?? 0);
        if (own === 0 || own < this.held) return;
        this.waiters = this.waiters.filter((w) => w !== waiter);
        this.held += 1;
        waiter.grant();
      }, this.settings.ownWaitMs ?? OWN_SLOTS_WAIT_MS);
      this.waiters.push(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}
