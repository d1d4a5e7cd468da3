// The Redis store (`serve --store redis://...`): replicas of the reference server share tasks,
// conversations, webhook configurations, the webhook retry outbox and rate-limit windows, and follow
// each other's tasks through pub/sub (spec 2.7, 3, 4.3-4.7, 6, 8; C-04, C-17, C-20, C-42, C-44).
// A task runs in the replica that created it; the others read it, stream it and ask it to cancel.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { WINDOW_MS, type RateDecision } from '../http/rate-limit.ts';
import { newStoredConfig, tooManyTaskConfigs } from '../webhooks/config-store.ts';
import type { StoredConfig } from '../webhooks/types.ts';
import * as lua from './redis-scripts.ts';
import type {
  ConfigTable,
  Fanout,
  Outbox,
  OutboxEntry,
  RateWindow,
  ReferenceStore,
  StoredTask,
  TaskSlots,
  TaskTable,
} from './types.ts';

const KEY = 'a2a:';
const UPDATES = `${KEY}updates`;
const CANCELS = `${KEY}cancels`;
const STARTS = `${KEY}starts`;
/**
 * A claimed retry belongs to its replica this long: more than an attempt (5 s, C-20) plus the wait
 * for a connection slot; a replica that stops mid-attempt leaves it to another after this.
 */
const RETRY_LEASE_MS = 60_000;
/** A replica's own timer may fire this much before the due time it wrote (two clocks are read). */
const CLAIM_SLACK_MS = 1000;
/** Orphaned retries adopted per poll, so one poll stays short. */
const ORPHANS_PER_POLL = 32;

/** The task as stored: everything but the job of the replica running it. */
function taskJson(task: StoredTask): string {
  const stored: Record<string, unknown> = { ...task };
  delete stored.job;
  return JSON.stringify(stored);
}

const configField = (taskId: string | undefined): string =>
  taskId === undefined ? 'agent' : `task:${taskId}`;

export class RedisStore implements ReferenceStore {
  readonly kind = 'redis';
  readonly shared = true;
  readonly outbox: Outbox;
  readonly fanout: Fanout;
  private readonly listeners = new Map<string, Set<(task: StoredTask) => void>>();
  private readonly cancelHandlers: Array<(agentId: string, taskId: string, reason: string) => void> = [];
  private readonly starters = new Map<string, Array<(taskId: string) => void>>();
  private closed = false;

  private constructor(
    private readonly client: Redis,
    private readonly subscriber: Redis,
  ) {
    this.outbox = this.createOutbox();
    this.fanout = this.createFanout();
  }

  /** Connects (or fails with the reason) and subscribes to the other replicas' updates. */
  static async connect(url: string): Promise<RedisStore> {
    const options = { lazyConnect: true, connectTimeout: 5000, maxRetriesPerRequest: 3 };
    const client = new Redis(url, options);
    const subscriber = new Redis(url, options);
    // Without a listener ioredis prints every reconnection error; requests report their own failures.
    client.on('error', () => undefined);
    subscriber.on('error', () => undefined);
    try {
      await client.connect();
      await subscriber.connect();
      await subscriber.subscribe(UPDATES, CANCELS, STARTS);
    } catch (error) {
      client.disconnect();
      subscriber.disconnect();
      throw new Error(`cannot use the Redis store at ${redactUrl(url)}: ${(error as Error).message}`);
    }
    const store = new RedisStore(client, subscriber);
    subscriber.on('message', (channel: string, message: string) => store.onMessage(channel, message));
    return store;
  }

