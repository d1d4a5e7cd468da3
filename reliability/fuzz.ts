// The fuzz run: sends fast-check generated hostile requests (reliability/fuzz-cases.ts) to a reference
// server in a child process and judges every answer (reliability/response-check.ts). Reports the
// answers by kind and outcome, every violation with the case that caused it, whether the process
// survived, and its heap after a full GC before and after the run.
import net from 'node:net';
import fc from 'fast-check';
import { Pool } from 'undici';
import { startChildServer, type ChildServer, type MemoryFigures } from './child-server.ts';
import { fuzzCase, fuzzServerConfig, type FuzzCase, type HttpCase, type RawCase } from './fuzz-cases.ts';
import { checkResponse, type Verdict } from './response-check.ts';

export interface FuzzOptions {
  requests: number;
  seed: number;
  /** Requests in flight at once. */
  concurrency: number;
  /** Requests of the same mix sent before the baseline heap figure (fills caches and the task store). */
  warmup: number;
  /** A request with no answer after this long is a violation (the server hangs). */
  requestTimeoutMs: number;
  /** Pause before the last heap figure: longer than the fuzz agent's system timeout (3 s). */
  idleMs: number;
  onProgress?: (done: number) => void;
}

export const FUZZ_DEFAULTS: FuzzOptions = {
  requests: 100_000,
  seed: 20_250_101,
  concurrency: 32,
  warmup: 2_000,
  requestTimeoutMs: 30_000,
  idleMs: 4000,
};

export interface FuzzViolation {
  index: number;
  kind: string;
  reason: string;
  /** The request, trimmed, so it can be read and replayed. */
  request: string;
}

export interface FuzzReport {
  seed: number;
  requests: number;
  elapsedMs: number;
  /** Per case kind: how many were sent. */
  byKind: Record<string, number>;
  /** Per answer (`<status> <code>`, `200 sse <state>`, `closed`): how many. */
  byOutcome: Record<string, number>;
  violations: FuzzViolation[];
  violationCount: number;
  /** Requests resent once because the server closed the idle connection before reading them (C-49). */
  retriedAfterIdleClose: number;
  crashed: boolean;
  exit: string;
  stderr: string;
  memory: { baseline: MemoryFigures; after: MemoryFigures; afterIdle: MemoryFigures };
}

const BATCH = 500;

/** The cases of one run, generated lazily in batches so huge values never pile up. */
function* cases(seed: number, count: number, offset = 0): Generator<[number, FuzzCase]> {
  for (let start = 0; start < count; start += BATCH) {
    const batchSeed = seed + offset + start / BATCH;
    const sample = fc.sample(fuzzCase, { seed: batchSeed, numRuns: Math.min(BATCH, count - start) });
    for (const [i, item] of sample.entries()) yield [offset + start + i, item];
  }
}

function describe(item: FuzzCase): string {
  if (item.via === 'raw') return JSON.stringify(item.bytes.toString('latin1').slice(0, 300));
  const body = item.body?.toString('latin1') ?? '';
  return `${item.method} ${item.path.slice(0, 120)} ${JSON.stringify(item.headers).slice(0, 200)} ${JSON.stringify(body.slice(0, 300))}${body.length > 300 ? ` (+${body.length - 300} bytes)` : ''}`;
}

/** Connection errors after which a request was never read by the server (C-49). */
const UNREAD_CLOSE = new Set(['UND_ERR_SOCKET', 'ECONNRESET']);

/**
 * Sends one case. A reused connection the server closed for idleness before reading the request
 * (C-49: such a request is not processed) is retried once on a new connection, as RFC 9112
 * section 9.3.1 lets a client do for a request it knows was not processed; `onRetry` counts them.
 */
async function sendHttp(
  pool: Pool,
  item: HttpCase,
  timeoutMs: number,
  onRetry: () => void,
): Promise<Verdict> {
  const first = await sendHttpOnce(pool, item, timeoutMs);
  if (first.ok || !first.reason.startsWith('connection failed:')) return first;
  const code = first.reason.split(' ')[2] ?? '';
  if (!UNREAD_CLOSE.has(code)) return first;
  onRetry();
  return sendHttpOnce(pool, item, timeoutMs);
}

async function sendHttpOnce(pool: Pool, item: HttpCase, timeoutMs: number): Promise<Verdict> {
  const signal = AbortSignal.timeout(timeoutMs);
  let res;
  try {
    res = await pool.request({
      path: item.path,
      method: item.method,
      headers: item.headers,
      body: item.body,
      signal,
    });
  } catch (error) {
    const code = (error as { code?: string }).code ?? '';
    // The client library refuses to send some header values or methods: nothing reached the server.
    if (code === 'UND_ERR_INVALID_ARG' || code === 'UND_ERR_NOT_SUPPORTED')
      return { ok: true, outcome: 'not sent' };
    if (signal.aborted)
      return { ok: false, outcome: 'violation', reason: `no answer within ${timeoutMs} ms` };
    // A 413 that closes the connection while the body is still being written can surface as a
    // socket error on the client (C-42 answers before the whole upload is read).
    if (item.kind === 'oversized-body') return { ok: true, outcome: 'closed oversized' };
    return {
      ok: false,
      outcome: 'violation',
      reason: `connection failed: ${code} ${(error as Error).message}`,
    };
  }
  let text: string;
  try {
    text = await res.body.text();
  } catch (error) {
    return { ok: false, outcome: 'violation', reason: `body read failed: ${(error as Error).message}` };
  }
  const type = res.headers['content-type'];
  const contentType = (Array.isArray(type) ? type[0] : type)?.split(';')[0]?.trim();
  return checkResponse(res.statusCode, contentType, text, item.method, item.rpcMethod);
}

