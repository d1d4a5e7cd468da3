// The state a reference server keeps, behind one interface (spec 2.7, 2.11, 3, 4, 6, 8; C-04,
// C-17, C-20, C-44): tasks and conversations, webhook configurations, the webhook retry outbox,
// rate-limit windows and the fan-out of task updates. The in-memory store is one process; the
// Redis store lets replicas share it, so a task made through one replica is known to all of them.
import type { RateDecision } from '../http/rate-limit.ts';
import type { StatefulTask } from '../tasks/transitions.ts';
import type { StoredConfig, WebhookConfigInput, Outcome } from '../webhooks/types.ts';
import type { PayloadBase } from '../webhooks/payload.ts';

/** A value now (in-memory) or later (a network store): callers `await` either. */
export type Maybe<T> = T | Promise<T>;

/** A task as stored: everything but the running job, which lives in the process that owns it. */
export interface StoredTask extends StatefulTask {
  id: string;
  agentId: string;
  contextId: string;
  sessionId?: string;
  estimatedDurationMs?: number;
  /** directives.md `streamable: false` makes tasks/resubscribe refuse the task. */
  streamable: boolean;
  /** Incremented on every status or progress change: orders fan-out updates. */
  version: number;
}

/** The task records of one agent. */
export interface TaskTable {
  get(taskId: string): Maybe<StoredTask | undefined>;
  has(taskId: string): Maybe<boolean>;
  hasContext(contextId: string): Maybe<boolean>;
  /**
   * Appends a user turn to a conversation (opened when `contextId` is new) and returns the
   * conversation's earlier turns.
   */
  appendTurn(contextId: string, sessionId: string | undefined, text: string): Maybe<string[]>;
  /** Stores a new task, or the new state of one. `finished` once, when it reaches a final state. */
  save(task: StoredTask, finished: boolean): Maybe<void>;
  /** Sets a final status unless the task is already final (used when the owner is gone). */
  finishIfLive(task: StoredTask): Maybe<StoredTask | undefined>;
}

/** The concurrentTasks slots of one agent (spec 8, C-21): FIFO admission, shared by its replicas. */
export interface TaskSlots {
  enqueue(taskId: string): void;
  /** Drops a task that never started (canceled while submitted). */
  remove(taskId: string): void;
  /** A started task finished (or was found canceled when its turn came): its slot goes on. */
  release(taskId: string): void;
  clear(): void;
}

/** Sliding 60 s window of one agent (spec 8, C-04). */
export interface RateWindow {
  readonly limit: number;
  take(now?: number): Maybe<RateDecision>;
}

/** Webhook configurations, one per scope (C-17) and at most `max` task-level ones per agent (C-42). */
export interface ConfigTable {
  put(
    agentId: string,
    taskId: string | undefined,
    input: WebhookConfigInput,
  ): Maybe<Outcome<{ stored: StoredConfig; replaced: StoredConfig | undefined }>>;
  get(agentId: string, taskId: string | undefined): Maybe<StoredConfig | undefined>;
  resolve(agentId: string, taskId: string): Maybe<StoredConfig | undefined>;
  forgetTask(agentId: string, taskId: string): Maybe<StoredConfig | undefined>;
  /** C-20: lastUsed is the time of the latest attempt. */
  markUsed(config: StoredConfig, at: string): void;
}

/** A webhook retry waiting in the shared outbox: enough to send it from any replica. */
export interface OutboxEntry {
  deliveryId: string;
  config: StoredConfig;
  base: PayloadBase;
  maxAttempts: number;
  /** The attempt to send next. */
  attempt: number;
  scheduledDelayMs: number;
  /** Wall-clock ms at the end of the previous attempt. */
  lastEndedAt: number;
}

/** Webhook retries that survive the replica that scheduled them (C-20: same delivery id). */
export interface Outbox {
  schedule(entry: OutboxEntry, dueAt: number): Promise<void>;
  /** Takes the entry for one attempt if it is due and untaken; another replica cannot take it meanwhile. */
  claim(deliveryId: string, now: number): Promise<OutboxEntry | undefined>;
  /** Due entries whose replica did not take them `graceMs` after their time (it stopped). */
  claimOrphans(now: number, graceMs: number): Promise<OutboxEntry[]>;
  settle(deliveryId: string): Promise<void>;
}

/** A task update as replicas exchange it. */
export interface TaskUpdateMessage {
  task: StoredTask;
}

/** Task updates and cancel requests between replicas. */
export interface Fanout {
  publish(task: StoredTask): void;
  subscribe(agentId: string, taskId: string, listener: (task: StoredTask) => void): () => void;
  /** Asks the replica running the task to cancel it. */
  requestCancel(agentId: string, taskId: string, reason: string): void;
  onCancelRequest(handler: (agentId: string, taskId: string, reason: string) => void): void;
}

export interface ReferenceStore {
  /** `memory` or `redis`: what `serve` prints and the docs name. */
  readonly kind: string;
  /** True when other processes share this store (tasks may belong to another replica). */
  readonly shared: boolean;
  tasks(agentId: string, maxTasks: number, onEvict: (taskId: string) => void): TaskTable;
  rateWindow(agentId: string, limit: number): RateWindow;
  /** `start` is called with each admitted task (with a shared store, in every replica: the owner runs it). */
  slots(agentId: string, limit: number, start: (taskId: string) => void): TaskSlots;
  configs(maxTaskConfigsPerAgent: number): ConfigTable;
  /** Present when retries must survive this process. */
  readonly outbox: Outbox | undefined;
  /** Present when other processes follow this store's tasks. */
  readonly fanout: Fanout | undefined;
  /** Resolves once every write issued so far is stored. */
  flush(): Promise<void>;
  close(): Promise<void>;
}
