// Webhook delivery scheduler (spec 6.2, 6.5; ruling C-20): attempts, retries with exponential backoff
// and per-(config, task) ordering. First attempts of one task to one config run one after another in
// transition order; retries then run on their own timers so a failing event never blocks later ones.
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
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

export function createDeliverer(opts: {
  userAgent: string;
  sender: AttemptSender;
  log: DeliveryLog;
  /** Bound on events queued, in flight or waiting for a retry, across all agents. */
  maxPending: number;
}): Deliverer {
  const { userAgent, sender, log, maxPending } = opts;
  const active = new Set<Job>();
  const queues = new Map<string, Job[]>(); // head = the job whose first attempt is running
  const closing = new AbortController();
  const inFlight = new Set<Promise<void>>();

  function finish(job: Job, status: DeliveryRecord['status']): void {
    job.record.status = status;
    if (job.timer) clearTimeout(job.timer);
    active.delete(job);
  }

  function headersFor(job: Job, body: Buffer): Record<string, string> {
    const headers: Record<string, string> = {
      ...job.config.headers,
      'Content-Type': 'application/json',
      'X-Webhook-Event': job.base.event,
      'X-Webhook-Delivery': job.record.deliveryId,
      'User-Agent': userAgent,
    };
    if (job.config.secret !== undefined) headers['X-Webhook-Signature'] = signBody(job.config.secret, body);
    return headers;
  }

  async function runAttempt(job: Job, attempt: number): Promise<void> {
    if (job.canceled) return;
    const started = performance.now();
    const entry: AttemptRecord = { attempt, startedAt: new Date().toISOString(), durationMs: 0 };
    if (attempt > 1) {
      entry.scheduledDelayMs = job.scheduledDelayMs;
      entry.actualDelayMs = Math.round(started - job.lastEndedAt);
    }
    job.config.lastUsed = entry.startedAt; // C-20: lastUsed is the time of the latest attempt
    job.record.attempts.push(entry);
    const body = serialisePayload(job.base, attempt, job.record.maxAttempts); // serialised once...
    const outcome = await sender.send(job.config.url, headersFor(job, body), body, closing.signal); // ...sent as signed
    job.lastEndedAt = performance.now();
    entry.durationMs = Math.round(job.lastEndedAt - started);
    if ('statusCode' in outcome && outcome.statusCode !== undefined) entry.statusCode = outcome.statusCode;
    if (outcome.kind !== 'acknowledged') entry.error = outcome.error;
    if (job.canceled) return;
    if (outcome.kind === 'acknowledged') return finish(job, 'delivered');
    if (outcome.kind === 'refused') return finish(job, 'refused');
    if (attempt >= job.record.maxAttempts) return finish(job, 'failed');
    scheduleRetry(job, attempt + 1, retryDelayMs(job.config, attempt));
  }

  function scheduleRetry(job: Job, attempt: number, delayMs: number): void {
    job.scheduledDelayMs = Math.round(delayMs);
    const wait = (remaining: number): void => {
      job.timer = setTimeout(
        () => (remaining > MAX_TIMER_MS ? wait(remaining - MAX_TIMER_MS) : track(runAttempt(job, attempt))),
        Math.min(remaining, MAX_TIMER_MS),
      );
      // A pending retry must not keep the process alive on its own; close() cancels it anyway.
      job.timer.unref();
    };
    wait(delayMs);
  }

  function track(promise: Promise<void>): void {
    inFlight.add(promise);
    void promise.finally(() => inFlight.delete(promise));
  }

  /** Runs the first attempt of the queue head, then moves the queue on (transition order, C-20). */
  function startHead(key: string): void {
    const job = queues.get(key)?.[0];
    if (!job) return void queues.delete(key);
    track(
      runAttempt(job, 1).finally(() => {
        queues.get(key)?.shift();
        startHead(key);
      }),
    );
  }

  return {
    enqueue(config, base) {
      const maxAttempts = config.retryPolicy.maxRetries + 1;
      const record: DeliveryRecord = {
        deliveryId: randomUUID(), // C-20: one id per event per config, constant across retries
        agentId: base.agentId,
        taskId: base.taskId,
        configId: config.configId,
        event: base.event,
        url: redactUrl(config.url),
        maxAttempts,
        status: 'pending',
        attempts: [],
      };
      log.add(record);
      if (closing.signal.aborted || active.size >= maxPending) return void (record.status = 'dropped');
      const job: Job = {
        config,
        base,
        record,
        timer: undefined,
        lastEndedAt: 0,
        scheduledDelayMs: undefined,
        canceled: false,
      };
      active.add(job);
      const key = `${config.configId}\u0000${base.taskId}`;
      const queue = queues.get(key);
      if (queue) return void queue.push(job);
      queues.set(key, [job]);
      startHead(key);
    },

    cancelConfig(configId) {
      for (const job of active) {
        if (job.config.configId !== configId) continue;
        job.canceled = true;
        finish(job, 'canceled');
      }
    },

    async close() {
      closing.abort();
      for (const job of active) {
        job.canceled = true;
        finish(job, 'canceled');
      }
      await Promise.allSettled([...inFlight]);
      await sender.close();
    },
  };
}

/** Drops userinfo from URLs kept in the diagnostics log (it may hold credentials). */
function redactUrl(raw: string): string {
  const url = new URL(raw);
  url.username = '';
  url.password = '';
  return url.href;
}
