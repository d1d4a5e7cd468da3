// Capture receiver for webhook deliveries (spec 6.1-6.5, rulings C-17, C-20, C-58): records every
// request with monotonic timestamps and its exact bytes (signatures cover the bytes sent; a delivery
// in a content coding, gzip, deflate or br, is kept decoded: its payload text), and answers as each
// test scripts it (500s, hangs past 5 s, resets) so retries and backoff can be measured.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { ACCEPT_ENCODING, contentCodings, decodedWhole } from '../target/body-reader.ts';
import { LoopLag } from '../traffic/loop-lag.ts';
import type { Delivery, DeliveryResponse } from '../../../core/evidence.ts';

import {
  deliveryKey,
  distinctDeliveries,
  matches,
  payloadOf,
  storedSize,
  tokenOf,
  type DeliveryFilter,
} from './deliveries.ts';

export { signatureFor, verifySignature, type SignatureCheck } from './webhook-signature.ts';
export {
  deliveryAttempt,
  deliveryEvent,
  deliveryIsEvent,
  deliveryKey,
  deliveryOfTask,
  deliveryTaskId,
  distinctDeliveries,
  matches,
  summarizeDeliveries,
  type DeliveryFilter,
  type DeliveryUnit,
} from './deliveries.ts';

export interface WebhookReceiverOptions {
  host?: string;
  port?: number;
  /** URL the target must use when the receiver sits behind a tunnel or proxy. */
  publicUrl?: string;
  /** Deliveries kept; the oldest are dropped beyond it. Default 1000. */
  maxDeliveries?: number;
  /** Body bytes kept per delivery; the rest is read and counted but not stored. Default 1 MiB. */
  maxBodyBytes?: number;
  /** Memory kept across all stored deliveries (storedSize: bytes, text, JSON); the oldest are dropped beyond it. Default 64 MiB. */
  maxStoredBytes?: number;
}

export interface ScriptedResponse {
  /** Default 200. */
  status?: number;
  /** Wait before answering. */
  delayMs?: number;
  /** Reset the connection instead of answering. */
  reset?: boolean;
  /** Never answer (the sender must time out, spec 6.5: 5 s). */
  hang?: boolean;
  body?: string;
}

export interface WaitResult {
  deliveries: Delivery[];
  timedOut: boolean;
  waitedMs: number;
}

export interface WebhookReceiver {
  readonly url: string;
  /** A distinct URL per test token, so captures of concurrent tests never mix. */
  urlFor(token: string): string;
  deliveries(filter?: DeliveryFilter): Delivery[];
  /** Resolves with the matching deliveries once `count` (default 1) matched, or at the timeout with what arrived. */
  waitFor(filter: DeliveryFilter, opts: WaitOptions): Promise<Delivery[]>;
  /** Like waitFor, saying whether the wait timed out. */
  waitForResult(filter: DeliveryFilter, opts: WaitOptions): Promise<WaitResult>;
  /**
   * Answers for the next attempts to urlFor(token), in order; afterwards 200. Attempts are told apart
   * by deliveryKey(): a copy of an attempt already answered (spec 6.5: duplicates are possible) gets
   * the answer its first copy got and takes no scripted answer of its own.
   */
  script(token: string, responses: ScriptedResponse[]): Promise<void>;
  /** Deliveries and body bytes dropped by the memory caps. */
  dropped(): { deliveries: number; bodyBytes: number };
  /** Forgets the deliveries (of one token, or all). */
  clear(token?: string): void;
  close(): Promise<void>;
}

interface Waiter {
  enough: () => boolean;
  wake: () => void;
}

export interface WaitOptions {
  timeoutMs: number;
  /** Default 1. */
  count?: number;
  /** Count attempts (distinctDeliveries), not POSTs. */
  distinct?: boolean;
}

/**
 * The deliveries a receiver (or a worker's mirror of the run's receiver, webhook-link.ts) holds, with
 * the memory caps and the waits on them.
 */
export class DeliveryStore {
  private readonly store: Delivery[] = [];
  private readonly waiters = new Set<Waiter>();
  private readonly maxDeliveries: number;
  private readonly maxStoredBytes: number;
  private storedBytes = 0;
  droppedDeliveries = 0;
  droppedBytes = 0;

  constructor(opts: Pick<WebhookReceiverOptions, 'maxDeliveries' | 'maxStoredBytes'> = {}) {
    this.maxDeliveries = opts.maxDeliveries ?? 1000;
    // Why a total: 1000 deliveries of 1 MiB (plus their decoded text) would be 2 GB in a worker
    // that a target floods with unasked deliveries.
    this.maxStoredBytes = opts.maxStoredBytes ?? 64 * 1024 * 1024;
  }

  deliveries(filter?: DeliveryFilter): Delivery[] {
    return this.store.filter((d) => matches(d, filter));
  }

