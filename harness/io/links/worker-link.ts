// The link between the suites' workers and the runner, when suite files run in several workers: the
// runner serves its Governor (and the suite-file lock) on 127.0.0.1:0 and each worker reaches it
// through a RemoteGovernor, so the pace, the cap on requests in flight, the agent's task slots, the
// turn count and Retry-After stay run-wide.
//
// WORKER_CALLS is the whole protocol: each call's name, request and answer declared once as shapes
// (field: kind), the TypeScript types and both sides' checks derived from them. A call is a POST to
// /{name}; a body unlike its declaration (a field missing, of another kind, or not declared) is
// refused (400) with what is wrong. A held call (a task slot) keeps its answer open: the grant lasts
// until the worker closes it, so a worker that ends or aborts frees what it held.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Agent, request } from 'undici';
import {
  GOVERNOR_STOPS,
  type AdmitOptions,
  type Governor,
  type TaskSlotOptions,
  type TrafficGovernor,
} from '../traffic/governor.ts';
import { linkAgent, linkServer, listen, readBody, sendJson } from '../../kit/loopback.ts';
import { count, WaitClock, type TrafficTally } from '../traffic/tallies.ts';

/** What a field holds; `{ optional: kind }`: it may be left out. */
type Kind = 'boolean' | 'count' | 'ms' | 'string' | 'string or null';
type Shape = Record<string, Kind | { optional: Kind }>;
type ValueOf<K extends Kind> = K extends 'boolean'
  ? boolean
  : K extends 'count' | 'ms'
    ? number
    : K extends 'string'
      ? string
      : string | null;
/** The type a shape declares. */
type DataOf<S extends Shape> = {
  -readonly [F in keyof S as S[F] extends Kind ? F : never]: S[F] extends Kind ? ValueOf<S[F]> : never;
} & {
  -readonly [F in keyof S as S[F] extends Kind ? never : F]?: S[F] extends { optional: infer K extends Kind }
    ? ValueOf<K>
    : never;
};

const KINDS: Record<Kind, { is: (v: unknown) => boolean; reads: string }> = {
  boolean: { is: (v) => typeof v === 'boolean', reads: 'a boolean' },
  count: { is: (v) => Number.isSafeInteger(v) && (v as number) >= 0, reads: 'a whole number >= 0' },
  ms: { is: (v) => typeof v === 'number' && Number.isFinite(v), reads: 'a finite number' },
  string: { is: (v) => typeof v === 'string', reads: 'a string' },
  'string or null': { is: (v) => v === null || typeof v === 'string', reads: 'a string or null' },
};

/** What is wrong with `data` against `shape`; empty when nothing is. */
function shapeProblems(shape: Shape, data: unknown): string[] {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return ['must be an object'];
  const record = data as Record<string, unknown>;
  const problems = Object.keys(record)
    .filter((f) => !Object.hasOwn(shape, f))
    .map((f) => `${f} is not a field of it`);
  for (const [f, spec] of Object.entries(shape)) {
    const kind = typeof spec === 'string' ? spec : spec.optional;
    if (!Object.hasOwn(record, f)) {
      if (typeof spec === 'string') problems.push(`${f} is missing`);
    } else if (!KINDS[kind].is(record[f])) {
      problems.push(
        `${f} must be ${KINDS[kind].reads} (got ${JSON.stringify(record[f]) ?? typeof record[f]})`,
      );
    }
  }
  return problems;
}

function check(shape: Shape, data: unknown, what: string): void {
  const problems = shapeProblems(shape, data);
  if (problems.length > 0) throw new WorkerLinkError(`${what}: ${problems.join('; ')}`);
}

const NOTHING = {} as const;

/** The runner's figures, in every answer: a worker's clients and budgets read them. */
const STATE = {
  /** Requests in flight now, run-wide. */
  inFlight: 'count',
  /** The governor's heldBackMs(). */
  heldBackMs: 'ms',
  /** The governor's turnAllowanceMs(). */
  allowanceMs: 'ms',
  /** The governor's paceWaitMs(). */
  paceWaitMs: 'ms',
  /** Task slots held now, run-wide. */
  tasks: 'count',
} as const satisfies Shape;

