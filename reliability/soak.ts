// The soak run: N concurrent clients for a duration against a reference server in a child process,
// mixing message/send, message/stream, tasks/get, tasks/cancel, tasks/resubscribe and
// tasks/pushNotificationConfig/set (spec 4.1-4.7), with webhooks delivered to a local receiver (one
// path always acknowledges, one fails every first attempt so retries run, C-20). At the end every
// task must be final, every subscribed event delivered (or recorded failed after its retries), and
// the heap after GC bounded; every answer is judged by reliability/response-check.ts.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';
import { startChildServer, type ChildServer, type MemoryFigures } from './child-server.ts';
import { checkResponse } from './response-check.ts';

export interface SoakOptions {
  clients: number;
  durationMs: number;
  /** How long tasks and deliveries may take to settle after the load stops. */
  settleMs: number;
  /** Heap samples (after GC) during the run, every this many ms. */
  sampleEveryMs: number;
  onSample?: (elapsedMs: number, memory: MemoryFigures, operations: number) => void;
}

export const SOAK_DEFAULTS: SoakOptions = {
  clients: 200,
  durationMs: 60_000,
  settleMs: 90_000,
  sampleEveryMs: 10_000,
};

const AGENT = 'soak-agent';
const KEY = 'soak-key-0123456789';
/** Retention cap of the soak agent: small enough that a full run reaches it, so the heap plateaus. */
export const SOAK_MAX_TASKS = 5000;
const FINAL = new Set(['completed', 'failed', 'canceled']);
const FINAL_EVENT: Record<string, string> = {
  completed: 'task.completed',
  failed: 'task.failed',
  canceled: 'task.canceled',
};
/** Webhook events the soak server holds at once (C-50); the default is 10,000. */
export const SOAK_MAX_PENDING = 2000;
/** Deliveries kept by the server for the final accounting: more than a 60 s run produces. */
const SOAK_DELIVERY_LOG_SIZE = 200_000;
/** Connection errors of a reused connection the server closed before reading the request (C-49). */
const UNREAD_CLOSE = new Set(['UND_ERR_SOCKET', 'ECONNRESET']);
const RETRY_POLICY = { maxRetries: 3, initialDelay: 0.05, backoffMultiplier: 2 };

export type Operation = 'send' | 'stream' | 'get' | 'cancel' | 'resubscribe' | 'webhook-set';
const MIX: ReadonlyArray<[Operation, number]> = [
  ['send', 25],
  ['stream', 20],
  ['get', 20],
  ['cancel', 12],
  ['resubscribe', 12],
  ['webhook-set', 11],
];

export interface SoakReport {
  clients: number;
  durationMs: number;
  operations: Record<Operation, number>;
  requests: number;
  /** Requests resent once after the server closed their reused connection unread (C-49). */
  resent: number;
  /** Answers by outcome (`<status> <code>`, `200 sse <state>`). */
  outcomes: Record<string, number>;
  /** Answers that break a ruling or the operation's expectation, by reason (first examples kept). */
  errors: Record<string, number>;
  errorExamples: string[];
  tasks: { created: number; finalSeen: number; stuck: string[]; byState: Record<string, number> };
  webhooks: {
    expectedEvents: number;
    delivered: number;
    recordedFailed: number;
    /** Not attempted: the backlog bound was reached (C-50). */
    dropped: number;
    /** Pending attempts canceled because the task was evicted with its configuration (C-44). */
    canceled: number;
    /** Delivery outcomes in the server's log, by status. */
    logByStatus: Record<string, number>;
    /** Why the attempts of failed deliveries failed, by error text. */
    failedAttemptErrors: Record<string, number>;
    lostCount: number;
    lost: string[];
    /** Same (task, event) received under two delivery ids: a duplicate that is not a retry. */
    duplicates: string[];
    retriedDeliveries: number;
    attemptsReceived: number;
  };
  memory: {
    start: MemoryFigures;
    samples: Array<{ atMs: number; heapUsed: number; rss: number }>;
    end: MemoryFigures;
  };
  crashed: boolean;
  stderr: string;
}

