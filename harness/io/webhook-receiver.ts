// Capture receiver for webhook deliveries (spec 6.1-6.5, rulings C-17, C-20): records every request
// with monotonic timestamps and its exact bytes (signatures cover the bytes sent), and answers as
// each test scripts it (500s, hangs past 5 s, resets) so retries and backoff can be measured.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { decodeUtf8, parseJson } from './body-reader.ts';
import type { Delivery, DeliveryResponse } from '../../core/evidence.ts';

export { signatureFor, verifySignature, type SignatureCheck } from './webhook-signature.ts';

export interface WebhookReceiverOptions {
  host?: string;
  port?: number;
  /** URL the target must use when the receiver sits behind a tunnel or proxy. */
  publicUrl?: string;
  /** Deliveries kept; the oldest are dropped beyond it. Default 1000. */
  maxDeliveries?: number;
  /** Body bytes kept per delivery; the rest is read and counted but not stored. Default 1 MiB. */
  maxBodyBytes?: number;
  /** Body bytes kept across all stored deliveries; the oldest are dropped beyond it. Default 64 MiB. */
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

export type DeliveryFilter = ((d: Delivery) => boolean) | { token?: string; event?: string; path?: string };

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
  waitFor(filter: DeliveryFilter, opts: { timeoutMs: number; count?: number }): Promise<Delivery[]>;
  /** Like waitFor, saying whether the wait timed out. */
  waitForResult(filter: DeliveryFilter, opts: { timeoutMs: number; count?: number }): Promise<WaitResult>;
  /** Answers for the next deliveries to urlFor(token), in order; afterwards 200. */
  script(token: string, responses: ScriptedResponse[]): void;
  /** Deliveries and body bytes dropped by the memory caps. */
  dropped(): { deliveries: number; bodyBytes: number };
  /** Forgets the deliveries (of one token, or all). */
  clear(token?: string): void;
  close(): Promise<void>;
}