/**
 * Every call of the link: `request` is its body, `answer` what its answer adds to the runner's
 * figures (STATE); `held`: the answer stays open as long as the grant lasts.
 */
export const WORKER_CALLS = {
  /** Waits for the pace and a request slot (TrafficGovernor.admit); the slot is `lease` until `release`. */
  admit: {
    request: {
      turn: 'boolean',
      bypass: 'boolean',
      keep: { optional: 'count' },
      prepaid: { optional: 'boolean' },
    },
    answer: { lease: 'count' },
  },
  release: { request: { lease: 'count' }, answer: NOTHING },
  /** A rate-limited answer: waits out Retry-After (or the backoff of `attempt`) run-wide. */
  rateLimited: { request: { attempt: 'count', retryAfterMs: { optional: 'ms' } }, answer: NOTHING },
  turnAnswered: { request: { ms: 'ms' }, answer: NOTHING },
  notATurn: { request: NOTHING, answer: NOTHING },
  /** One of the agent's task slots, held while the answer stays open; `owner` names the check run-wide. */
  holdTask: { request: { owner: { optional: 'string' } }, answer: NOTHING, held: true },
  /** The suite-file lock (runner/file-lock.ts): shared (`exclusive` null) or exclusive to a file; `hold` names the grant. */
  lock: { request: { exclusive: 'string or null' }, answer: { hold: 'count' } },
  /** A shared holder lets a waiting exclusive file run first, then holds the lock again. */
  yield: { request: { hold: 'count' }, answer: NOTHING },
  /** Ends the hold; idempotent (a hold already ended is nothing), so a lost answer is sent again. */
  unlock: { request: { hold: 'count' }, answer: NOTHING },
} as const satisfies Record<string, CallSpec>;

interface CallSpec {
  request: Shape;
  answer: Shape;
  held?: true;
}

type Calls = typeof WORKER_CALLS;
export type CallName = keyof Calls;
type HeldName = { [K in CallName]: Calls[K] extends { held: true } ? K : never }[CallName];
type PlainName = Exclude<CallName, HeldName>;
export type LinkState = DataOf<typeof STATE>;
export type RequestOf<K extends CallName> = DataOf<Calls[K]['request']>;
/** What the call's handler answers (the link adds the runner's figures). */
export type AnswerOf<K extends CallName> = DataOf<Calls[K]['answer']>;
export type Answered<K extends CallName> = AnswerOf<K> & LinkState;

/** A call's answer, and what to give back when it never reaches the worker (or, held, when the worker lets go). */
export interface Granted<A> {
  answer: A;
  giveBack?: () => void;
}

/** The runner's side of each call; the signal aborts when the worker gives up waiting. */
export type WorkerCallHandlers = {
  [K in CallName]: (
    body: RequestOf<K>,
    signal: AbortSignal,
  ) => Granted<AnswerOf<K>> | Promise<Granted<AnswerOf<K>>>;
};

/** A call the link could not make: an unknown name, a body or an answer unlike its declaration. */
export class WorkerLinkError extends Error {
  constructor(message: string) {
    super(`worker link: ${message}`);
    this.name = 'WorkerLinkError';
  }
}

const REFUSAL = { error: { name: 'string', message: 'string' } } as const;

function isRefusal(json: unknown): json is { error: { name: string; message: string } } {
  const error = (json as { error?: unknown } | null)?.error;
  return shapeProblems(REFUSAL.error, error).length === 0;
}

// The refusals a handler may throw, rebuilt in the worker with their own class (checks tell them
// apart): the governor's stops (GOVERNOR_STOPS) and the link's own error.
const REFUSALS = new Map<string, { prototype: Error }>(
  [...GOVERNOR_STOPS, WorkerLinkError].map((c) => [c.name, c]),
);

function rebuild(error: { name: string; message: string }): Error {
  const refusal = REFUSALS.get(error.name);
  if (refusal === undefined) return new Error(error.message);
  const e = Object.create(refusal.prototype) as Error;
  Error.captureStackTrace(e, rebuild);
  e.name = error.name;
  e.message = error.message;
  return e;
}

