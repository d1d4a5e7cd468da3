// The webhook capture receiver as a check sees it (spec 6, C-17, C-20): the run's receiver (served by
// the runner for the whole run, harness/io/links/webhook-link.ts) or, when the suites run without the
// runner, one receiver per worker started lazily on --webhook-listen; per-check URLs whose deliveries
// become the check's evidence; waits for a delivery bounded by the check's budget; and expectations of
// what must not arrive, settled when the evidence is in (harness/check/expectations.ts).
import { randomUUID } from 'node:crypto';
import type { Delivery } from '../../core/evidence.ts';
import { connectWebhookLink } from '../io/links/webhook-link.ts';
import {
  deliveryKey,
  startWebhookReceiver,
  type DeliveryUnit,
  type WaitResult,
  type WebhookReceiver,
} from '../io/webhooks/webhook-receiver.ts';
import type { ProvidedRun } from '../provided.ts';
import { graceMs, matchesDelivery, type DeliveryMatch, type NothingMore } from './expectations.ts';

type ReceiverRun = Pick<ProvidedRun, 'webhookListen' | 'webhookPublicUrl' | 'webhookLink'>;

let shared: Promise<WebhookReceiver> | undefined;
let sharedLink: string | undefined;

/**
 * The worker's receiver: a mirror of the run's receiver when the runner serves one (run.webhookLink),
 * else a receiver of its own, a fixed --webhook-listen port bound once and reused by every check.
 */
export function sharedReceiver(run: ReceiverRun): Promise<WebhookReceiver> {
  if (shared !== undefined && sharedLink !== run.webhookLink) void closeSharedReceiver(true);
  if (shared === undefined) {
    sharedLink = run.webhookLink;
    if (run.webhookLink !== undefined) shared = connectWebhookLink(run.webhookLink);
    else {
      const opts: Parameters<typeof startWebhookReceiver>[0] = { ...run.webhookListen };
      if (run.webhookPublicUrl !== undefined) opts.publicUrl = run.webhookPublicUrl;
      shared = startWebhookReceiver(opts);
    }
    // A failed start is retried by the next check instead of poisoning every later one.
    shared.catch(() => {
      shared = undefined;
    });
  }
  return shared;
}

/**
 * Called after each suite file (suites/support/setup.ts) so a fixed port is free for the next file. The
 * mirror of the run's receiver stays: the run's receiver listens for the whole run.
 */
export async function closeSharedReceiver(always = false): Promise<void> {
  if (!always && sharedLink !== undefined) return;
  const current = shared;
  shared = undefined;
  sharedLink = undefined;
  if (current) await (await current.catch(() => undefined))?.close();
}

/** Delivery lags seen by the checks of this worker (the grace of a run without the runner). */
const workerLags: number[] = [];

export interface CheckWebhooks {
  /** The worker's receiver (waitFor, script, ...). */
  readonly receiver: WebhookReceiver;
  /** A fresh URL for this check; deliveries to it are the check's evidence. */
  newUrl(label?: string): { token: string; url: string };
  /** Deliveries to this check's URLs so far. */
  deliveries(): Delivery[];
  /**
   * Waits for `count` attempts (distinct deliveries) matching `match` (default 1), for as long as the check's budget
   * allows (the spec sets no delivery latency), and longer while deliveries still arrive at the
   * awaited URL (BUSY_SENDER_WINDOWS). `since` is when the check caused the event (epoch
   * ms): when the request that caused it left the harness (suites/support/rpc.ts sentAt of its
   * exchange), never a time taken before it, which would count the harness's wait on the agent's pace
   * as the agent's lag. Each awaited delivery's lag from it is recorded, and the run's grace period
   * derives from the slowest.
   */
  awaitDeliveries(match: DeliveryMatch, opts: { since: number; count?: number }): Promise<WaitResult>;
  /**
   * States that no delivery matching `match` arrives other than `graded` (what the check already
   * read: per delivery by default, any attempt or copy of them; per attempt, only copies): recorded as the assertion `label`, settled at once if a violating
   * delivery is in, else at the end of the run after the grace period.
   */
  expectNothingMore(
    label: string,
    match: DeliveryMatch,
    graded?: readonly Delivery[],
    per?: DeliveryUnit,
  ): void;
}

export interface WebhookScopeOptions {
  /** Milliseconds a wait for a delivery may still take (the check's remaining budget, less a reserve). */
  waitBoundMs?: () => number;
  /**
   * Runs a wait the agent's sender makes longer (its backlog at the URL still draining) as the
   * agent's time, which the check's budget does not count (run-check.ts: Planned.paused).
   */
  agentWait?: <T>(wait: Promise<T>) => Promise<T>;
}