const TOKEN_PATH = /\/hooks\/([^/?#]+)/;

function tokenOf(path: string): string | undefined {
  const m = TOKEN_PATH.exec(path);
  if (m?.[1] === undefined) return undefined;
  try {
    return decodeURIComponent(m[1]);
  } catch {
    return m[1];
  }
}

function headerText(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

export function matches(d: Delivery, filter: DeliveryFilter | undefined): boolean {
  if (filter === undefined) return true;
  if (typeof filter === 'function') return filter(d);
  if (filter.token !== undefined && d.token !== filter.token) return false;
  if (filter.path !== undefined && d.path !== filter.path) return false;
  if (filter.event !== undefined) {
    const json = d.json as { event?: unknown } | undefined;
    const event = headerText(d.headers['x-webhook-event']) ?? json?.event;
    if (event !== filter.event) return false;
  }
  return true;
}

/** Memory a stored delivery holds: its kept bytes and their decoded text. */
function storedSize(d: Delivery): number {
  return d.body.length + d.text.length;
}

interface Waiter {
  filter: DeliveryFilter;
  count: number;
  wake: () => void;
}

class Receiver implements WebhookReceiver {
  url = '';
  private readonly store: Delivery[] = [];
  private readonly scripts = new Map<string, ScriptedResponse[]>();
  private readonly waiters = new Set<Waiter>();
  private readonly pending = new Set<NodeJS.Timeout>();
  private readonly maxDeliveries: number;
  private readonly maxBodyBytes: number;
  private readonly maxStoredBytes: number;
  private storedBytes = 0;
  private droppedDeliveries = 0;
  private droppedBytes = 0;
  private seq = 0;
  readonly server: Server;

  constructor(opts: WebhookReceiverOptions) {
    this.maxDeliveries = opts.maxDeliveries ?? 1000;
    this.maxBodyBytes = opts.maxBodyBytes ?? 1024 * 1024;
    // Why a total: 1000 deliveries of 1 MiB (plus their decoded text) would be 2 GB in a worker
    // that a target floods with unasked deliveries.
    this.maxStoredBytes = opts.maxStoredBytes ?? 64 * 1024 * 1024;
    this.server = createServer((req, res) => void this.handle(req, res));
  }

  urlFor(token: string): string {
    return `${this.url}/hooks/${encodeURIComponent(token)}`;
  }

  deliveries(filter?: DeliveryFilter): Delivery[] {
    return this.store.filter((d) => matches(d, filter));
  }

  async waitFor(filter: DeliveryFilter, opts: { timeoutMs: number; count?: number }): Promise<Delivery[]> {
    return (await this.waitForResult(filter, opts)).deliveries;
  }

  waitForResult(filter: DeliveryFilter, opts: { timeoutMs: number; count?: number }): Promise<WaitResult> {
    const count = opts.count ?? 1;
    const t0 = performance.now();
    const result = (timedOut: boolean): WaitResult => ({
      deliveries: this.deliveries(filter),
      timedOut,
      waitedMs: Math.round(performance.now() - t0),
    });
    if (this.deliveries(filter).length >= count) return Promise.resolve(result(false));
    return new Promise((resolve) => {
      const waiter: Waiter = {
        filter,
        count,
        wake: () => {
          clearTimeout(timer);
          this.waiters.delete(waiter);
          resolve(result(false));
        },
      };
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        resolve(result(true));
      }, opts.timeoutMs);
      this.waiters.add(waiter);
    });
  }

  script(token: string, responses: ScriptedResponse[]): void {
    this.scripts.set(token, [...responses]);
  }

  dropped(): { deliveries: number; bodyBytes: number } {
    return { deliveries: this.droppedDeliveries, bodyBytes: this.droppedBytes };
  }

  clear(token?: string): void {
    const keep = token === undefined ? [] : this.store.filter((d) => d.token !== token);
    this.store.splice(0, this.store.length, ...keep);
    this.storedBytes = keep.reduce((sum, d) => sum + storedSize(d), 0);
  }

  async close(): Promise<void> {
    for (const t of this.pending) clearTimeout(t);
    this.pending.clear();
    for (const w of [...this.waiters]) w.wake();
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    // Hung deliveries keep sockets open; close() must not wait for them.
    this.server.closeAllConnections();
    await closed;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const receivedAtMs = performance.now();
    const timestamp = new Date().toISOString();
    const { body, bytes } = await this.readBody(req);
    const path = req.url ?? '/';
    const token = tokenOf(path);
    const plan = (token === undefined ? undefined : this.scripts.get(token)?.shift()) ?? {};
    const { text, invalidUtf8 } = decodeUtf8(body);
    const parsed = invalidUtf8 ? { parseError: 'body is not valid UTF-8' } : parseJson(text);
    const response: DeliveryResponse = {};
    for (const key of ['status', 'delayMs', 'reset', 'hang'] as const) {
      if (plan[key] !== undefined) Object.assign(response, { [key]: plan[key] });
    }
    this.seq += 1;
    const d: Delivery = {
      seq: this.seq,
      receivedAtMs,
      bodyCompleteAtMs: performance.now(),
      timestamp,
      method: req.method ?? '',
      path,
      headers: { ...req.headers } as Record<string, string | string[]>,
      body,
      text,
      bodyBytes: bytes,
      bodyTruncated: bytes > body.length,
      response,
    };
    if (token !== undefined) d.token = token;
    if (parsed.json !== undefined) d.json = parsed.json;
    if (parsed.parseError !== undefined) d.parseError = parsed.parseError;
    if (req.socket.remoteAddress !== undefined) d.remoteAddress = req.socket.remoteAddress;
    this.add(d);
    this.respond(req, res, plan, response);
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
    this.droppedBytes += bytes - kept;
    return { body: Buffer.concat(chunks, kept), bytes };
  }

  private add(d: Delivery): void {
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
      if (this.deliveries(w.filter).length >= w.count) w.wake();
    }
  }

  private respond(
    req: IncomingMessage,
    res: ServerResponse,
    plan: ScriptedResponse,
    r: DeliveryResponse,
  ): void {
    const act = (): void => {
      r.atMs = performance.now();
      if (plan.reset === true) {
        // An RST rather than a FIN, so the sender sees ECONNRESET.
        req.socket.resetAndDestroy();
      } else if (plan.hang !== true) {
        res.writeHead(plan.status ?? 200, { 'content-type': 'application/json' });
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

export async function startWebhookReceiver(opts: WebhookReceiverOptions = {}): Promise<WebhookReceiver> {
  const host = opts.host ?? '127.0.0.1';
  const r = new Receiver(opts);
  await new Promise<void>((resolve, reject) => {
    r.server.once('error', reject);
    r.server.listen(opts.port ?? 0, host, () => resolve());
  });
  const { port } = r.server.address() as AddressInfo;
  const hostPart = host.includes(':') ? `[${host}]` : host;
  r.url = (opts.publicUrl ?? `http://${hostPart}:${port}`).replace(/\/+$/, '');
  return r;
}
