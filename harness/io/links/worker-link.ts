// The link between the suites' workers and the runner, when suite files run in several workers: the
// runner serves its Governor (and the suite-file lock) on 127.0.0.1:0 and each worker reaches it
// through a RemoteGovernor, so the pace, the cap on requests in flight, the agent's task slots, the
// turn count and Retry-After stay run-wide. Its calls are those of the link protocol
// (link-protocol.ts, schemas/link.schema.json); every answer carries the runner's figures (LinkState).
// A held call (a task slot) keeps its answer open: the grant lasts until the worker closes it, so a
// worker that ends or aborts frees what it held.
import {
  GOVERNOR_STOPS,
  type AdmitOptions,
  type Governor,
  type TaskSlotOptions,
  type TrafficGovernor,
} from '../traffic/governor.ts';
import { count, WaitClock, type TrafficTally } from '../traffic/tallies.ts';
import {
  LinkClient,
  LinkError,
  serveLink,
  type AnswerOf,
  type LinkHandler,
  type LinkServer,
  type LinkState,
  type PlainName,
  type RequestOf,
} from './link-protocol.ts';

/** The worker link's calls: the governor's and the suite-file lock's. */
export const WORKER_CALL_NAMES = [
  'admit',
  'release',
  'rateLimited',
  'turnAnswered',
  'notATurn',
  'holdTask',
  'lock',
  'yield',
  'unlock',
] as const;
export type WorkerCallName = (typeof WORKER_CALL_NAMES)[number];
export type FileLockCall = 'lock' | 'yield' | 'unlock';
/** What a worker's call resolves to: the call's answer and the runner's figures. */
export type Answered<K extends WorkerCallName> = AnswerOf<K> & LinkState;

/** The runner's side of each call; the signal aborts when the worker gives up waiting. */
export type WorkerCallHandlers = { [K in WorkerCallName]: LinkHandler<K> };

// The refusals a handler may throw, rebuilt in the worker with their own class (checks tell them
// apart): the governor's stops (GOVERNOR_STOPS) and the link's own error.
const REFUSALS = [...GOVERNOR_STOPS, LinkError];

export type WorkerLinkServer = LinkServer;

/** The governor's calls of the link. */
function governorCalls(governor: Governor): Omit<WorkerCallHandlers, FileLockCall> {
  const leases = new Map<number, () => void>();
  let next = 0;
  const nothing = { answer: {} };
  return {
    admit: async ({ turn, bypass, keep, prepaid, owner }, signal) => {
      const release = await governor.admit({ turn, bypass, keep, prepaid, owner, signal });
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
    rateLimited: async ({ retryAfterMs, attempt, unavailable }, signal) => {
      if (unavailable === true) await governor.onUnavailable(retryAfterMs, { signal });
      else await governor.onRateLimited(retryAfterMs, attempt, { signal });
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

/** Serves `governor`, and the suite-file lock's calls, to the suites' workers. */
export function serveWorkerLink(
  governor: Governor,
  fileLock: Pick<WorkerCallHandlers, FileLockCall>,
): Promise<WorkerLinkServer> {
  return serveLink<WorkerCallName>({ ...governorCalls(governor), ...fileLock }, () => ({
    inFlight: governor.inFlightNow,
    heldBackMs: governor.heldBackMs(),
    allowanceMs: governor.turnAllowanceMs(),
    paceWaitMs: governor.paceWaitMs(),
    tasks: governor.tasksNow,
  }));
}

/** A worker's end of the link: the worker calls, typed by the link's schema. */
export class WorkerLinkClient {
  private readonly link: LinkClient;
  /** The runner's figures at the last answer. */
  last: LinkState = { inFlight: 0, heldBackMs: 0, allowanceMs: 0, paceWaitMs: 0, tasks: 0 };
  /** When (epoch ms) the last answer came: the runner's figures are as of then. */
  lastAt = 0;

  constructor(readonly url: string) {
    this.link = new LinkClient(url, { refusals: REFUSALS });
  }

  async call<K extends WorkerCallName & PlainName>(
    name: K,
    body: RequestOf<K>,
    signal?: AbortSignal,
  ): Promise<Answered<K>> {
    const { answer, state } = await this.link.call(name, body, signal);
    return { ...answer, ...this.figures(name, state) };
  }

  /** See LinkClient.callUntilAnswered. */
  callUntilAnswered<K extends WorkerCallName & PlainName>(name: K, body: RequestOf<K>): Promise<void> {
    return this.link.callUntilAnswered(name, body);
  }

  /** A task slot: its answer, and the function that lets go of it (closes the request). */
  async hold(
    name: 'holdTask',
    body: RequestOf<'holdTask'>,
    signal?: AbortSignal,
  ): Promise<{ answer: Answered<'holdTask'>; release: () => void }> {
    const { answer, state, release } = await this.link.hold(
      name,
      body,
      signal === undefined ? {} : { signal },
    );
    return { answer: { ...answer, ...this.figures(name, state) }, release };
  }

  private figures(name: WorkerCallName, state: LinkState | undefined): LinkState {
    if (state === undefined) throw new LinkError(`${name} answer: state is missing (the runner's figures)`);
    this.lastAt = Date.now();
    this.last = state;
    return state;
  }
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
    // The run-wide name holdTask gave this check: none yet, it holds no task slot.
    const holder = o.owner ?? o.tally;
    const owner = holder !== undefined && typeof holder === 'object' ? this.owners.get(holder) : undefined;
    const { lease, inFlight } = await this.waitOn(o.tally, () =>
      this.link.call(
        'admit',
        {
          turn: o.turn,
          bypass: o.bypass === true,
          ...(o.keep === undefined || o.keep === 0 ? {} : { keep: o.keep }),
          ...(o.prepaid === true ? { prepaid: true } : {}),
          ...(owner === undefined ? {} : { owner }),
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

  async onUnavailable(
    retryAfterMs: number | undefined,
    o: Pick<AdmitOptions, 'tally' | 'signal'>,
  ): Promise<void> {
    const t0 = Date.now();
    const body = { attempt: 0, unavailable: true, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) };
    await this.waitOn(o.tally, () => this.link.call('rateLimited', body, o.signal)).catch(() => undefined);
    if (o.tally !== undefined) count.waited([o.tally], Date.now() - t0);
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
