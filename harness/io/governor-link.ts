// One governor for a run whose suite files run in several workers: the runner serves its Governor on
// 127.0.0.1:0 and each worker reaches it through a RemoteGovernor, so the pace, the cap on requests
// in flight, the agent's task slots, the turn count and Retry-After stay run-wide. A task slot is held
// by an open request to the runner, so a worker that ends or aborts frees its slots by closing it.
// The same link holds the suite-file lock:
// files that fill the agent's slots or trip its rate limit (per-agent limits, C-04, C-21) run alone.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';
import {
  PaceBudgetError,
  RateLimitedError,
  TaskSlotError,
  TurnBudgetError,
  type AdmitOptions,
  type Governor,
  type TaskSlotOptions,
  type TrafficGovernor,
  type TrafficTally,
} from './governor.ts';

export interface GovernorLink {
  url: string;
  close(): Promise<void>;
}

/** A test's hold on the suite-file lock (RemoteGovernor.lock). */
export interface FileHold {
  /**
   * Between the independent steps of a long check (a property's generated cases): when a file that
   * runs alone waits for the lock, lets it run first, then holds the lock again. A shared hold asks at
   * most every YIELD_EVERY_MS; an exclusive one has nothing to yield to.
   */
  yield(): Promise<void>;
  release(): Promise<void>;
}

// How often a shared hold asks whether an exclusive file waits: rarely enough to cost nothing beside
// a property's cases, often enough that a slot-filling check never waits for a whole property.
const YIELD_EVERY_MS = 200;

/** Test holders: any number of shared ones, or the tests of one exclusive file. */
class FileLock {
  private shared = 0;
  private owner: string | null = null;
  private owned = 0;
  private queue: Array<{ key: string | null; grant: () => void }> = [];

  acquire(key: string | null): Promise<void> {
    return new Promise((grant) => {
      // The exclusive file already holding the lock lets its own concurrent tests in at once.
      if (key !== null && this.owner === key) {
        this.owned += 1;
        grant();
        return;
      }
      this.queue.push({ key, grant });
      this.pump();
    });
  }

  /**
   * A shared holder lets a waiting exclusive file in first, then holds the lock again; with none
   * waiting it keeps its hold.
   */
  async yieldShared(): Promise<void> {
    if (!this.queue.some((q) => q.key !== null)) return;
    this.release(null);
    await this.acquire(null);
  }

  release(key: string | null): void {
    if (key === null) this.shared -= 1;
    else if ((this.owned -= 1) === 0) this.owner = null;
    this.pump();
  }

  private pump(): void {
    for (;;) {
      const next = this.queue[0];
      if (next === undefined) return;
      if (next.key === null ? this.owner !== null : this.shared > 0 || this.owner !== null) return;
      this.queue.shift();
      if (next.key === null) this.shared += 1;
      else {
        this.owner = next.key;
        this.owned = 1;
      }
      next.grant();
    }
  }
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
}

