// Webhook delivery against faulty receivers (spec 6.5; rulings C-20, C-42): receivers that answer
// 500, hang past the 5 s attempt limit, reset the connection, read the request slowly or trickle
// their answer. One agent per receiver with an agent-level configuration; each agent runs tasks, and
// every (task, event) must end delivered within its retry budget or recorded failed after its
// retries, under one delivery id (a second id would be a duplicate that is not a retry).
import net, { type AddressInfo } from 'node:net';
import type { DeliveryRecord } from '../reference-server/index.ts';
import { startChildServer } from './child-server.ts';

/** What the receiver does with attempt n (1-based) of a delivery. */
type Behaviour =
  | 'ok'
  | 'status-500'
  | 'reset'
  | 'hang'
  /** Reads the request READ_CHUNK bytes per tick, then answers 200. */
  | 'slow-read'
  /** Answers 200 at once, then trickles a body that never ends. */
  | 'slow-answer';

export interface Scenario {
  name: string;
  /** The behaviour for attempt n; the last entry repeats. */
  behaviours: Behaviour[];
  maxRetries: number;
  /** Webhook events of the configuration (the first attempts of one task run one after another). */
  events?: string[];
  tasks: number;
  /** The status every delivery of the scenario must end in. */
  expect: 'delivered' | 'failed';
  /** The attempt that is acknowledged, for `delivered`. */
  ackedAttempt?: number;
  /** ms between reads for `slow-read` (READ_CHUNK bytes a read). */
  readTickMs?: number;
}

/** Bytes a slow reader takes per tick. */
const READ_CHUNK = 64;
const RETRY = { initialDelay: 0.05, backoffMultiplier: 2 };
const ONLY_COMPLETED = ['task.completed'];

/** Scenarios that finish within a few seconds, plus (with `long`) those that wait out 5 s attempts. */
export function scenarios(long: boolean, extra: readonly string[] = []): Scenario[] {
  const quick: Scenario[] = [
    { name: 'always-500', behaviours: ['status-500'], maxRetries: 2, tasks: 3, expect: 'failed' },
    {
      name: '500-then-ok',
      behaviours: ['status-500', 'status-500', 'ok'],
      maxRetries: 3,
      tasks: 3,
      expect: 'delivered',
      ackedAttempt: 3,
    },
    { name: 'always-reset', behaviours: ['reset'], maxRetries: 2, tasks: 3, expect: 'failed' },
    {
      name: 'reset-then-ok',
      behaviours: ['reset', 'ok'],
      maxRetries: 2,
      tasks: 3,
      expect: 'delivered',
      ackedAttempt: 2,
    },
    {
      name: 'slow-read',
      behaviours: ['slow-read'],
      maxRetries: 0,
      tasks: 2,
      expect: 'delivered',
      ackedAttempt: 1,
      readTickMs: 5,
    },
    {
      name: 'slow-answer',
      behaviours: ['slow-answer'],
      maxRetries: 0,
      tasks: 2,
      expect: 'delivered',
      ackedAttempt: 1,
    },
  ];
  const slow: Scenario[] = [
    { name: 'hang', behaviours: ['hang'], maxRetries: 1, events: ONLY_COMPLETED, tasks: 1, expect: 'failed' },
    {
      name: 'hang-then-ok',
      behaviours: ['hang', 'ok'],
      maxRetries: 1,
      events: ONLY_COMPLETED,
      tasks: 2,
      expect: 'delivered',
      ackedAttempt: 2,
    },
    // About 700 bytes at 64 bytes per 1000 ms: well past the 5 s attempt limit.
    {
      name: 'slow-read-past-5s',
      behaviours: ['slow-read'],
      maxRetries: 0,
      events: ONLY_COMPLETED,
      tasks: 1,
      expect: 'failed',
      readTickMs: 1000,
    },
  ];
  return [...quick, ...slow.filter((scenario) => long || extra.includes(scenario.name))];
}

interface Attempt {
  taskId: string;
  event: string;
  deliveryId: string;
  attempt: number;
  acked: boolean;
}

interface Receiver {
  url: string;
  attempts: Attempt[];
  close(): Promise<void>;
}