function refuse(res: ServerResponse, status: number, e: Error): void {
  sendJson(res, status, { error: { name: e.name, message: e.message } });
}

export interface WorkerLinkServer {
  url: string;
  close(): Promise<void>;
}

/** The governor's calls of the table. */
function governorCalls(governor: Governor): Omit<WorkerCallHandlers, FileLockCall> {
  const leases = new Map<number, () => void>();
  let next = 0;
  const nothing = { answer: {} };
  return {
    admit: async ({ turn, bypass, keep, prepaid }, signal) => {
      const release = await governor.admit({ turn, bypass, keep, prepaid, signal });
      const lease = (next += 1);
      leases.set(lease, release);
      const giveBack = (): void => {
        leases.delete(lease);
        release();
      };
      return { answer: { lease }, giveBack };
    },
    release: ({ lease }) => {
      leases.get(lease)?.();
      leases.delete(lease);
      return nothing;
    },
    rateLimited: async ({ retryAfterMs, attempt }, signal) => {
      await governor.onRateLimited(retryAfterMs, attempt, { signal });
      return nothing;
    },
    turnAnswered: ({ ms }) => {
      governor.turnAnswered(ms, undefined);
      return nothing;
    },
    notATurn: () => {
      governor.notATurn(undefined);
      return nothing;
    },
    holdTask: async ({ owner }, signal) => ({
      answer: {},
      giveBack: await governor.holdTask({ signal, owner }),
    }),
  };
}

export type FileLockCall = 'lock' | 'yield' | 'unlock';

/** Serves `governor`, and the suite-file lock's calls, to the suites' workers. */
export async function serveWorkerLink(
  governor: Governor,
  fileLock: Pick<WorkerCallHandlers, FileLockCall>,
): Promise<WorkerLinkServer> {
  const handlers: WorkerCallHandlers = { ...governorCalls(governor), ...fileLock };
  const state = (): LinkState => ({
    inFlight: governor.inFlightNow,
    heldBackMs: governor.heldBackMs(),
    allowanceMs: governor.turnAllowanceMs(),
    paceWaitMs: governor.paceWaitMs(),
    tasks: governor.tasksNow,
  });
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const name = (req.url ?? '').slice(1);
    const text = (await readBody(req)).toString('utf8');
    const spec = Object.hasOwn(WORKER_CALLS, name) ? (WORKER_CALLS[name as CallName] as CallSpec) : undefined;
    if (req.method !== 'POST' || spec === undefined) {
      const calls = Object.keys(WORKER_CALLS).join(', ');
      return refuse(
        res,
        404,
        new WorkerLinkError(`no call ${req.method ?? ''} ${req.url ?? ''} (POST /name: ${calls})`),
      );
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
      check(spec.request, body, `${name} request`);
    } catch (e) {
      const error = e instanceof WorkerLinkError ? e : new WorkerLinkError(`${name} request is not JSON`);
      return refuse(res, 400, error);
    }
    const aborted = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) aborted.abort(new Error('the worker gave up waiting'));
    });
    let granted: Granted<object>;
    try {
      const handler = handlers[name as CallName] as (
        b: unknown,
        s: AbortSignal,
      ) => Granted<object> | Promise<Granted<object>>;
      granted = await handler(body, aborted.signal);
    } catch (e) {
      return refuse(res, 409, e as Error);
    }
    if (res.destroyed) return granted.giveBack?.();
    if (spec.held !== true) return sendJson(res, 200, { ...granted.answer, ...state() });
    // Held while this answer stays open: the worker closes it to let go.
    if (granted.giveBack !== undefined) res.on('close', granted.giveBack);
    res.writeHead(200, { 'content-type': 'application/x-ndjson' });
    res.write(`${JSON.stringify({ ...granted.answer, ...state() })}\n`);
  };
  const server = linkServer((req, res) => void handle(req, res).catch(() => res.destroy()));
  const { baseUrl, close } = await listen(server);
  return { url: baseUrl, close };
}

// Attempts of a call that must reach the runner (callUntilAnswered): 50 ms doubling, ~6 s in all.
const UNTIL_ANSWERED_ATTEMPTS = 7;