function reply(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** Serves `governor` (and the file lock) to the suites' workers. */
export async function serveGovernor(governor: Governor): Promise<GovernorLink> {
  const leases = new Map<number, () => void>();
  const lock = new FileLock();
  let next = 0;
  const state = () => ({
    inFlight: governor.inFlightNow,
    heldBackMs: governor.heldBackMs(),
    allowanceMs: governor.turnAllowanceMs(),
    tasks: governor.tasksNow,
  });
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const body = await readJson(req);
    const aborted = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) aborted.abort(new Error('the worker gave up waiting'));
    });
    const signal = aborted.signal;
    try {
      if (req.url === '/admit') {
        const release = await governor.admit({
          turn: body.turn === true,
          bypass: body.bypass === true,
          signal,
        });
        leases.set((next += 1), release);
        reply(res, 200, { lease: next, ...state() });
      } else if (req.url === '/release') {
        leases.get(body.lease as number)?.();
        leases.delete(body.lease as number);
        reply(res, 200, state());
      } else if (req.url === '/rate-limited') {
        const after = typeof body.retryAfterMs === 'number' ? body.retryAfterMs : undefined;
        await governor.onRateLimited(after, body.attempt as number, { signal });
        reply(res, 200, state());
      } else if (req.url === '/task') {
        const owner = typeof body.owner === 'string' ? body.owner : undefined;
        const release = await governor.holdTask({ signal, owner });
        if (res.destroyed) return release();
        // Held while this answer stays open: the worker closes it to release the slot.
        res.on('close', release);
        res.writeHead(200, { 'content-type': 'application/x-ndjson' });
        res.write(`${JSON.stringify(state())}\n`);
      } else if (req.url === '/not-a-turn') {
        governor.notATurn(undefined);
        reply(res, 200, state());
      } else if (req.url === '/turn') {
        governor.turnAnswered(body.ms as number, undefined);
        reply(res, 200, state());
      } else if (req.url === '/lock') {
        const key = typeof body.exclusive === 'string' ? body.exclusive : null;
        await lock.acquire(key);
        if (res.destroyed) lock.release(key);
        else reply(res, 200, state());
      } else if (req.url === '/yield') {
        await lock.yieldShared();
        if (res.destroyed) lock.release(null);
        else reply(res, 200, state());
      } else if (req.url === '/unlock') {
        lock.release(typeof body.exclusive === 'string' ? body.exclusive : null);
        reply(res, 200, state());
      } else {
        reply(res, 404, { error: { name: 'Error', message: `no ${req.url ?? ''}` } });
      }
    } catch (e) {
      reply(res, 409, { error: { name: (e as Error).name, message: (e as Error).message } });
    }
  };
  const server: Server = createServer((req, res) => void handle(req, res).catch(() => res.destroy()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

interface LinkState {
  inFlight: number;
  heldBackMs: number;
  allowanceMs: number;
}

/** The governor's refusal, rebuilt in the worker with its own class (the checks tell them apart). */
function rebuild(error: { name: string; message: string }): Error {
  const e =
    error.name === 'PaceBudgetError'
      ? new PaceBudgetError(0, null)
      : error.name === 'TurnBudgetError'
        ? new TurnBudgetError(0)
        : error.name === 'RateLimitedError'
          ? new RateLimitedError(0, '')
          : error.name === 'TaskSlotError'
            ? new TaskSlotError(0, 0)
            : new Error();
  e.message = error.message;
  return e;
}

/** A worker's view of the runner's governor. */
export class RemoteGovernor implements TrafficGovernor {
  private readonly dispatcher = new Agent({ keepAliveTimeout: 60_000, connections: 64 });
  // Task slots are open requests: on their own connections, never in the way of the calls above.
  private readonly slots = new Agent({ keepAliveTimeout: 1_000 });
  private last: LinkState = { inFlight: 0, heldBackMs: 0, allowanceMs: 0 };
  private waiting = 0;
  private waitingSince = 0;
  /** Run-wide names of this worker's slot owners (checks' tallies). */
  private readonly owners = new WeakMap<object, string>();
  private ownerSeq = 0;

  constructor(readonly url: string) {}

  async admit(o: AdmitOptions): Promise<() => void> {
    const t0 = Date.now();
    const got = await this.waitOn('/admit', { turn: o.turn, bypass: o.bypass === true }, o);
    const lease = got.lease as number;
    if (o.tally !== undefined) {
      o.tally.requests += 1;
      if (o.turn) o.tally.agentTurns += 1;
      o.tally.maxInFlight = Math.max(o.tally.maxInFlight, this.last.inFlight);
      // Loopback round trip aside, time in /admit was spent on the pace or a free slot.
      const waited = Date.now() - t0;
      if (waited > 5) o.tally.waitedMs += waited;
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      void this.call('/release', { lease }).catch(() => undefined);
    };
  }

  async onRateLimited(
    retryAfterMs: number | undefined,
    attempt: number,
    o: Pick<AdmitOptions, 'tally' | 'signal'>,
  ): Promise<void> {
    if (o.tally !== undefined) o.tally.rateLimitedAnswers += 1;
    const t0 = Date.now();
    await this.waitOn('/rate-limited', { retryAfterMs, attempt }, o);
    if (o.tally !== undefined) o.tally.waitedMs += Date.now() - t0;
  }

  turnAnswered(ms: number, tally: TrafficTally | undefined): void {
    tally?.turnLatencyMs.push(ms);
    void this.call('/turn', { ms }).catch(() => undefined);
  }

  notATurn(tally: TrafficTally | undefined): void {
    if (tally !== undefined) tally.agentTurns -= 1;
    void this.call('/not-a-turn', {}).catch(() => undefined);
  }

  async holdTask(o: TaskSlotOptions): Promise<() => void> {
    const owner = o.owner ?? o.tally;
    let key: string | undefined;
    if (owner !== undefined && typeof owner === 'object') {
      key = this.owners.get(owner) ?? `${process.pid}-${(this.ownerSeq += 1)}`;
      this.owners.set(owner, key);
    }
    if (this.waiting === 0) this.waitingSince = Date.now();
    this.waiting += 1;
    let res: Awaited<ReturnType<typeof request>>;
    try {
      res = await request(`${this.url}/task`, {
        dispatcher: this.slots,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ owner: key }),
        ...(o.signal === undefined ? {} : { signal: o.signal }),
      });
    } finally {
      this.waiting -= 1;
    }
    if (res.statusCode !== 200) {
      const json = (await res.body.json()) as { error: { name: string; message: string } };
      throw rebuild(json.error);
    }
    // The check's abort also ends the request, and with it the hold.
    res.body.on('error', () => undefined);
    // The one line the runner writes: the slots held once this one was granted.
    res.body.once('data', (line: Buffer) => {
      const held = (JSON.parse(line.toString()) as { tasks?: unknown }).tasks;
      if (o.tally !== undefined && typeof held === 'number')
        o.tally.maxTasksInFlight = Math.max(o.tally.maxTasksInFlight, held);
    });
    let released = false;
    return () => {
      if (released) return;
      released = true;
      res.body.destroy();
    };
  }

  turnAllowanceMs(): number {
    return this.last.allowanceMs;
  }

  /** The runner's figure at the last answer, plus this worker's waits since (the budgets' clock). */
  heldBackMs(): number {
    return this.last.heldBackMs + (this.waiting > 0 ? Date.now() - this.waitingSince : 0);
  }

  /** Holds the suite-file lock for one test: shared, or exclusive to its file. */
  async lock(exclusive: string | null): Promise<FileHold> {
    await this.call('/lock', { exclusive });
    // Yields and the release run one after another: a release never overtakes a yield still waiting
    // to hold the lock again (it would release a hold not yet regained).
    let last: Promise<unknown> = Promise.resolve();
    const inTurn = (op: () => Promise<unknown>): Promise<void> => {
      last = last.then(op, op);
      return last.then(() => undefined);
    };
    let yieldedAt = Date.now();
    return {
      yield: () => {
        if (exclusive !== null || Date.now() - yieldedAt < YIELD_EVERY_MS) return Promise.resolve();
        // A yield that could not be made leaves the hold as it was: the check goes on.
        return inTurn(async () => {
          await this.call('/yield', {}).catch(() => undefined);
          yieldedAt = Date.now();
        });
      },
      release: () => inTurn(() => this.call('/unlock', { exclusive }).catch(() => undefined)),
    };
  }

  private async waitOn(
    path: string,
    body: unknown,
    o: Pick<AdmitOptions, 'signal'>,
  ): Promise<Record<string, unknown>> {
    if (this.waiting === 0) this.waitingSince = Date.now();
    this.waiting += 1;
    try {
      return await this.call(path, body, o.signal);
    } finally {
      this.waiting -= 1;
    }
  }

  private async call(path: string, body: unknown, signal?: AbortSignal): Promise<Record<string, unknown>> {
    const res = await request(`${this.url}${path}`, {
      dispatcher: this.dispatcher,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      ...(signal === undefined ? {} : { signal }),
    });
    const json = (await res.body.json()) as Record<string, unknown> & Partial<LinkState>;
    if (res.statusCode !== 200) throw rebuild(json.error as { name: string; message: string });
    if (typeof json.heldBackMs === 'number') {
      this.last = {
        inFlight: json.inFlight ?? 0,
        heldBackMs: json.heldBackMs,
        allowanceMs: json.allowanceMs ?? 0,
      };
    }
    return json;
  }
}