  bySeq(seq: number): Delivery | undefined {
    return this.store.find((d) => d.seq === seq);
  }

  waitForResult(filter: DeliveryFilter, opts: WaitOptions): Promise<WaitResult> {
    const count = opts.count ?? 1;
    const t0 = performance.now();
    const found = (): Delivery[] => {
      const all = this.deliveries(filter);
      return opts.distinct === true ? distinctDeliveries(all) : all;
    };
    const result = (timedOut: boolean): WaitResult => ({
      deliveries: found(),
      timedOut,
      waitedMs: Math.round(performance.now() - t0),
    });
    if (found().length >= count) return Promise.resolve(result(false));
    return new Promise((resolve) => {
      const waiter: Waiter = {
        enough: () => found().length >= count,
        wake: () => {
          clearTimeout(timer);
          this.waiters.delete(waiter);
          resolve(result(false));
        },
      };
      const timer = setTimeout(
        () => {
          this.waiters.delete(waiter);
          resolve(result(true));
        },
        Math.max(0, opts.timeoutMs),
      );
      this.waiters.add(waiter);
    });
  }

  add(d: Delivery): void {
    this.store.push(d);
    this.storedBytes += storedSize(d);
    while (
      this.store.length > 1 &&
      (this.store.length > this.maxDeliveries || this.storedBytes > this.maxStoredBytes)
    ) {
      this.storedBytes -= storedSize(this.store.shift()!);
      this.droppedDeliveries += 1;
    }
    for (const w of [...this.waiters]) {
      if (w.enough()) w.wake();
    }
  }

  clear(token?: string): void {
    const keep = token === undefined ? [] : this.store.filter((d) => d.token !== token);
    this.store.splice(0, this.store.length, ...keep);
    this.storedBytes = keep.reduce((sum, d) => sum + storedSize(d), 0);
  }

  /** Ends every wait now, with what arrived. */
  wakeAll(): void {
    for (const w of [...this.waiters]) w.wake();
  }
}

/** What a receiver tells a subscriber (the run's webhook link): each delivery, then its answer. */
export type DeliveryListener = (kind: 'delivery' | 'response', d: Delivery) => void;

class Receiver implements WebhookReceiver {
  url = '';
  readonly store: DeliveryStore;
  private readonly scripts = new Map<string, ScriptedResponse[]>();
  /** The answer each attempt got, by token and deliveryKey(): a copy gets the same. */
  private readonly answered = new Map<string, ScriptedResponse>();
  private readonly listeners = new Set<DeliveryListener>();
  private readonly pending = new Set<NodeJS.Timeout>();
  private readonly maxBodyBytes: number;
  private seq = 0;
  /** How late this process stamps an arrival (a loaded machine): each delivery's stampLagMs. */
  readonly lag = new LoopLag();
  readonly server: Server;

  constructor(opts: WebhookReceiverOptions) {
    this.store = new DeliveryStore(opts);
    this.maxBodyBytes = opts.maxBodyBytes ?? 1024 * 1024;
    this.server = createServer((req, res) => void this.handle(req, res));
  }

  urlFor(token: string): string {
    return `${this.url}/hooks/${encodeURIComponent(token)}`;
  }

  deliveries(filter?: DeliveryFilter): Delivery[] {
    return this.store.deliveries(filter);
  }