  tasks(agentId: string, maxTasks: number, onEvict: (taskId: string) => void): TaskTable {
    const { client } = this;
    const prefix = `${KEY}task:${agentId}:`;
    const keys = (taskId: string): string[] => [
      `${prefix}${taskId}`,
      `${KEY}ids:${agentId}`,
      `${KEY}finished:${agentId}`,
      `${KEY}finish-seq:${agentId}`,
    ];
    const contextKey = (contextId: string): string => `${KEY}context:${agentId}:${contextId}`;
    const evicted = (ids: unknown): void => {
      if (Array.isArray(ids)) for (const id of ids) onEvict(String(id));
    };
    return {
      async get(taskId) {
        const json = await client.get(`${prefix}${taskId}`);
        return json === null ? undefined : (JSON.parse(json) as StoredTask);
      },
      async has(taskId) {
        return (await client.exists(`${prefix}${taskId}`)) === 1;
      },
      async hasContext(contextId) {
        return (await client.exists(contextKey(contextId))) === 1;
      },
      async appendTurn(contextId, _sessionId, text) {
        const key = contextKey(contextId);
        const replies = await client.multi().rpush(key, text).lrange(key, 0, -1).exec();
        const turns = (replies?.[1]?.[1] ?? []) as string[];
        return turns.slice(0, -1);
      },
      async save(task, finished) {
        const args = [task.id, taskJson(task), task.version, finished ? 1 : 0, prefix, maxTasks];
        evicted(await client.eval(lua.SAVE_TASK, 4, ...keys(task.id), ...args));
      },
      async finishIfLive(task) {
        const args = [task.id, taskJson(task), task.version, 1, prefix, maxTasks];
        const json = await client.eval(lua.FINISH_IF_LIVE, 4, ...keys(task.id), ...args);
        return typeof json === 'string' ? (JSON.parse(json) as StoredTask) : undefined;
      },
    };
  }

  rateWindow(agentId: string, limit: number): RateWindow {
    const { client } = this;
    const key = `${KEY}rate:${agentId}`;
    return {
      limit,
      async take(now = Date.now()): Promise<RateDecision> {
        const oldest = await client.eval(
          lua.TAKE_RATE,
          1,
          key,
          now,
          WINDOW_MS,
          limit,
          `${now}:${randomUUID()}`,
        );
        if (oldest === null) return { allowed: true };
        const retryAfterSeconds = Math.max(1, Math.ceil((Number(oldest) + WINDOW_MS - now) / 1000));
        return { allowed: false, retryAfterSeconds };
      },
    };
  }

  slots(agentId: string, limit: number, start: (taskId: string) => void): TaskSlots {
    const { client } = this;
    const keys = [`${KEY}waiting:${agentId}`, `${KEY}running:${agentId}`];
    const starters = this.starters.get(agentId) ?? [];
    this.starters.set(agentId, [...starters, start]);
    const admit = (op: string, taskId: string): void => {
      void client.eval(lua.ADMIT, 2, ...keys, op, taskId, limit, STARTS, agentId).catch((error: unknown) => {
        // A slot released while the server closes has nowhere to go, and nobody waits for it.
        if (this.closed) return;
        process.stderr.write(`reference-server: task slots of ${agentId}: ${String(error)}\n`);
      });
    };
    return {
      enqueue: (taskId) => admit('push', taskId),
      remove: (taskId) => admit('remove', taskId),
      release: (taskId) => admit('release', taskId),
      clear: () => this.starters.delete(agentId),
    };
  }

  configs(maxTaskConfigsPerAgent: number): ConfigTable {
    const { client } = this;
    const hash = (agentId: string): string => `${KEY}webhooks:${agentId}`;
    const used = `${KEY}webhook-used`;
    const parse = (json: unknown): StoredConfig | undefined =>
      typeof json === 'string' ? (JSON.parse(json) as StoredConfig) : undefined;
    return {
      async put(agentId, taskId, input) {
        const stored = newStoredConfig(agentId, taskId, input);
        const args = [configField(taskId), JSON.stringify(stored), taskId === undefined ? 0 : 1];
        const reply = (await client.eval(
          lua.PUT_CONFIG,
          1,
          hash(agentId),
          ...args,
          maxTaskConfigsPerAgent,
        )) as [number, string?];
        if (reply[0] === 0) return tooManyTaskConfigs(maxTaskConfigsPerAgent);
        return { ok: true, result: { stored, replaced: parse(reply[1]) } };
      },
      async get(agentId, taskId) {
        const config = parse(await client.hget(hash(agentId), configField(taskId)));
        if (config !== undefined) config.lastUsed = (await client.hget(used, config.configId)) ?? null;
        return config;
      },
      async resolve(agentId, taskId) {
        const [own, agentLevel] = await client.hmget(
          hash(agentId),
          configField(taskId),
          configField(undefined),
        );
        return parse(own ?? agentLevel);
      },
      async forgetTask(agentId, taskId) {
        return parse(await client.eval(lua.TAKE_CONFIG, 1, hash(agentId), configField(taskId)));
      },
      markUsed(config, at) {
        config.lastUsed = at;
        void client.hset(used, config.configId, at).catch(() => undefined);
      },
    };
  }

