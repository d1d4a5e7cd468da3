// Webhook payloads (spec 6.1 and 6.3; rulings C-20, C-39, C-43): the per-event `data` is built once
// when the event is emitted; the envelope is serialised once per attempt (delivery.attempt changes).
import type { TaskSnapshot, WebhookEvent } from './types.ts';

/** Everything of a payload except `delivery`, fixed for all attempts of one delivery. */
export interface PayloadBase {
  event: WebhookEvent;
  timestamp: string;
  agentId: string;
  taskId: string;
  data: Record<string, unknown>;
}

// C-24 wants progress on every working status; if the engine has none yet at the transition we
// send the start of the scale rather than omit a field the spec lists for task.working.
const STARTING_PROGRESS = Object.freeze({ current: 0, total: 1, message: 'Processing started' });

/** Milliseconds between two ISO timestamps, never negative (C-43: durations are ms numbers). */
function msBetween(from: string, to: string): number {
  const ms = Date.parse(to) - Date.parse(from);
  return Number.isFinite(ms) && ms > 0 ? ms : 0;
}

// Copies caller-owned values so later mutation of the live task cannot change a pending payload.
const copy = (value: unknown): unknown =>
  value === undefined ? undefined : JSON.parse(JSON.stringify(value));

/** The `data` object of one event (spec 6.1), from the task as it is right after the transition. */
export function eventData(event: WebhookEvent, task: TaskSnapshot): Record<string, unknown> {
  const endedAt = task.finishedAt ?? task.updatedAt;
  // Duration is processing time (start to end); a task that never started counts from creation.
  const duration = msBetween(task.startedAt ?? task.createdAt, endedAt);
  switch (event) {
    case 'task.submitted':
      return {
        taskId: task.id,
        submittedAt: task.createdAt,
        ...(task.estimatedDurationMs === undefined ? {} : { estimatedDuration: task.estimatedDurationMs }),
      };
    case 'task.working':
      return {
        taskId: task.id,
        startedAt: task.startedAt ?? task.updatedAt,
        progress: copy(task.status.progress) ?? { ...STARTING_PROGRESS },
      };
    case 'task.completed':
      return {
        taskId: task.id,
        status: { state: 'completed', message: copy(task.status.message) },
        contextId: task.contextId,
        duration,
        completedAt: endedAt,
      };
    case 'task.failed':
      return {
        taskId: task.id,
        status: { state: 'failed', error: copy(task.status.error) },
        duration,
        failedAt: endedAt,
      };
    case 'task.canceled':
      // C-34: the default reason when the client gave none.
      return { taskId: task.id, reason: task.status.reason ?? 'Canceled by client', canceledAt: endedAt };
  }
}

export function payloadBase(
  agentId: string,
  task: TaskSnapshot,
  event: WebhookEvent,
  now = new Date(),
): PayloadBase {
  return { event, timestamp: now.toISOString(), agentId, taskId: task.id, data: eventData(event, task) };
}

/** The exact bytes of one attempt: these bytes are both signed and sent (C-20). */
export function serialisePayload(base: PayloadBase, attempt: number, maxAttempts: number): Buffer {
  return Buffer.from(JSON.stringify({ ...base, delivery: { attempt, maxAttempts } }), 'utf8');
}
