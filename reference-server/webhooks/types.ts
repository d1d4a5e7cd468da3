// Types shared by the webhook modules and exported to the rest of the reference server
// (spec sections 2.11-2.13 and 6; rulings C-17..C-20, C-29).
import type { TaskState, WebhookEvent } from '../../schemas/error-codes.ts';

export type { TaskState, WebhookEvent };

export type RpcError = { code: number; message: string; data?: Record<string, unknown> };
export type Outcome<T> = { ok: true; result: T } | { ok: false; error: RpcError };

/** Effective retry policy (C-29: defaults filled in). initialDelay is in seconds. */
export interface RetryPolicy {
  maxRetries: number;
  backoffMultiplier: number;
  initialDelay: number;
}

/** A validated `params.config` with defaults applied (section 2.11). */
export interface WebhookConfigInput {
  url: string;
  headers: Readonly<Record<string, string>>;
  events: readonly WebhookEvent[];
  retryPolicy: RetryPolicy;
  secret: string | undefined;
}

/** A stored configuration: one per scope (agent-level, or one task). */
export interface StoredConfig extends WebhookConfigInput {
  configId: string;
  agentId: string;
  /** Undefined for the agent-level configuration. */
  taskId: string | undefined;
  createdAt: string;
  lastUsed: string | null;
}

/** Result of tasks/pushNotificationConfig/set (section 2.12). */
export interface SetResult {
  configured: true;
  configId: string;
  url: string;
  events: WebhookEvent[];
}

/** Result of tasks/pushNotificationConfig/get (section 2.13): never the secret or headers. */
export type GetResult =
  | {
      config: {
        url: string;
        events: WebhookEvent[];
        retryPolicy: RetryPolicy;
        createdAt: string;
        lastUsed: string | null;
      };
      configId: string;
      active: true;
    }
  | { config: null; configId: null; active: false };

/** A task whose snapshot is built only when a configuration wants the event. */
export interface TaskSnapshotSource {
  id: string;
  snapshot(): TaskSnapshot;
}

/** What the task engine hands to emit(): the task as it is right after the transition. */
export interface TaskSnapshot {
  id: string;
  contextId: string;
  status: {
    state: TaskState;
    message?: unknown;
    error?: unknown;
    progress?: { current: number; total: number; message: string };
    reason?: string;
  };
  createdAt: string;
  updatedAt: string;
  startedAt?: string;
  finishedAt?: string;
  estimatedDurationMs?: number;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'refused' | 'canceled' | 'dropped';

/** One attempt as recorded for diagnostics. Delays are in ms; undefined for attempt 1. */
export interface AttemptRecord {
  attempt: number;
  startedAt: string;
  durationMs: number;
  statusCode?: number;
  error?: string;
  scheduledDelayMs?: number;
  actualDelayMs?: number;
}

/** One event to one configuration, with all its attempts (the diagnostics log). */
export interface DeliveryRecord {
  deliveryId: string;
  agentId: string;
  taskId: string;
  configId: string;
  event: WebhookEvent;
  url: string;
  maxAttempts: number;
  status: DeliveryStatus;
  attempts: AttemptRecord[];
}
