// Webhook delivery scheduler (spec 6.2, 6.5; ruling C-20): attempts, retries with exponential backoff
// and per-(config, task) ordering. First attempts of one task to one config run one after another in
// transition order; retries then run on their own timers so a failing event never blocks later ones.
// With a shared outbox a retry is also written there: the replica that scheduled it claims it when
// it is due, and if that replica is gone another one claims it (same delivery id, C-20).
import { setMaxListeners } from 'node:events';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { ConfigTable, Outbox, OutboxEntry } from '../store/types.ts';
import type { AttemptRecord, DeliveryRecord, StoredConfig } from './types.ts';
import type { AttemptSender } from './attempt.ts';
import type { DeliveryLog } from './delivery-log.ts';
import { serialisePayload, type PayloadBase } from './payload.ts';
import { signBody } from './signer.ts';

interface Job {
  config: StoredConfig;
  base: PayloadBase;
  record: DeliveryRecord;
  timer: NodeJS.Timeout | undefined;
  /** performance.now() at the end of the previous attempt, to measure the actual retry delay. */
  lastEndedAt: number;
  scheduledDelayMs: number | undefined;
  canceled: boolean;
}

export interface Deliverer {
  enqueue(config: StoredConfig, base: PayloadBase): void;
  /** Cancels queued events and pending retries of a config (replaced or forgotten). */
  cancelConfig(configId: string): void;
  close(): Promise<void>;
}

/** C-20: retry n (attempt n+1) waits initialDelay * backoffMultiplier^(n-1) seconds. */
export function retryDelayMs(config: Pick<StoredConfig, 'retryPolicy'>, retry: number): number {
  const { initialDelay, backoffMultiplier } = config.retryPolicy;
  return initialDelay * backoffMultiplier ** (retry - 1) * 1000;
}

// setTimeout cannot wait longer than 2^31-1 ms (~24.8 days); a legal policy (3600 s * 10^9) can ask
// for more, so long waits are chained in steps of this size.
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface DelivererOptions {
  userAgent: string;
  sender: AttemptSender;
  log: DeliveryLog;
  /** Bound on events queued, in flight or waiting for a retry, across all agents. */
  maxPending: number;
  /** Where the configurations live: lastUsed is written back, and a retry checks its config is current. */
  configs: ConfigTable;
  outbox?: Outbox;
}

/** How often a replica looks for retries that their own replica did not take (it stopped). */
export const ORPHAN_POLL_MS = 500;
/** A due retry is an orphan once this late: its replica's own timer would have taken it by then. */
export const ORPHAN_GRACE_MS = 1000;

export function createDeliverer(opts: DelivererOptions): Deliverer {
  return new DeliveryScheduler(opts);
}

class DeliveryScheduler implements Deliverer {
  private readonly active = new Set<Job>();
  private readonly queues = new Map<string, Job[]>(); // head = the job whose first attempt is running
  private readonly closing = new AbortController();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly poller: NodeJS.Timeout | undefined;

  constructor(private readonly opts: DelivererOptions) {
    // Every attempt waiting for a connection slot listens here; their number is bounded by
    // maxPending, not by node's default of 10 listeners (which only warns).
    setMaxListeners(0, this.closing.signal);
    if (opts.outbox !== undefined) {
      const outbox = opts.outbox;
      this.poller = setInterval(() => this.track(this.adoptOrphans(outbox)), ORPHAN_POLL_MS);
      this.poller.unref();
    }
  }

  enqueue(config: StoredConfig, base: PayloadBase): void {
    const record: DeliveryRecord = {
      deliveryId: randomUUID(), // C-20: one id per event per config, constant across retries
      agentId: base.agentId,
      taskId: base.taskId,
      configId: config.configId,
      event: base.event,
      url: config.url,
      maxAttempts: config.retryPolicy.maxRetries + 1,
      status: 'pending',
      attempts: [],
    };
    this.opts.log.add(record);
    if (this.closing.signal.aborted || this.active.size >= this.opts.maxPending) {
      record.status = 'dropped';
      return;
    }
    const job: Job = {
      config,
      base,
      record,
      timer: undefined,
      lastEndedAt: 0,
      scheduledDelayMs: undefined,
      canceled: false,
    };
    this.active.add(job);
    const key = `${config.configId}\u0000${base.taskId}`;
    const queue = this.queues.get(key);
    if (queue) return void queue.push(job);
    this.queues.set(key, [job]);
    this.startHead(key);
  }

  cancelConfig(configId: string): void {
    for (const job of this.active) {
      if (job.config.configId === configId) this.cancel(job);
    }
  }

  async close(): Promise<void> {
    if (this.poller !== undefined) clearInterval(this.poller);
    this.closing.abort();
    for (const job of this.active) this.cancel(job);
    await Promise.allSettled([...this.inFlight]);
    await this.opts.sender.close();
  }

  private cancel(job: Job): void {
    job.canceled = true;
    this.finish(job, 'canceled');
  }

  private finish(job: Job, status: DeliveryRecord['status']): void {
    job.record.status = status;
    if (job.timer) clearTimeout(job.timer);
    this.active.delete(job);
  }

  /** Runs the first attempt of the queue head, then moves the queue on (transition order, C-20). */
  private startHead(key: string): void {
    const job = this.queues.get(key)?.[0];
    if (!job) return void this.queues.delete(key);
    this.track(
      this.runAttempt(job, 1).finally(() => {
        this.queues.get(key)?.shift();
        this.startHead(key);
      }),
    );
  }

