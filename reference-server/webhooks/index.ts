// The webhook (push notification) service of the reference server: tasks/pushNotificationConfig/set
// and /get (spec 2.11-2.13, 4.6, 4.7) and event delivery (spec 3, 6; rulings C-17..C-20, C-29, C-42).
// The JSON-RPC layer calls this module; it never sees HTTP requests itself.
import { ERROR_CODES, ERROR_MESSAGES } from '../../schemas/error-codes.ts';
import type {
  DeliveryRecord,
  GetResult,
  Outcome,
  SetResult,
  StoredConfig,
  TaskSnapshot,
  TaskSnapshotSource,
  WebhookEvent,
} from './types.ts';
import { validateGetParams, validateSetParams } from './config-validation.ts';
import { createConfigStore } from './config-store.ts';
import type { ConfigTable, Maybe, Outbox } from '../store/types.ts';
import { createAttemptSender } from './attempt.ts';
import { createDeliverer, type Deliverer } from './delivery.ts';
import { createDeliveryLog, type DeliveryLog } from './delivery-log.ts';
import { payloadBase } from './payload.ts';

export type * from './types.ts';
export { DEFAULT_RETRY_POLICY } from './config-validation.ts';
export { signBody, verifySignature } from './signer.ts';

export interface WebhookServiceOptions {
  /** C-20: `A2A-Reference-Webhook/<version>`. */
  userAgent: string;
  /** C-19: false refuses loopback/private/link-local/metadata targets (checked after DNS). */
  allowPrivateTargets: boolean;
  /** Bound on one attempt, connect to response headers; spec 6.5 asks receivers for 5 s. */
  attemptTimeoutMs?: number;
  /** C-42: task-level configs per agent. */
  maxTaskConfigsPerAgent?: number;
  /** Deliveries kept for deliveryLog(). */
  deliveryLogSize?: number;
  /** Events queued, in flight or awaiting a retry, across all agents; beyond it events are dropped. */
  maxPendingDeliveries?: number;
  /** Where configurations live (default: this process's memory). */
  configs?: ConfigTable;
  /** Where retries wait when they must survive this process (a shared store). */
  outbox?: Outbox;
}

export interface WebhookService {
  /** tasks/pushNotificationConfig/set. */
  setConfig(
    agentId: string,
    params: unknown,
    taskExists: (taskId: string) => Maybe<boolean>,
  ): Promise<Outcome<SetResult>>;
  /** tasks/pushNotificationConfig/get: exactly the requested scope (C-17). */
  getConfig(agentId: string, params: unknown): Promise<Outcome<GetResult>>;
  /** Fire and forget; never throws. Call with the task as it is right after the transition. */
  /** `task` may be a source whose snapshot is built only when a configuration wants the event. */
  emit(agentId: string, task: TaskSnapshot | TaskSnapshotSource, event: WebhookEvent): void;
  /** Drops a task's own config (e.g. when the task is evicted) and cancels its pending deliveries. */
  forgetTask(agentId: string, taskId: string): void;
  /** The most recent deliveries, oldest first (diagnostics). */
  deliveryLog(): DeliveryRecord[];
  /** Cancels pending retries and in-flight requests. */
  close(): Promise<void>;
}

export function createWebhookService(opts: WebhookServiceOptions): WebhookService {
  return new ReferenceWebhookService(opts);
}

class ReferenceWebhookService implements WebhookService {
  private readonly store: ConfigTable;
  private readonly log: DeliveryLog;
  private readonly deliverer: Deliverer;

  constructor(private readonly opts: WebhookServiceOptions) {
    this.store = opts.configs ?? createConfigStore(opts.maxTaskConfigsPerAgent ?? 1000);
    this.log = createDeliveryLog(opts.deliveryLogSize ?? 1000);
    const sender = createAttemptSender({
      allowPrivateTargets: opts.allowPrivateTargets,
      attemptTimeoutMs: opts.attemptTimeoutMs ?? 5000, // C-20: no response within 5 s is a failed attempt
    });
    // 10 000 pending events of a few KB each stays far below the server's memory budget.
    const maxPending = opts.maxPendingDeliveries ?? 10_000;
    this.deliverer = createDeliverer({
      userAgent: opts.userAgent,
      sender,
      log: this.log,
      maxPending,
      configs: this.store,
      ...(opts.outbox === undefined ? {} : { outbox: opts.outbox }),
    });
  }

  async setConfig(
    agentId: string,
    params: unknown,
    taskExists: (taskId: string) => Maybe<boolean>,
  ): Promise<Outcome<SetResult>> {
    const valid = validateSetParams(params, this.opts.allowPrivateTargets);
    if (!valid.ok) return valid;
    const { config, taskId } = valid.result;
    if (taskId !== undefined && !(await taskExists(taskId))) {
      const code = ERROR_CODES.TASK_NOT_FOUND;
      const suggestion = 'Check the taskId, or omit it to configure the webhook for every task of the agent';
      return { ok: false, error: { code, message: ERROR_MESSAGES[code], data: { taskId, suggestion } } };
    }
    const put = await this.store.put(agentId, taskId, config);
    if (!put.ok) return put;
    const { stored, replaced } = put.result;
    // The replaced endpoint or secret may no longer be the client's: stop delivering to it.
    if (replaced) this.deliverer.cancelConfig(replaced.configId);
    const { configId, url, events } = stored;
    return { ok: true, result: { configured: true, configId, url, events: [...events] } };
  }

  async getConfig(agentId: string, params: unknown): Promise<Outcome<GetResult>> {
    const valid = validateGetParams(params);
    if (!valid.ok) return valid;
    const stored = await this.store.get(agentId, valid.result.taskId);
    if (!stored) return { ok: true, result: { config: null, configId: null, active: false } };
    const { url, events, retryPolicy, createdAt, lastUsed } = stored;
    // Spec 2.13: the secret and headers are never returned.
    const config = { url, events: [...events], retryPolicy: { ...retryPolicy }, createdAt, lastUsed };
    return { ok: true, result: { config, configId: stored.configId, active: true } };
  }

  emit(agentId: string, task: TaskSnapshot | TaskSnapshotSource, event: WebhookEvent): void {
    const deliver = (config: StoredConfig | undefined, source: TaskSnapshot | TaskSnapshotSource): void => {
      try {
        if (!config || !config.events.includes(event)) return;
        const snapshot = 'snapshot' in source ? source.snapshot() : source;
        this.deliverer.enqueue(config, payloadBase(agentId, snapshot, event));
      } catch {
        // Fire and forget: a task snapshot that cannot be serialised must not break the task engine.
      }
    };
    try {
      const config = this.store.resolve(agentId, task.id);
      if (!(config instanceof Promise)) return deliver(config, task);
      // A shared store answers later (in the order asked, so events stay in order); the task is
      // captured now, as it is right after the transition.
      const snapshot = 'snapshot' in task ? task.snapshot() : task;
      void config.then(
        (found) => deliver(found, snapshot),
        () => undefined,
      );
    } catch {
      // As above: never break the task engine.
    }
  }

  forgetTask(agentId: string, taskId: string): void {
    const removed = this.store.forgetTask(agentId, taskId);
    const cancel = (config: StoredConfig | undefined): void => {
      if (config) this.deliverer.cancelConfig(config.configId);
    };
    if (removed instanceof Promise) void removed.then(cancel, () => undefined);
    else cancel(removed);
  }

  deliveryLog(): DeliveryRecord[] {
    return this.log.snapshot();
  }

  close(): Promise<void> {
    return this.deliverer.close();
  }
}