interface Received {
  deliveryIds: Set<string>;
  acked: boolean;
  attempts: number;
}

/** The webhook receiver: `/ok` acknowledges, `/flaky` answers 500 to every first attempt. */
async function startReceiver(): Promise<{
  server: Server;
  origin: string;
  events: Map<string, Received>;
  attempts: () => number;
}> {
  const events = new Map<string, Received>();
  let attempts = 0;
  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      attempts += 1;
      const payload = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        taskId: string;
        event: string;
        delivery: { attempt: number };
      };
      const key = `${payload.taskId} ${payload.event}`;
      const entry = events.get(key) ?? { deliveryIds: new Set<string>(), acked: false, attempts: 0 };
      events.set(key, entry);
      entry.deliveryIds.add(String(req.headers['x-webhook-delivery']));
      entry.attempts += 1;
      const fail = req.url === '/flaky' && payload.delivery.attempt === 1;
      if (!fail) entry.acked = true;
      res.writeHead(fail ? 500 : 200).end();
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, origin: `http://127.0.0.1:${port}`, events, attempts: () => attempts };
}

const directive = (fields: Record<string, unknown>) => ({
  type: 'text',
  text: `a2a:directive ${JSON.stringify(fields)}`,
});

export async function runSoak(options: Partial<SoakOptions> = {}): Promise<SoakReport> {
  const opts = { ...SOAK_DEFAULTS, ...options };
  const receiver = await startReceiver();
  const child = await startChildServer({
    agents: [
      {
        id: AGENT,
        apiKeys: [KEY],
        limits: { requestsPerMinute: 1_000_000, concurrentTasks: 64 },
        maxStreams: opts.clients * 2 + 10,
        maxTasks: SOAK_MAX_TASKS,
        systemTimeoutMs: 30_000,
      },
    ],
    allowPrivateWebhookTargets: true,
    // Every delivery of the run stays in the log, so each event is accounted for (its heap is counted).
    deliveryLogSize: SOAK_DELIVERY_LOG_SIZE,
    // A backlog the receiver can work off within the settle time; beyond it events are dropped (C-50).
    maxPendingDeliveries: SOAK_MAX_PENDING,
  });
  const dispatcher = new Agent({ connections: opts.clients * 2 + 10, pipelining: 1 });
  const url = `${child.baseUrl}/api/v1/a2a/${AGENT}`;
  const operations = Object.fromEntries(MIX.map(([op]) => [op, 0])) as Record<Operation, number>;
  const outcomes: Record<string, number> = {};
  const errors: Record<string, number> = {};
  const errorExamples: string[] = [];
  /** Every task a client created, with the final state it saw (undefined when it saw none). */
  const tasks = new Map<string, string | undefined>();
  const finished: string[] = [];
  let requests = 0;
  let resent = 0;
  let seq = 0;

  const fault = (reason: string, detail: string): void => {
    errors[reason] = (errors[reason] ?? 0) + 1;
    if (errorExamples.length < 20) errorExamples.push(`${reason}: ${detail.slice(0, 300)}`);
  };
  const noteTask = (task: { id?: unknown; status?: { state?: unknown } } | undefined): void => {
    if (typeof task?.id !== 'string') return;
    const state = typeof task.status?.state === 'string' ? task.status.state : undefined;
    if (!tasks.has(task.id)) tasks.set(task.id, undefined);
    if (state !== undefined && FINAL.has(state) && tasks.get(task.id) === undefined) {
      tasks.set(task.id, state);
      finished.push(task.id);
    }
  };

  const headers = { 'content-type': 'application/json', 'x-api-key': KEY };
  const body = (method: string, params: unknown): string =>
    JSON.stringify({ jsonrpc: '2.0', id: `s-${(seq += 1)}`, method, params });

  /** One POST; resent once when the server closed the reused connection without reading it (C-49). */
  async function post(method: string, params: unknown) {
    requests += 1;
    const text = body(method, params);
    try {
      return await request(url, { dispatcher, method: 'POST', headers, body: text });
    } catch (error) {
      if (!UNREAD_CLOSE.has(String((error as { code?: unknown }).code))) throw error;
      resent += 1;
      return request(url, { dispatcher, method: 'POST', headers, body: text });
    }
  }

  /** One JSON call; returns the result, or undefined after recording why not. */
  async function call(
    method: string,
    params: unknown,
    allowed: number[] = [],
  ): Promise<Record<string, unknown> | undefined> {
    const res = await post(method, params);
    const text = await res.body.text();
    const type = String(res.headers['content-type'] ?? '').split(';')[0];
    const verdict = checkResponse(res.statusCode, type, text, 'POST', method);
    if (!verdict.ok) return void fault('invalid answer', `${method}: ${verdict.reason}`);
    outcomes[verdict.outcome] = (outcomes[verdict.outcome] ?? 0) + 1;
    if (type === 'text/event-stream') return { streamed: text };
    const json = JSON.parse(text) as { result?: Record<string, unknown>; error?: { code: number } };
    if (json.error !== undefined) {
      if (!allowed.includes(json.error.code)) fault(`${method} error ${json.error.code}`, text);
      return undefined;
    }
    return json.result;
  }

  /** A message/stream (or resubscribe) read event by event; `onFirst` runs after the first event. */
  async function stream(
    method: string,
    params: unknown,
    onFirst?: (taskId: string) => Promise<void>,
  ): Promise<void> {
    const res = await post(method, params);
    const type = String(res.headers['content-type'] ?? '').split(';')[0];
    let text = '';
    let first = true;
    let pendingFirst: Promise<void> | undefined;
    for await (const chunk of res.body) {
      text += (chunk as Buffer).toString('utf8');
      if (first && type === 'text/event-stream' && text.includes('\n\n')) {
        first = false;
        const event = JSON.parse(text.slice(6, text.indexOf('\n\n'))) as { result?: { id?: string } };
        noteTask(event.result);
        const id = event.result?.id;
        if (id !== undefined && onFirst) pendingFirst = onFirst(id);
      }
    }
    await pendingFirst;
    const verdict = checkResponse(res.statusCode, type, text, 'POST', method);
    if (!verdict.ok) return fault('invalid answer', `${method}: ${verdict.reason}`);
    outcomes[verdict.outcome] = (outcomes[verdict.outcome] ?? 0) + 1;
    if (type !== 'text/event-stream') {
      const json = JSON.parse(text) as { result?: Record<string, unknown>; error?: unknown };
      if (json.error !== undefined) return fault(`${method} error`, text);
      return noteTask(json.result);
    }
    const frames = text.split('\n\n').filter((frame) => frame.startsWith('data: '));
    const last = JSON.parse((frames[frames.length - 1] ?? 'data: {}').slice(6)) as {
      result?: { id?: string };
    };
    noteTask(last.result);
  }

  const message = (...parts: unknown[]) => ({
    message: {
      role: 'user',
      messageId: crypto.randomUUID(),
      parts: [{ type: 'text', text: 'soak' }, ...parts],
    },
  });
  const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)] as T;

  const run: Record<Operation, () => Promise<void>> = {
    async send() {
      noteTask(await call('message/send', message(directive({ delayMs: Math.floor(Math.random() * 50) }))));
    },
    stream: () => stream('message/stream', message(directive({ delayMs: 60, progressSteps: 2 }))),
    async get() {
      const id = finished.length > 0 ? pick(finished) : undefined;
      if (id === undefined) return run.send();
      // An evicted finished task answers -32000 (C-44); only finished ones are ever picked.
      const result = await call('tasks/get', { taskId: id }, [-32000]);
      if (result !== undefined && !FINAL.has(String((result.status as { state?: string })?.state))) {
        fault('finished task not final in tasks/get', JSON.stringify(result));
      }
    },
    cancel: () =>
      stream('message/stream', message(directive({ runUntilCanceled: true })), async (taskId) => {
        // A task queued behind the concurrency cap (C-21) is canceled from `submitted` too. -32002:
        // the system timeout (C-05) canceled it first, when the machine is too slow (C-07).
        const result = await call('tasks/cancel', { taskId, reason: 'soak' }, [-32002]);
        noteTask(result);
      }),
    resubscribe: () =>
      stream('message/stream', message(directive({ delayMs: 150, progressSteps: 3 })), (taskId) =>
        stream('tasks/resubscribe', { taskId }),
      ),
    'webhook-set': () =>
      stream('message/stream', message(directive({ delayMs: 100 })), async (taskId) => {
        const config = { url: `${receiver.origin}/flaky`, retryPolicy: RETRY_POLICY };
        // The task may already be final (then its events went to the agent-level config). Past 1000
        // task-level configurations the agent answers -32602 (C-42), a ruled limit.
        await call('tasks/pushNotificationConfig/set', { taskId, config }, [-32602]);
      }),
  };
  const weights = MIX.reduce((sum, [, weight]) => sum + weight, 0);
  const choose = (): Operation => {
    let roll = Math.random() * weights;
    for (const [op, weight] of MIX) if ((roll -= weight) < 0) return op;
    return 'send';
  };

  const samples: Array<{ atMs: number; heapUsed: number; rss: number }> = [];
  let start: MemoryFigures;
  let end: MemoryFigures;
  try {
    await call('tasks/pushNotificationConfig/set', {
      config: { url: `${receiver.origin}/ok`, retryPolicy: RETRY_POLICY },
    });
    start = (await child.stats()).memory;
    const t0 = performance.now();
    const deadline = t0 + opts.durationMs;
    const sampler = setInterval(() => {
      void child
        .stats()
        .then(({ memory }) => {
          const atMs = Math.round(performance.now() - t0);
          samples.push({ atMs, heapUsed: memory.heapUsed, rss: memory.rss });
          opts.onSample?.(atMs, memory, requests);
        })
        .catch(() => undefined);
    }, opts.sampleEveryMs);
    // Client i starts with operation i of the mix, so with six clients or more every operation runs.
    const client = async (_: unknown, index: number): Promise<void> => {
      let first = true;
      while (performance.now() < deadline && child.exit() === undefined) {
        const op = first ? (MIX[index % MIX.length]?.[0] ?? choose()) : choose();
        first = false;
        operations[op] += 1;
        try {
          await run[op]();
        } catch (error) {
          fault(`${op} request failed`, (error as Error).message);
        }
      }
    };
    await Promise.all(Array.from({ length: opts.clients }, client));
    clearInterval(sampler);
    await settle(child, tasks, opts.settleMs, call);
    end = child.exit() === undefined ? (await child.stats()).memory : start;
  } finally {
    await dispatcher.close();
  }
  const deliveries = child.exit() === undefined ? await child.deliveries() : [];
  const exit = await child.stop();
  await new Promise<void>((resolve) => receiver.server.close(() => resolve()));
  receiver.server.closeAllConnections();

  // Tasks: every one final, as seen by its client or by tasks/get in settle().
  const byState: Record<string, number> = {};
  const stuck: string[] = [];
  for (const [id, state] of tasks) {
    byState[state ?? 'not final'] = (byState[state ?? 'not final'] ?? 0) + 1;
    if (state === undefined) stuck.push(id);
  }
  // Webhooks: task.submitted and the final event of every task, each under one delivery id.
  const logByStatus: Record<string, number> = {};
  const failedAttemptErrors: Record<string, number> = {};
  for (const record of deliveries) {
    logByStatus[record.status] = (logByStatus[record.status] ?? 0) + 1;
    if (record.status !== 'failed') continue;
    for (const attempt of record.attempts) {
      const why = attempt.error ?? `HTTP ${attempt.statusCode}`;
      failedAttemptErrors[why] = (failedAttemptErrors[why] ?? 0) + 1;
    }
  }
  // The settled status of each (task, event) in the server's log; several configs never share one.
  const statusInLog = new Map(deliveries.map((d) => [`${d.taskId} ${d.event}`, d.status]));
  let expectedEvents = 0;
  let delivered = 0;
  let recordedFailed = 0;
  let dropped = 0;
  let canceled = 0;
  const lost: string[] = [];
  for (const [id, state] of tasks) {
    if (state === undefined) continue;
    for (const event of ['task.submitted', FINAL_EVENT[state] as string]) {
      expectedEvents += 1;
      const key = `${id} ${event}`;
      if (receiver.events.get(key)?.acked === true) delivered += 1;
      else if (statusInLog.get(key) === 'failed') recordedFailed += 1;
      else if (statusInLog.get(key) === 'dropped')
        dropped += 1; // past the backlog bound (C-50)
      else if (statusInLog.get(key) === 'canceled')
        canceled += 1; // task evicted (C-44)
      else lost.push(key);
    }
  }
  const duplicates: string[] = [];
  let retriedDeliveries = 0;
  for (const [key, entry] of receiver.events) {
    if (entry.deliveryIds.size > 1) duplicates.push(key);
    if (entry.attempts > 1) retriedDeliveries += 1;
  }
  return {
    clients: opts.clients,
    durationMs: opts.durationMs,
    operations,
    requests,
    resent,
    outcomes,
    errors,
    errorExamples,
    tasks: { created: tasks.size, finalSeen: tasks.size - stuck.length, stuck: stuck.slice(0, 20), byState },
    webhooks: {
      expectedEvents,
      delivered,
      recordedFailed,
      dropped,
      canceled,
      logByStatus,
      failedAttemptErrors,
      lostCount: lost.length,
      lost: lost.slice(0, 20),
      duplicates: duplicates.slice(0, 20),
      retriedDeliveries,
      attemptsReceived: receiver.attempts(),
    },
    memory: { start, samples, end },
    crashed: exit.crashed,
    stderr: child.stderr(),
  };
}