  private track(promise: Promise<void>): void {
    this.inFlight.add(promise);
    // send() reports failures as outcomes; this only guards the process against an unforeseen throw.
    void promise.catch(() => undefined).finally(() => this.inFlight.delete(promise));
  }

  private async runAttempt(job: Job, attempt: number): Promise<void> {
    if (job.canceled) return;
    const started = performance.now();
    const entry: AttemptRecord = { attempt, startedAt: new Date().toISOString(), durationMs: 0 };
    if (attempt > 1) {
      entry.scheduledDelayMs = job.scheduledDelayMs;
      entry.actualDelayMs = Math.round(started - job.lastEndedAt);
    }
    this.opts.configs.markUsed(job.config, entry.startedAt); // C-20: lastUsed is the time of the latest attempt
    job.record.attempts.push(entry);
    const body = serialisePayload(job.base, attempt, job.record.maxAttempts); // serialised once...
    const headers = this.headersFor(job, body); // ...signed...
    const outcome = await this.opts.sender.send(job.config.url, headers, body, this.closing.signal); // ...sent
    job.lastEndedAt = performance.now();
    entry.durationMs = Math.round(job.lastEndedAt - started);
    if ('statusCode' in outcome && outcome.statusCode !== undefined) entry.statusCode = outcome.statusCode;
    if (outcome.kind !== 'acknowledged') entry.error = outcome.error;
    if (job.canceled) return;
    const retry = outcome.kind === 'failed' && attempt < job.record.maxAttempts;
    if (!retry && this.opts.outbox !== undefined && attempt > 1)
      await this.opts.outbox.settle(job.record.deliveryId);
    if (outcome.kind === 'acknowledged') return this.finish(job, 'delivered');
    if (outcome.kind === 'refused') return this.finish(job, 'refused');
    if (!retry) return this.finish(job, 'failed');
    this.scheduleRetry(job, attempt + 1, retryDelayMs(job.config, attempt));
  }

  /** The retry as the outbox keeps it. */
  private entryOf(job: Job, attempt: number): OutboxEntry {
    return {
      deliveryId: job.record.deliveryId,
      config: job.config,
      base: job.base,
      maxAttempts: job.record.maxAttempts,
      attempt,
      scheduledDelayMs: job.scheduledDelayMs ?? 0,
      lastEndedAt: Date.now() - (performance.now() - job.lastEndedAt),
    };
  }

  /** A claimed retry is sent only while its configuration is still the one of its scope. */
  private async isCurrent(config: StoredConfig): Promise<boolean> {
    const current = await this.opts.configs.get(config.agentId, config.taskId);
    return current?.configId === config.configId;
  }

  /** Runs one claimed retry from the outbox; `job` when this replica scheduled it. */
  private async runClaimed(outbox: Outbox, job: Job, attempt: number): Promise<void> {
    if (!(await this.isCurrent(job.config))) {
      await outbox.settle(job.record.deliveryId);
      return this.finish(job, 'canceled');
    }
    await this.runAttempt(job, attempt);
  }

  /** Retries scheduled by a replica that stopped: sent from here with their delivery id. */
  private async adoptOrphans(outbox: Outbox): Promise<void> {
    if (this.closing.signal.aborted) return;
    const entries = await outbox.claimOrphans(Date.now(), ORPHAN_GRACE_MS);
    for (const entry of entries) {
      const record: DeliveryRecord = {
        deliveryId: entry.deliveryId,
        agentId: entry.base.agentId,
        taskId: entry.base.taskId,
        configId: entry.config.configId,
        event: entry.base.event,
        url: entry.config.url,
        maxAttempts: entry.maxAttempts,
        status: 'pending',
        attempts: [],
      };
      this.opts.log.add(record);
      const job: Job = {
        config: entry.config,
        base: entry.base,
        record,
        timer: undefined,
        lastEndedAt: performance.now() - (Date.now() - entry.lastEndedAt),
        scheduledDelayMs: entry.scheduledDelayMs,
        canceled: false,
      };
      this.active.add(job);
      this.track(this.runClaimed(outbox, job, entry.attempt));
    }
  }

  private headersFor(job: Job, body: Buffer): Record<string, string> {
    const headers: Record<string, string> = {
      ...job.config.headers,
      'Content-Type': 'application/json',
      'X-Webhook-Event': job.base.event,
      'X-Webhook-Delivery': job.record.deliveryId,
      'User-Agent': this.opts.userAgent,
    };
    if (job.config.secret !== undefined) headers['X-Webhook-Signature'] = signBody(job.config.secret, body);
    return headers;
  }

  private scheduleRetry(job: Job, attempt: number, delayMs: number): void {
    job.scheduledDelayMs = Math.round(delayMs);
    const { outbox } = this.opts;
    if (outbox !== undefined) {
      this.track(outbox.schedule(this.entryOf(job, attempt), Date.now() + delayMs));
    }
    const due = (): Promise<void> => {
      if (outbox === undefined) return this.runAttempt(job, attempt);
      // Taken here unless another replica took it (this one was too late) or it was settled.
      return outbox.claim(job.record.deliveryId, Date.now()).then((entry) => {
        if (entry === undefined) return this.finish(job, 'canceled');
        return this.runClaimed(outbox, job, attempt);
      });
    };
    const wait = (remaining: number): void => {
      const step = Math.min(remaining, MAX_TIMER_MS);
      job.timer = setTimeout(() => {
        if (remaining > step) wait(remaining - step);
        else this.track(due());
      }, step);
      // A pending retry must not keep the process alive on its own; close() cancels it anyway.
      job.timer.unref();
    };
    wait(delayMs);
  }
}