/**
 * How many more times a wait for a delivery gets its bound while the agent is still delivering to
 * the awaited URL. An agent-level configuration receives the events of every task the run makes, and
 * a sender with few connections behind a slow link delivers them as a backlog: an event the check
 * caused waits its turn behind the others (freedom webhook.delivery-latency). Arrivals at the URL
 * during a window are the evidence that the backlog drains; a window without any ends the wait. The
 * count bounds a sender that never stops delivering there (a flood), not the agent's latency.
 */
export const BUSY_SENDER_WINDOWS = 3;

export class WebhookScope {
  private readonly tokens = new Set<string>();
  private receiver: WebhookReceiver | undefined;
  readonly expectations: NothingMore[] = [];
  readonly lagsMs: number[] = [];
  /** Waits for a delivery in progress (the check waits on the agent's sender meanwhile). */
  waitingOnDeliveries = 0;

  constructor(
    private readonly run: ReceiverRun,
    private readonly opts: WebhookScopeOptions = {},
  ) {}

  /** Whether the run's receiver settles this check's expectations at the end of the run. */
  get linked(): boolean {
    return this.run.webhookLink !== undefined;
  }

  async open(): Promise<CheckWebhooks> {
    const receiver = await sharedReceiver(this.run);
    this.receiver = receiver;
    return {
      receiver: this.counted(receiver),
      newUrl: (label = 'hook') => {
        const token = `${label.replace(/[^A-Za-z0-9_-]/g, '_')}-${randomUUID()}`;
        this.tokens.add(token);
        return { token, url: receiver.urlFor(token) };
      },
      deliveries: () => this.deliveries(),
      awaitDeliveries: (match, opts) => this.awaitDeliveries(this.counted(receiver), match, opts),
      expectNothingMore: (label, match, graded = [], per = 'delivery') => {
        const allowed = graded.map((d) => deliveryKey(d, per));
        this.expectations.push({ label, match, per, allowed, since: Date.now() });
      },
    };
  }

  /** The receiver as the check sees it: its waits for a delivery counted in waitingOnDeliveries. */
  private counted(receiver: WebhookReceiver): WebhookReceiver {
    const waiting = <T>(wait: Promise<T>): Promise<T> => {
      this.waitingOnDeliveries += 1;
      return wait.finally(() => void (this.waitingOnDeliveries -= 1));
    };
    return {
      get url() {
        return receiver.url;
      },
      urlFor: (token) => receiver.urlFor(token),
      deliveries: (filter) => receiver.deliveries(filter),
      waitFor: (filter, opts) => waiting(receiver.waitFor(filter, opts)),
      waitForResult: (filter, opts) => waiting(receiver.waitForResult(filter, opts)),
      script: (token, responses) => receiver.script(token, responses),
      dropped: () => receiver.dropped(),
      clear: (token) => receiver.clear(token),
      close: () => receiver.close(),
    };
  }

  deliveries(): Delivery[] {
    if (this.receiver === undefined || this.tokens.size === 0) return [];
    return this.receiver.deliveries((d) => d.token !== undefined && this.tokens.has(d.token));
  }

  /** Every delivery the receiver holds (an expectation may be about any URL). */
  allDeliveries(): Delivery[] {
    return this.receiver?.deliveries() ?? [];
  }

  /** The grace period of a run without the runner: from the lags this worker's checks have seen. */
  localGraceMs(): number {
    return graceMs([...workerLags, ...this.lagsMs]);
  }

  private async awaitDeliveries(
    receiver: WebhookReceiver,
    match: DeliveryMatch,
    opts: { since: number; count?: number },
  ): Promise<WaitResult> {
    const count = opts.count ?? 1;
    const bound = Math.max(0, this.opts.waitBoundMs?.() ?? 30_000);
    const wait = (): Promise<WaitResult> =>
      receiver.waitForResult((d) => matchesDelivery(d, match), { timeoutMs: bound, count, distinct: true });
    const atUrl = (): number =>
      match.token === undefined ? 0 : receiver.deliveries({ token: match.token }).length;
    let arrived = atUrl();
    let got = await wait();
    let waitedMs = got.waitedMs;
    const agentWait = this.opts.agentWait ?? ((w) => w);
    for (let window = 0; got.timedOut && bound > 0 && window < BUSY_SENDER_WINDOWS; window += 1) {
      const now = atUrl();
      if (now === arrived) break;
      arrived = now;
      got = await agentWait(wait());
      waitedMs += got.waitedMs;
    }
    got = { ...got, waitedMs };
    for (const d of got.deliveries.slice(0, count)) {
      const lag = Date.parse(d.timestamp) - opts.since;
      if (Number.isFinite(lag) && lag >= 0) {
        this.lagsMs.push(lag);
        workerLags.push(lag);
      }
    }
    return got;
  }
}