function sendRaw(baseUrl: string, item: RawCase, timeoutMs: number): Promise<Verdict> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = net.connect(Number(port), hostname, () => {
      socket.write(item.bytes);
      if (item.abandons === true) socket.end();
    });
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ ok: false, outcome: 'violation', reason: `connection not closed within ${timeoutMs} ms` });
    }, timeoutMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => undefined);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(judgeRaw(Buffer.concat(chunks), item));
    });
  });
}

function judgeRaw(answer: Buffer, item: RawCase): Verdict {
  const text = answer.toString('latin1');
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) {
    if (text === '' && item.abandons === true) return { ok: true, outcome: 'closed' };
    return {
      ok: false,
      outcome: 'violation',
      reason: `no HTTP answer before close: ${JSON.stringify(text.slice(0, 80))}`,
    };
  }
  const [statusLine = '', ...lines] = text.slice(0, end).split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0);
  const headers = new Map(
    lines.map((line) => [
      line.slice(0, line.indexOf(':')).trim().toLowerCase(),
      line.slice(line.indexOf(':') + 1).trim(),
    ]),
  );
  let body = answer.subarray(end + 4);
  const length = Number(headers.get('content-length'));
  if (Number.isFinite(length)) body = body.subarray(0, length);
  const contentType = headers.get('content-type')?.split(';')[0]?.trim();
  const method = item.bytes.toString('latin1', 0, 16).split(' ')[0] ?? '';
  return checkResponse(status, contentType, body.toString('utf8'), method);
}

/** Sends `source` with `concurrency` requests in flight; calls `record` for each answer. */
async function drive(
  child: ChildServer,
  source: Iterator<[number, FuzzCase]>,
  opts: Pick<FuzzOptions, 'concurrency' | 'requestTimeoutMs' | 'onProgress'>,
  record: (index: number, item: FuzzCase, verdict: Verdict) => void,
  onRetry: () => void = () => undefined,
): Promise<void> {
  const pool = new Pool(child.baseUrl, { connections: opts.concurrency, pipelining: 1 });
  let done = 0;
  const worker = async (): Promise<void> => {
    for (let next = source.next(); next.done !== true; next = source.next()) {
      if (child.exit() !== undefined) return;
      const [index, item] = next.value;
      const verdict =
        item.via === 'raw'
          ? await sendRaw(child.baseUrl, item, opts.requestTimeoutMs)
          : await sendHttp(pool, item, opts.requestTimeoutMs, onRetry);
      record(index, item, verdict);
      done += 1;
      if (done % 1000 === 0) opts.onProgress?.(done);
    }
  };
  try {
    await Promise.all(Array.from({ length: opts.concurrency }, worker));
  } finally {
    await pool.destroy();
  }
}

export async function runFuzz(options: Partial<FuzzOptions> = {}): Promise<FuzzReport> {
  const opts = { ...FUZZ_DEFAULTS, ...options };
  const child = await startChildServer(fuzzServerConfig());
  const byKind: Record<string, number> = {};
  const byOutcome: Record<string, number> = {};
  const violations: FuzzViolation[] = [];
  let violationCount = 0;
  let retriedAfterIdleClose = 0;
  const started = performance.now();
  try {
    // Warm-up: another slice of the same generator (its own seeds), not counted.
    await drive(child, cases(opts.seed + 1_000_000, opts.warmup), opts, () => undefined);
    const baseline = (await child.stats()).memory;
    const t0 = performance.now();
    const record = (index: number, item: FuzzCase, verdict: Verdict): void => {
      byKind[item.kind] = (byKind[item.kind] ?? 0) + 1;
      const outcome = verdict.ok ? verdict.outcome : 'violation';
      byOutcome[outcome] = (byOutcome[outcome] ?? 0) + 1;
      if (!verdict.ok) {
        violationCount += 1;
        if (violations.length < 50)
          violations.push({ index, kind: item.kind, reason: verdict.reason, request: describe(item) });
      }
    };
    await drive(child, cases(opts.seed, opts.requests), opts, record, () => (retriedAfterIdleClose += 1));
    const elapsedMs = Math.round(performance.now() - t0);
    const crashedDuring = child.exit() !== undefined;
    const after = crashedDuring ? baseline : (await child.stats()).memory;
    // Tasks told to run until canceled end by the system timeout (3 s); then nothing should be held.
    if (!crashedDuring) await new Promise((resolve) => setTimeout(resolve, opts.idleMs));
    const afterIdle = crashedDuring ? baseline : (await child.stats()).memory;
    const exit = await child.stop();
    return {
      seed: opts.seed,
      requests: opts.requests,
      elapsedMs,
      byKind,
      byOutcome,
      violations,
      violationCount,
      retriedAfterIdleClose,
      crashed: exit.crashed,
      exit: `code ${exit.code} signal ${exit.signal}`,
      stderr: child.stderr(),
      memory: { baseline, after, afterIdle },
    };
  } catch (error) {
    await child.stop();
    throw new Error(
      `fuzz run aborted after ${Math.round(performance.now() - started)} ms: ${(error as Error).message}\n${child.stderr()}`,
    );
  }
}
