// The in-memory store (the default, and the embedded choice): everything lives in this process,
// so there is no outbox to survive it and no other replica to fan updates out to.
import { SlidingWindowLimiter } from '../http/rate-limit.ts';
import { SlotQueue } from '../tasks/queue.ts';
import { TaskStore } from '../tasks/task-store.ts';
import { createConfigStore } from '../webhooks/config-store.ts';
import type { ConfigTable, RateWindow, ReferenceStore, TaskSlots, TaskTable } from './types.ts';

export class MemoryStore implements ReferenceStore {
  readonly kind = 'memory';
  readonly shared = false;
  readonly outbox = undefined;
  readonly fanout = undefined;

  tasks(_agentId: string, maxTasks: number, onEvict: (taskId: string) => void): TaskTable {
    return new TaskStore(maxTasks, onEvict);
  }

  rateWindow(_agentId: string, limit: number): RateWindow {
    return new SlidingWindowLimiter(limit);
  }

  slots(_agentId: string, limit: number, start: (taskId: string) => void): TaskSlots {
    return new SlotQueue(limit, start);
  }

  configs(maxTaskConfigsPerAgent: number): ConfigTable {
    return createConfigStore(maxTaskConfigsPerAgent);
  }

  flush(): Promise<void> {
    return Promise.resolve();
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