/** A worker's end of the link: the calls of WORKER_CALLS, typed by the table. */
export class WorkerLinkClient {
  private readonly calls = linkAgent({ connections: 64 });
  // Held calls are open requests: on their own connections, never in the way of the others.
  private readonly holds = new Agent({ keepAliveTimeout: 1_000 });
  /** The runner's figures at the last answer. */
  last: LinkState = { inFlight: 0, heldBackMs: 0, allowanceMs: 0, paceWaitMs: 0, tasks: 0 };
  /** When (epoch ms) the last answer came: the runner's figures are as of then. */
  lastAt = 0;

  constructor(readonly url: string) {}

  async call<K extends PlainName>(name: K, body: RequestOf<K>, signal?: AbortSignal): Promise<Answered<K>> {
    const res = await this.post(name, body, this.calls, signal);
    const json: unknown = await res.body.json();
    return this.answer(name, res.statusCode, json);
  }

  /**
   * A call whose loss would leak a grant (a lease never released holds one of the run's request
   * slots for good: enough of them and every admit waits forever). The runner's handling of it is
   * idempotent, so it is sent again, a few times over a few seconds, until answered.
   */
  async callUntilAnswered<K extends PlainName>(name: K, body: RequestOf<K>): Promise<void> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        await this.call(name, body);
        return;
      } catch {
        if (attempt >= UNTIL_ANSWERED_ATTEMPTS) return;
        await new Promise((resolve) => setTimeout(resolve, 50 * 2 ** attempt));
      }
    }
  }

  /** A held call: its answer, and the function that lets go of the grant (closes the request). */
  async hold<K extends HeldName>(
    name: K,
    body: RequestOf<K>,
    signal?: AbortSignal,
  ): Promise<{ answer: Answered<K>; release: () => void }> {
    const res = await this.post(name, body, this.holds, signal);
    // The check's abort also ends the request, and with it the hold.
    res.body.on('error', () => undefined);
    if (res.statusCode !== 200) refused(name, res.statusCode, await res.body.json());
    const release = (): void => void res.body.destroy();
    try {
      const line = await firstLine(res.body);
      return { answer: this.answer(name, res.statusCode, JSON.parse(line)), release };
    } catch (e) {
      release();
      throw e;
    }
  }

  private post(name: CallName, body: unknown, dispatcher: Agent, signal: AbortSignal | undefined) {
    return request(`${this.url}/${name}`, {
      dispatcher,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      ...(signal === undefined ? {} : { signal }),
    });
  }

  private answer<K extends CallName>(name: K, status: number, json: unknown): Answered<K> {
    if (status !== 200) refused(name, status, json);
    check({ ...(WORKER_CALLS[name] as CallSpec).answer, ...STATE }, json, `${name} answer`);
    const answered = json as Answered<K>;
    this.lastAt = Date.now();
    this.last = {
      inFlight: answered.inFlight,
      heldBackMs: answered.heldBackMs,
      allowanceMs: answered.allowanceMs,
      paceWaitMs: answered.paceWaitMs,
      tasks: answered.tasks,
    };
    return answered;
  }
}

/** Throws the runner's refusal of a call, rebuilt with its own class. */
function refused(name: CallName, status: number, json: unknown): never {
  if (isRefusal(json)) throw rebuild(json.error);
  throw new WorkerLinkError(`${name}: HTTP ${status} without a refusal`);
}

/** The first line of a held answer, leaving the body open (its end is the end of the hold). */
function firstLine(body: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const leave = (): void => {
      body.off('data', onData);
      body.off('end', onEnd);
      body.off('error', onError);
    };
    const onData = (chunk: Buffer): void => {
      text += chunk.toString('utf8');
      const end = text.indexOf('\n');
      if (end < 0) return;
      leave();
      resolve(text.slice(0, end));
    };
    const onEnd = (): void => {
      leave();
      reject(new WorkerLinkError('a held answer ended before its grant'));
    };
    const onError = (e: Error): void => {
      leave();
      reject(e);
    };
    body.on('data', onData);
    body.on('end', onEnd);
    body.on('error', onError);
  });
}