  /** Tells `listener` of every delivery from now on; returns the unsubscribe. */
  subscribe(listener: DeliveryListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async waitFor(filter: DeliveryFilter, opts: WaitOptions): Promise<Delivery[]> {
    return (await this.waitForResult(filter, opts)).deliveries;
  }

  waitForResult(filter: DeliveryFilter, opts: WaitOptions): Promise<WaitResult> {
    return this.store.waitForResult(filter, opts);
  }

  script(token: string, responses: ScriptedResponse[]): Promise<void> {
    this.scripts.set(token, [...responses]);
    return Promise.resolve();
  }

  dropped(): { deliveries: number; bodyBytes: number } {
    return { deliveries: this.store.droppedDeliveries, bodyBytes: this.store.droppedBytes };
  }

  clear(token?: string): void {
    this.store.clear(token);
  }

  async close(): Promise<void> {
    for (const t of this.pending) clearTimeout(t);
    this.pending.clear();
    this.listeners.clear();
    this.lag.stop();
    this.store.wakeAll();
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    // Hung deliveries keep sockets open; close() must not wait for them.
    this.server.closeAllConnections();
    await closed;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const receivedAtMs = performance.now();
    const timestamp = new Date().toISOString();
    const wire = await this.readBody(req);
    const coded = contentCodings(req.headers['content-encoding']).length > 0;
    // C-58: a coded delivery is read as its decoded bytes (the payload text its signature covers),
    // at most maxBodyBytes of them.
    const decoded = coded
      ? await decodedWhole(req.headers['content-encoding'], wire.body, this.maxBodyBytes, 'delivery')
      : { body: wire.body, bytes: wire.bytes, truncated: wire.bytes > wire.body.length, error: undefined };
    const body = decoded.body;
    const path = req.url ?? '/';
    const token = tokenOf(path);
    const { text, ...parsed } = payloadOf(body, decoded.error?.message);
    const response: DeliveryResponse = {};
    this.seq += 1;
    const d: Delivery = {
      seq: this.seq,
      receivedAtMs,
      stampLagMs: this.lag.lagBefore(receivedAtMs),
      bodyCompleteAtMs: performance.now(),
      timestamp,
      method: req.method ?? '',
      path,
      headers: { ...req.headers } as Record<string, string | string[]>,
      body,
      text,
      bodyBytes: decoded.bytes,
      bodyTruncated: decoded.truncated || wire.bytes > wire.body.length,
      response,
    };
    if (coded) {
      d.contentEncoding = String(req.headers['content-encoding']);
      d.codedBytes = wire.bytes;
    }
    if (token !== undefined) d.token = token;
    if (parsed.json !== undefined) d.json = parsed.json;
    if (parsed.parseError !== undefined) d.parseError = parsed.parseError;
    if (req.socket.remoteAddress !== undefined) d.remoteAddress = req.socket.remoteAddress;
    // A coding it does not decode is refused with what it accepts (RFC 9110 15.5.16), spending no
    // answer the check scripted: the sender is to send the next attempt without it (C-58).
    const plan = decoded.error?.unsupported === true ? { status: 415 } : this.planFor(token, d);
    for (const key of ['status', 'delayMs', 'reset', 'hang'] as const) {
      if (plan[key] !== undefined) Object.assign(response, { [key]: plan[key] });
    }
    this.store.add(d);
    for (const l of this.listeners) l('delivery', d);
    this.respond(req, res, plan, response, d);
  }

  /** The scripted answer of a new attempt, or the one an earlier copy of the same attempt got. */
  private planFor(token: string | undefined, d: Delivery): ScriptedResponse {
    if (token === undefined) return {};
    const key = `${token}\u0000${deliveryKey(d)}`;
    const earlier = this.answered.get(key);
    if (earlier !== undefined) return earlier;
    const plan = this.scripts.get(token)?.shift() ?? {};
    this.answered.set(key, plan);
    return plan;
  }

  private async readBody(req: IncomingMessage): Promise<{ body: Buffer; bytes: number }> {
    const chunks: Buffer[] = [];
    let kept = 0;
    let bytes = 0;
    try {
      for await (const chunk of req as AsyncIterable<Buffer>) {
        bytes += chunk.length;
        const room = this.maxBodyBytes - kept;
        if (room > 0) chunks.push(chunk.subarray(0, room));
        kept += Math.min(room > 0 ? room : 0, chunk.length);
      }
    } catch {
      // A sender that aborts mid-body: keep what arrived; the byte count shows it was cut.
    }
    this.store.droppedBytes += bytes - kept;
    return { body: Buffer.concat(chunks, kept), bytes };
  }

  private respond(
    req: IncomingMessage,
    res: ServerResponse,
    plan: ScriptedResponse,
    r: DeliveryResponse,
    d: Delivery,
  ): void {
    const act = (): void => {
      r.atMs = performance.now();
      for (const l of this.listeners) l('response', d);
      if (plan.reset === true) {
        // An RST rather than a FIN, so the sender sees ECONNRESET.
        req.socket.resetAndDestroy();
      } else if (plan.hang !== true) {
        // C-58: the codings a sender may use in its next deliveries (RFC 9110 12.5.3).
        res.writeHead(plan.status ?? 200, {
          'content-type': 'application/json',
          'accept-encoding': ACCEPT_ENCODING,
        });
        res.end(plan.body ?? '{"received":true}');
      }
    };
    if (plan.delayMs === undefined || plan.delayMs <= 0) return act();
    const timer = setTimeout(() => {
      this.pending.delete(timer);
      act();
    }, plan.delayMs);
    this.pending.add(timer);
  }
}

/** A receiver whose deliveries can be followed (the run's receiver, served by webhook-link.ts). */
export type ObservableReceiver = WebhookReceiver & { subscribe(listener: DeliveryListener): () => void };

export async function startWebhookReceiver(opts: WebhookReceiverOptions = {}): Promise<ObservableReceiver> {
  const host = opts.host ?? '127.0.0.1';
  const r = new Receiver(opts);
  await new Promise<void>((resolve, reject) => {
    r.server.once('error', reject);
    r.server.listen(opts.port ?? 0, host, () => resolve());
  });
  r.lag.start();
  const { port } = r.server.address() as AddressInfo;
  const hostPart = host.includes(':') ? `[${host}]` : host;
  r.url = (opts.publicUrl ?? `http://${hostPart}:${port}`).replace(/\/+$/, '');
  return r;
}