function parsePayload(body: string): { taskId: string; event: string; delivery: { attempt: number } } {
  return JSON.parse(body) as { taskId: string; event: string; delivery: { attempt: number } };
}

/** A raw TCP receiver, so it can read slowly, hang or reset exactly as told. */
async function startReceiver(scenario: Scenario): Promise<Receiver> {
  const attempts: Attempt[] = [];
  const sockets = new Set<net.Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let buffered = Buffer.alloc(0);
    let readTick: NodeJS.Timeout | undefined;
    // Each request on a keep-alive connection is handled when complete.
    const onBytes = (chunk: Buffer): void => {
      buffered = Buffer.concat([buffered, chunk]);
      for (;;) {
        const end = buffered.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = buffered.subarray(0, end).toString('latin1');
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
        if (buffered.length < end + 4 + length) return;
        const body = buffered.subarray(end + 4, end + 4 + length).toString('utf8');
        buffered = buffered.subarray(end + 4 + length);
        respond(head, body);
      }
    };
    const respond = (head: string, body: string): void => {
      const payload = parsePayload(body);
      const n = payload.delivery.attempt;
      const behaviour = scenario.behaviours[Math.min(n, scenario.behaviours.length) - 1] as Behaviour;
      const deliveryId = /\r\nx-webhook-delivery: *(\S+)/i.exec(head)?.[1] ?? '';
      const entry: Attempt = {
        taskId: payload.taskId,
        event: payload.event,
        deliveryId,
        attempt: n,
        acked: false,
      };
      attempts.push(entry);
      if (behaviour === 'reset') return void socket.resetAndDestroy();
      if (behaviour === 'hang') return;
      if (behaviour === 'status-500') {
        socket.write('HTTP/1.1 500 Internal Server Error\r\ncontent-length: 0\r\n\r\n');
        return;
      }
      if (behaviour === 'slow-answer') {
        entry.acked = true;
        socket.write('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n');
        const trickle = setInterval(() => socket.writable && socket.write('1\r\n.\r\n'), 100);
        timers.add(trickle);
        socket.on('close', () => clearInterval(trickle));
        return;
      }
      entry.acked = true;
      socket.write('HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n');
    };
    if (scenario.behaviours.includes('slow-read')) {
      // Paused: take READ_CHUNK bytes per tick, so the sender waits on this reader.
      socket.pause();
      readTick = setInterval(() => {
        const chunk = socket.read(READ_CHUNK) ?? socket.read();
        if (chunk !== null) onBytes(chunk as Buffer);
      }, scenario.readTickMs ?? 5);
      timers.add(readTick);
      socket.on('close', () => clearInterval(readTick));
    } else {
      socket.on('data', onBytes);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    attempts,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearInterval(timer);
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

export interface ScenarioResult {
  name: string;
  expect: Scenario['expect'];
  events: number;
  byStatus: Record<string, number>;
  attemptsReceived: number;
  /** Milliseconds from the first attempt's start to the end of the last, per event: the longest. */
  longestMs: number;
  problems: string[];
}

export interface FaultsReport {
  scenarios: ScenarioResult[];
  crashed: boolean;
  stderr: string;
}

async function rpc(url: string, key: string, method: string, params: unknown): Promise<unknown> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const json = (await res.json()) as { result?: unknown; error?: unknown };
  if (json.error !== undefined) throw new Error(`${method}: ${JSON.stringify(json.error)}`);
  return json.result;
}

const SETTLED = new Set(['delivered', 'failed', 'refused', 'canceled', 'dropped']);

/** Runs every scenario at once (one agent each) and judges the deliveries. */
export async function runWebhookFaults(options: {
  /** Also the scenarios that wait out 5 s attempts. */
  long: boolean;
  /** Slow scenarios to run even without `long`. */
  extra?: string[];
  settleTimeoutMs?: number;
}): Promise<FaultsReport> {
  const list = scenarios(options.long, options.extra);
  const receivers = await Promise.all(list.map((scenario) => startReceiver(scenario)));
  const key = 'faults-key-0123456789';
  const child = await startChildServer({
    agents: list.map((scenario) => ({ id: `faults-${scenario.name}`, apiKeys: [key] })),
    allowPrivateWebhookTargets: true,
  });
  try {
    await Promise.all(
      list.map(async (scenario, i) => {
        const url = `${child.baseUrl}/api/v1/a2a/faults-${scenario.name}`;
        const config = {
          url: receivers[i]?.url,
          retryPolicy: { ...RETRY, maxRetries: scenario.maxRetries },
          ...(scenario.events ? { events: scenario.events } : {}),
        };
        await rpc(url, key, 'tasks/pushNotificationConfig/set', { config });
        for (let t = 0; t < scenario.tasks; t++) {
          const message = {
            role: 'user',
            messageId: crypto.randomUUID(),
            parts: [{ type: 'text', text: `t${t}` }],
          };
          await rpc(url, key, 'message/send', { message });
        }
      }),
    );
    const expectedEvents = list.reduce((sum, s) => sum + s.tasks * (s.events?.length ?? 3), 0);
    const deadline = performance.now() + (options.settleTimeoutMs ?? 60_000);
    let log: DeliveryRecord[] = await child.deliveries();
    while (
      performance.now() < deadline &&
      (log.length < expectedEvents || log.some((record) => !SETTLED.has(record.status)))
    ) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      log = await child.deliveries();
    }
    return {
      scenarios: list.map((scenario, i) => judge(scenario, log, receivers[i]?.attempts ?? [])),
      crashed: child.exit() !== undefined,
      stderr: child.stderr(),
    };
  } finally {
    const exit = await child.stop();
    if (exit.crashed) process.stderr.write(child.stderr());
    await Promise.all(receivers.map((receiver) => receiver.close()));
  }
}

