// Everything the server holds for one hosted agent: its resolved config, task engine, rate
// limiter, metrics and open SSE streams (spec 4, 8; C-04, C-30, C-42).
import type { SseStream } from '../sse/sse-writer.ts';
import type { RateWindow, ReferenceStore, StoredTask } from '../store/types.ts';
import { TaskEngine } from '../tasks/task-engine.ts';
import type { AgentConfig } from '../types.ts';
import type { WebhookService, TaskSnapshot, TaskSnapshotSource, WebhookEvent } from '../webhooks/index.ts';
import { AgentMetrics } from './metrics.ts';

export interface AgentRuntime {
  config: AgentConfig;
  engine: TaskEngine;
  limiter: RateWindow;
  metrics: AgentMetrics;
  streams: Set<SseStream>;
}

/** The view of a task the webhook service receives right after a transition (spec 6.1, 6.3). */
export function taskSnapshot(task: StoredTask, systemTimeoutMs: number): TaskSnapshot {
  const snapshot: TaskSnapshot = {
    id: task.id,
    contextId: task.contextId,
    status: task.status,
    createdAt: task.createdAt,
    updatedAt: task.updatedAt,
  };
  if (task.startedAt !== undefined) snapshot.startedAt = task.startedAt;
  if (task.finishedAt !== undefined) snapshot.finishedAt = task.finishedAt;
  // C-43: estimatedDuration is always sent; a task with no estimate of its own (one that runs until
  // canceled) is bounded by the system timeout, the longest it can run (C-05).
  snapshot.estimatedDurationMs = task.estimatedDurationMs ?? systemTimeoutMs;
  return snapshot;
}

/** A task whose webhook snapshot is built only when a configuration wants the event. */
class SnapshotSource implements TaskSnapshotSource {
  readonly id: string;

  constructor(
    private readonly task: StoredTask,
    private readonly systemTimeoutMs: number,
  ) {
    this.id = task.id;
  }

  snapshot(): TaskSnapshot {
    return taskSnapshot(this.task, this.systemTimeoutMs);
  }
}

export function createAgentRuntime(
  config: AgentConfig,
  webhooks: WebhookService,
  store: ReferenceStore,
): AgentRuntime {
  const emit = (task: StoredTask, event: WebhookEvent): void => {
    // Webhooks are fire and forget: a delivery problem must never stop a state change.
    try {
      webhooks.emit(config.id, new SnapshotSource(task, config.systemTimeoutMs), event);
    } catch {
      /* the service reports its own failures in its delivery log */
    }
  };
  const table = store.tasks(config.id, config.maxTasks, (taskId) => webhooks.forgetTask(config.id, taskId));
  const slots = (start: (taskId: string) => void) =>
    store.slots(config.id, config.limits.concurrentTasks, start);
  const engine = new TaskEngine(config, { onTransition: emit }, { table, slots, fanout: store.fanout });
  return {
    config,
    engine,
    limiter: store.rateWindow(config.id, config.limits.requestsPerMinute),
    metrics: new AgentMetrics(),
    streams: new Set(),
  };
}