/** Waits for the tasks no client saw end, and for every webhook delivery to settle, up to `settleMs`. */
async function settle(
  child: ChildServer,
  tasks: Map<string, string | undefined>,
  settleMs: number,
  call: (method: string, params: unknown, allowed?: number[]) => Promise<Record<string, unknown> | undefined>,
): Promise<void> {
  const until = performance.now() + settleMs;
  while (performance.now() < until && child.exit() === undefined) {
    for (const [id, state] of tasks) {
      if (state !== undefined) continue;
      const result = await call('tasks/get', { taskId: id });
      const now = String((result?.status as { state?: string } | undefined)?.state);
      if (FINAL.has(now)) tasks.set(id, now);
    }
    const unfinished = [...tasks.values()].some((state) => state === undefined);
    const { deliveries } = await child.stats();
    if (!unfinished && (deliveries.pending ?? 0) === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Heap bound of a soak run: the retained tasks (at most SOAK_MAX_TASKS) and delivery records fit in it. */
export const SOAK_HEAP_BOUND_BYTES = 160 * 1024 * 1024;

/** What makes a soak run fail; empty when it passed. */
export function soakVerdict(report: SoakReport): string[] {
  const problems: string[] = [];
  const errorCount = Object.values(report.errors).reduce((a, b) => a + b, 0);
  if (errorCount > 0) problems.push(`${errorCount} errors beyond the ruled limits`);
  if (report.tasks.stuck.length > 0) problems.push(`${report.tasks.stuck.length} tasks not final`);
  if (report.webhooks.lostCount > 0) problems.push(`${report.webhooks.lostCount} webhook events lost`);
  if (report.webhooks.duplicates.length > 0)
    problems.push(`${report.webhooks.duplicates.length} duplicate deliveries`);
  if (report.crashed) problems.push('the server process crashed');
  const peak = Math.max(report.memory.end.heapUsed, ...report.memory.samples.map((s) => s.heapUsed));
  if (peak > SOAK_HEAP_BOUND_BYTES) problems.push(`heap reached ${peak} bytes`);
  return problems;
}
