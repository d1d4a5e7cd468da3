// FIFO admission of tasks to the agent's concurrentTasks slots (spec 8, C-21): a task waits in
// `submitted` until a slot frees; at most `limit` tasks are ever started and not yet released.
import type { TaskSlots } from '../store/types.ts';

export class SlotQueue implements TaskSlots {
  private readonly waiting: string[] = [];
  private running = 0;

  constructor(
    private readonly limit: number,
    private readonly start: (taskId: string) => void,
  ) {}

  get runningCount(): number {
    return this.running;
  }

  get waitingCount(): number {
    return this.waiting.length;
  }

  enqueue(taskId: string): void {
    this.waiting.push(taskId);
    this.pump();
  }

  /** Drops a task that never started (canceled while submitted). */
  remove(taskId: string): boolean {
    const index = this.waiting.indexOf(taskId);
    if (index === -1) return false;
    this.waiting.splice(index, 1);
    return true;
  }

  /** A started task finished: its slot goes to the oldest waiting task. */
  release(_taskId?: string): void {
    this.running = Math.max(0, this.running - 1);
    this.pump();
  }

  clear(): void {
    this.waiting.length = 0;
  }

  private pump(): void {
    while (this.running < this.limit && this.waiting.length > 0) {
      const next = this.waiting.shift() as string;
      this.running += 1;
      this.start(next);
    }
  }
}