/** A worker's view of the runner's governor. */
export class RemoteGovernor implements TrafficGovernor {
  readonly link: WorkerLinkClient;
  /** This worker's waits in progress (heldBackMs: the runner's figure is as of its last answer). */
  private readonly clock = new WaitClock();
  /** Run-wide names of this worker's slot owners (checks' tallies). */
  private readonly owners = new WeakMap<object, string>();
  private ownerSeq = 0;
  /** The most heldBackMs() has said. */
  private shownMs = 0;

  constructor(readonly url: string) {
    this.link = new WorkerLinkClient(url);
  }

  async admit(o: AdmitOptions): Promise<() => void> {
    const t0 = Date.now();
    const { lease, inFlight } = await this.waitOn(o.tally, () =>
      this.link.call(
        'admit',
        {
          turn: o.turn,
          bypass: o.bypass === true,
          ...(o.keep === undefined || o.keep === 0 ? {} : { keep: o.keep }),
          ...(o.prepaid === true ? { prepaid: true } : {}),
        },
        o.signal,
      ),
    );
    if (o.tally !== undefined) {
      count.request([o.tally], o.turn, inFlight);
      // Loopback round trip aside, time in admit was spent on the pace or a free slot.
      const waited = Date.now() - t0;
      if (waited > 5) count.waited([o.tally], waited);
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      void this.link.callUntilAnswered('release', { lease });
    };
  }

  async onRateLimited(
    retryAfterMs: number | undefined,
    attempt: number,
    o: Pick<AdmitOptions, 'tally' | 'signal'>,
  ): Promise<void> {
    const mine = o.tally === undefined ? [] : [o.tally];
    count.rateLimited(mine);
    const t0 = Date.now();
    const body = retryAfterMs === undefined ? { attempt } : { attempt, retryAfterMs };
    await this.waitOn(o.tally, () => this.link.call('rateLimited', body, o.signal));
    count.waited(mine, Date.now() - t0);
  }

  turnAnswered(ms: number, tally: TrafficTally | undefined): void {
    count.turnAnswered(tally === undefined ? [] : [tally], ms);
    void this.link.call('turnAnswered', { ms }).catch(() => undefined);
  }

  notATurn(tally: TrafficTally | undefined): void {
    count.notATurn(tally === undefined ? [] : [tally]);
    void this.link.call('notATurn', {}).catch(() => undefined);
  }

  async holdTask(o: TaskSlotOptions): Promise<() => void> {
    const owner = o.owner ?? o.tally;
    let key: string | undefined;
    if (owner !== undefined && typeof owner === 'object') {
      key = this.owners.get(owner) ?? `${process.pid}-${(this.ownerSeq += 1)}`;
      this.owners.set(owner, key);
    }
    const { answer, release } = await this.waitOn(o.tally, () =>
      this.link.hold('holdTask', key === undefined ? {} : { owner: key }, o.signal),
    );
    // The slots held once this one was granted.
    if (o.tally !== undefined) count.tasksHeld([o.tally], answer.tasks);
    return release;
  }

  turnAllowanceMs(): number {
    return this.link.last.allowanceMs;
  }

  /** The runner's figure at the last answer (its waits in progress included). */
  paceWaitMs(): number {
    return this.link.last.paceWaitMs;
  }

  /**
   * The budgets' clock: the runner's figure at the last answer (every wait in progress then counted
   * up to then), plus what this worker's waits in progress have lasted since that answer. Never less
   * than it said before: a worker's wait counts the whole call, the runner only its sleep, so the
   * runner's next figure may fall short of this one by a round trip; a budget's clock never goes back.
   */
  heldBackMs(): number {
    const now = this.link.last.heldBackMs + this.clock.currentSinceMs(this.link.lastAt);
    this.shownMs = Math.max(this.shownMs, now);
    return this.shownMs;
  }

  /** A call that may wait on the runner's governor: counted on this worker's clock and as the tally's wait. */
  private async waitOn<T>(tally: TrafficTally | undefined, call: () => Promise<T>): Promise<T> {
    const done = this.clock.start();
    if (tally !== undefined) tally.waiting += 1;
    try {
      return await call();
    } finally {
      if (tally !== undefined) tally.waiting -= 1;
      done();
    }
  }
}