  flush(): Promise<void> {
    return this.client.ping().then(() => undefined);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.listeners.clear();
    await Promise.allSettled([this.subscriber.quit(), this.client.quit()]);
  }

  private createOutbox(): Outbox {
    const { client } = this;
    const due = `${KEY}outbox:due`;
    const entries = `${KEY}outbox:entries`;
    const parse = (json: unknown): OutboxEntry | undefined =>
      typeof json === 'string' ? (JSON.parse(json) as OutboxEntry) : undefined;
    return {
      async schedule(entry, dueAt) {
        await client
          .multi()
          .hset(entries, entry.deliveryId, JSON.stringify(entry))
          .zadd(due, dueAt, entry.deliveryId)
          .exec();
      },
      async claim(deliveryId, now) {
        const args = [deliveryId, now, RETRY_LEASE_MS, CLAIM_SLACK_MS];
        return parse(await client.eval(lua.CLAIM_RETRY, 2, due, entries, ...args));
      },
      async claimOrphans(now, graceMs) {
        const args = [now - graceMs, now, RETRY_LEASE_MS, ORPHANS_PER_POLL];
        const found = (await client.eval(lua.CLAIM_ORPHANS, 2, due, entries, ...args)) as string[];
        return found.map((json) => JSON.parse(json) as OutboxEntry);
      },
      async settle(deliveryId) {
        await client.multi().zrem(due, deliveryId).hdel(entries, deliveryId).exec();
      },
    };
  }

  private createFanout(): Fanout {
    const { client, listeners, cancelHandlers } = this;
    return {
      publish(task) {
        // The routing key first, so a replica skips updates nobody there follows without parsing them.
        const message = `${task.agentId}\u0000${task.id}\u0000${taskJson(task)}`;
        void client.publish(UPDATES, message).catch(() => undefined);
      },
      subscribe(agentId, taskId, listener) {
        const key = `${agentId}\u0000${taskId}`;
        let set = listeners.get(key);
        if (set === undefined) {
          set = new Set();
          listeners.set(key, set);
        }
        set.add(listener);
        return () => {
          set.delete(listener);
          if (set.size === 0 && listeners.get(key) === set) listeners.delete(key);
        };
      },
      requestCancel(agentId, taskId, reason) {
        void client.publish(CANCELS, JSON.stringify({ agentId, taskId, reason })).catch(() => undefined);
      },
      onCancelRequest(handler) {
        cancelHandlers.push(handler);
      },
    };
  }

  private onMessage(channel: string, message: string): void {
    try {
      if (channel === STARTS) {
        const cut = message.indexOf('\u0000');
        const starters = this.starters.get(message.slice(0, cut)) ?? [];
        for (const start of starters) start(message.slice(cut + 1));
        return;
      }
      if (channel === CANCELS) {
        const { agentId, taskId, reason } = JSON.parse(message) as Record<string, string>;
        for (const handler of this.cancelHandlers) handler(String(agentId), String(taskId), String(reason));
        return;
      }
      const second = message.indexOf('\u0000', message.indexOf('\u0000') + 1);
      const set = this.listeners.get(message.slice(0, second));
      if (set === undefined) return;
      const task = JSON.parse(message.slice(second + 1)) as StoredTask;
      for (const listener of [...set]) listener(task);
    } catch {
      // A message this replica cannot read is another version's; it is not this replica's to answer.
    }
  }
}

/** The URL without its password, for messages. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return url;
  }
}
