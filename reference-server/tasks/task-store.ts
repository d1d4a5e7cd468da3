// Per-agent in-memory storage of tasks and conversations (spec 2.7, 4.3, 4.9): a capped store where
// the oldest finished task is evicted first (C-44); a conversation lives while one of its tasks does.
import { isFinalState } from '../../schemas/error-codes.ts';
import type { AgentJob } from '../agent/reference-agent.ts';
import type { StoredTask, TaskTable } from '../store/types.ts';

/** A task in the process that runs it: the stored task plus its job. */
export interface TaskRecord extends StoredTask {
  job: AgentJob;
}

/** A conversation (contextId): the content of each accepted user message, in order. */
export interface Conversation {
  id: string;
  sessionId?: string;
  userTexts: string[];
  taskIds: Set<string>;
}

export class TaskStore implements TaskTable {
  private readonly tasks = new Map<string, StoredTask>();
  private readonly conversations = new Map<string, Conversation>();
  /** Finished task ids in finishing order: the eviction order of C-44. */
  private readonly finished = new IdQueue();

  constructor(
    private readonly maxTasks: number,
    /** Told about each evicted task (the webhook service drops its task-level config). */
    private readonly onEvict: (taskId: string) => void = () => {},
  ) {}

  get size(): number {
    return this.tasks.size;
  }

  get(taskId: string): StoredTask | undefined {
    return this.tasks.get(taskId);
  }

  has(taskId: string): boolean {
    return this.tasks.has(taskId);
  }

  hasContext(contextId: string): boolean {
    return this.conversations.has(contextId);
  }

  appendTurn(contextId: string, sessionId: string | undefined, text: string): string[] {
    let conversation = this.conversations.get(contextId);
    if (conversation === undefined) {
      conversation = { id: contextId, userTexts: [], taskIds: new Set() };
      if (sessionId !== undefined) conversation.sessionId = sessionId;
      this.conversations.set(contextId, conversation);
    }
    const history = [...conversation.userTexts];
    conversation.userTexts.push(text);
    return history;
  }

  /** The live record is stored by reference: later changes need no write, only the finish. */
  save(task: StoredTask, finished: boolean): void {
    if (!this.tasks.has(task.id)) {
      this.tasks.set(task.id, task);
      this.conversations.get(task.contextId)?.taskIds.add(task.id);
    }
    // Called once when a task reaches a final state: it becomes evictable.
    if (finished) this.finished.push(task.id);
    this.evict();
  }

  finishIfLive(task: StoredTask): StoredTask | undefined {
    const current = this.tasks.get(task.id);
    if (current === undefined || isFinalState(current.status.state)) return current;
    Object.assign(current, task);
    this.save(current, true);
    return current;
  }

  all(): IterableIterator<StoredTask> {
    return this.tasks.values();
  }

  /** Unfinished tasks are never evicted, so the store may exceed the cap while they run. */
  private evict(): void {
    while (this.tasks.size > this.maxTasks) {
      const taskId = this.finished.shift();
      if (taskId === undefined) return;
      const task = this.tasks.get(taskId);
      this.tasks.delete(taskId);
      if (task === undefined) continue;
      this.onEvict(taskId);
      const conversation = this.conversations.get(task.contextId);
      conversation?.taskIds.delete(taskId);
      if (conversation !== undefined && conversation.taskIds.size === 0) {
        this.conversations.delete(conversation.id);
      }
    }
  }
}

/**
 * A FIFO of ids with O(1) push and shift. (Taking the first id of a Set that is deleted from at the
 * front costs time in the number of ids deleted so far, until the Set rehashes: 56 µs per eviction
 * with 100,000 tasks stored.)
 */
class IdQueue {
  private items: string[] = [];
  private head = 0;

  push(id: string): void {
    this.items.push(id);
  }

  shift(): string | undefined {
    if (this.head >= this.items.length) return undefined;
    const id = this.items[this.head];
    this.head += 1;
    // Drop the consumed front once it is most of the array, so memory follows the live ids.
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return id;
  }
}