function judge(scenario: Scenario, log: DeliveryRecord[], attempts: Attempt[]): ScenarioResult {
  const records = log.filter((record) => record.agentId === `faults-${scenario.name}`);
  const problems: string[] = [];
  const byStatus: Record<string, number> = {};
  let longestMs = 0;
  const perEvent = scenario.events?.length ?? 3;
  if (records.length !== scenario.tasks * perEvent) {
    problems.push(`${records.length} deliveries recorded, ${scenario.tasks * perEvent} expected`);
  }
  const maxAttempts = scenario.maxRetries + 1;
  for (const record of records) {
    byStatus[record.status] = (byStatus[record.status] ?? 0) + 1;
    const label = `${record.taskId} ${record.event}`;
    if (record.status !== scenario.expect)
      problems.push(`${label}: ${record.status}, expected ${scenario.expect}`);
    if (record.attempts.length > maxAttempts)
      problems.push(`${label}: ${record.attempts.length} attempts > ${maxAttempts}`);
    if (scenario.expect === 'failed' && record.attempts.length !== maxAttempts) {
      problems.push(`${label}: failed after ${record.attempts.length} attempts, not ${maxAttempts}`);
    }
    const received = attempts.filter((a) => a.taskId === record.taskId && a.event === record.event);
    const ids = new Set(received.map((a) => a.deliveryId));
    if (ids.size > 1) problems.push(`${label}: received under ${ids.size} delivery ids (a duplicate)`);
    if (received.some((a) => a.deliveryId !== record.deliveryId))
      problems.push(`${label}: delivery id differs from the log`);
    const acked = received.filter((a) => a.acked);
    if (acked.length > 1) problems.push(`${label}: acknowledged ${acked.length} times`);
    if (scenario.expect === 'delivered' && acked[0]?.attempt !== scenario.ackedAttempt) {
      problems.push(
        `${label}: acknowledged at attempt ${acked[0]?.attempt}, expected ${scenario.ackedAttempt}`,
      );
    }
    const first = record.attempts[0];
    const last = record.attempts[record.attempts.length - 1];
    if (first && last) {
      longestMs = Math.max(
        longestMs,
        Date.parse(last.startedAt) + last.durationMs - Date.parse(first.startedAt),
      );
    }
  }
  return {
    name: scenario.name,
    expect: scenario.expect,
    events: records.length,
    byStatus,
    attemptsReceived: attempts.length,
    longestMs,
    problems,
  };
}
