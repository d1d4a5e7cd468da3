// A webhook relay for the mutants (spec 6.2-6.5, ruling C-20): the proxy points every webhook
// configuration at a relay URL, the reference server delivers there, and the relay forwards each
// attempt to the original URL (the harness's capture receiver) after a mutation may have rewritten,
// held, dropped or duplicated it. The receiver's answer (status, hang, reset) travels back unchanged
// unless the mutation says otherwise, so the server's retry logic sees what the receiver scripted.
import { createHmac } from 'node:crypto';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expectedVerdict, idSlug } from './define.ts';
import { readBody } from '../harness/kit/loopback.ts';
import { startMutant, type MutantOptions, type ProxyHooks } from './proxy.ts';
import type { MutantTarget, Variant } from './types.ts';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** What the proxy learnt from the set call that configured the relayed URL. */
export interface RelayRoute {
  /** The URL the configuration named: where deliveries are forwarded. */
  target: string;
  secret?: string;
  /** Names (lower case) of the configuration's `headers`. */
  headerNames: string[];
  /** The configuration's retryPolicy with the defaults of spec 2.11 filled in (seconds). */
  retryPolicy: { maxRetries: number; backoffMultiplier: number; initialDelay: number };
}

/** One delivery attempt on its way from the server to the receiver; mutations edit it in place. */
export interface RelayAttempt {
  route: RelayRoute;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: Buffer;
  /** The payload, parsed (undefined when the body is not JSON). */
  json: JsonObject | undefined;
}

export interface RelayMutation {
  /** Rewrites the attempt before it is forwarded; 'drop' answers the sender 200 without forwarding. */
  rewrite?(a: RelayAttempt): void | 'drop';
  /** Milliseconds to hold the attempt before forwarding it. */
  holdMs?(a: RelayAttempt): number;
  /** The status the sender gets for the receiver's status (default: the receiver's). */
  answer?(a: RelayAttempt, receiverStatus: number): number;
  /** Answer the sender 200 after this many ms if the receiver has not answered yet. */
  ackAfterMs?: number;
  /** After the receiver answered: e.g. relay.resend() an extra copy. */
  after?(a: RelayAttempt, receiverStatus: number, relay: WebhookRelay): void;
  /**
   * Keeps a forwarded attempt open this long after it was forwarded even when the sender gave up
   * earlier (default: the sender's end ends it). With `holdMs`, a sender's timeout (spec 6.5: 5 s)
   * then runs from the moment the receiver sees the attempt, as for a sender whose clock starts when
   * it sends: an outbox that holds an event before its first attempt.
   */
  senderTimeoutMs?: number;
  /** When the receiver's side of an attempt ended (its answer, a reset, or the forward given up). */
  ended?(a: RelayAttempt, atMs: number): void;
  /**
   * Ports the relay listens on, its routes spread over them in turn (default 1). A sender limits its
   * connections per origin (the reference server: 16), and an attempt the relay holds keeps one busy,
   * which an agent that holds an event before sending it (an outbox) never does: with a port per few
   * routes, the holds of one configuration do not queue another's attempts.
   */
  origins?: number;
}

export interface WebhookRelay {
  readonly url: string;
  /** A relay URL standing for `route.target`. */
  route(route: RelayRoute): string;
  /** The target behind a relay URL; any other value comes back unchanged. */
  original(url: string): string;
  /** Forwards a copy of an attempt after `delayMs` (the answer is ignored). */
  resend(a: RelayAttempt, delayMs: number): void;
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive']);

/** Signs the attempt's body afresh with the route's secret, as a conforming sender would (C-20). */
export function resign(a: RelayAttempt): void {
  if (a.route.secret === undefined) return;
  a.headers['x-webhook-signature'] =
    'sha256=' + createHmac('sha256', a.route.secret).update(a.body).digest('hex');
}

/** Replaces the payload (compact JSON) and signs it again, so only the edited field is wrong. */
export function setPayload(a: RelayAttempt, json: JsonObject): void {
  a.json = json;
  a.body = Buffer.from(JSON.stringify(json));
  resign(a);
}

export function deliveryOf(a: RelayAttempt): { attempt?: number; maxAttempts?: number } {
  const d = a.json?.delivery;
  return typeof d === 'object' && d !== null && !Array.isArray(d) ? (d as never) : {};
}

function parse(body: Buffer): JsonObject | undefined {
  try {
    const v = JSON.parse(body.toString('utf8')) as Json;
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

class Relay implements WebhookRelay {
  url = '';
  readonly servers: Server[];
  /** The base URL of each server (the first is `url`). */
  bases: string[] = [];
  private readonly routes: RelayRoute[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly outgoing = new Set<ReturnType<typeof request>>();

  constructor(private readonly mutation: RelayMutation) {
    this.servers = Array.from({ length: Math.max(1, mutation.origins ?? 1) }, () =>
      createServer((req, res) => void this.handle(req, res)),
    );
  }

  route(route: RelayRoute): string {
    this.routes.push(route);
    const n = this.routes.length - 1;
    return `${this.bases[n % this.bases.length] ?? this.url}/relay/${n}`;
  }

  original(url: string): string {
    for (const base of this.bases) {
      const prefix = `${base}/relay/`;
      if (url.startsWith(prefix)) return this.routes[Number(url.slice(prefix.length))]?.target ?? url;
    }
    return url;
  }

  resend(a: RelayAttempt, delayMs: number): void {
    this.later(delayMs, () => {
      this.forward(a).catch(() => undefined);
    });
  }

  async close(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    for (const r of this.outgoing) r.destroy();
    const closed = this.servers.map(
      (server) => new Promise<void>((resolve) => server.close(() => resolve())),
    );
    for (const server of this.servers) server.closeAllConnections();
    await Promise.all(closed);
  }

  private later(ms: number, fn: () => void): void {
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, ms);
    this.timers.add(t);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    const route = this.routes[Number((req.url ?? '').split('/')[2])];
    if (route === undefined) return void res.writeHead(404).end();
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) {
      if (!HOP_BY_HOP.has(k) && v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
    }
    const a: RelayAttempt = { route, headers, body, json: parse(body) };
    if (this.mutation.rewrite?.(a) === 'drop') return void res.writeHead(200).end('{"received":true}');
    const hold = this.mutation.holdMs?.(a) ?? 0;
    if (hold > 0) await new Promise<void>((resolve) => this.later(hold, resolve));
    let answered = false;
    const reply = (status: number, text: string): void => {
      if (answered || res.writableEnded || res.destroyed) return;
      answered = true;
      res.writeHead(status, { 'content-type': 'application/json' }).end(text);
    };
    if (this.mutation.ackAfterMs !== undefined) this.later(this.mutation.ackAfterMs, () => reply(200, '{}'));
    const forwardedAt = Date.now();
    const keepOpen = this.mutation.senderTimeoutMs ?? 0;
    const gone = (): boolean => res.destroyed && Date.now() - forwardedAt >= keepOpen;
    try {
      const got = await this.forward(a, gone);
      this.mutation.ended?.(a, Date.now());
      this.mutation.after?.(a, got.status, this);
      reply(this.mutation.answer?.(a, got.status) ?? got.status, got.text);
    } catch {
      this.mutation.ended?.(a, Date.now());
      // The receiver reset or refused the connection: the sender sees the same (C-20: a failed attempt).
      if (!answered) req.socket.resetAndDestroy();
    }
  }

  /** POSTs the attempt to its target; resolves with the receiver's answer. */
  private forward(
    a: RelayAttempt,
    gone: () => boolean = () => false,
  ): Promise<{ status: number; text: string }> {
    return new Promise((resolve, reject) => {
      const out = request(a.route.target, {
        method: 'POST',
        headers: { ...a.headers, 'content-length': String(a.body.length) },
        agent: false,
      });
      this.outgoing.add(out);
      // A sender that gave up (its 5 s timeout) takes the forwarded attempt down with it.
      const poll = setInterval(() => {
        if (gone()) out.destroy();
      }, 50);
      const done = (): void => {
        clearInterval(poll);
        this.outgoing.delete(out);
      };
      out.on('response', (r) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => {
          done();
          resolve({ status: r.statusCode ?? 502, text: Buffer.concat(chunks).toString('utf8') });
        });
        r.on('error', (e) => {
          done();
          reject(e);
        });
      });
      out.on('error', (e) => {
        done();
        reject(e);
      });
      out.end(a.body);
    });
  }
}

export async function startWebhookRelay(mutation: RelayMutation = {}): Promise<WebhookRelay> {
  const relay = new Relay(mutation);
  for (const server of relay.servers) {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    relay.bases.push(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  }
  relay.url = relay.bases[0]!;
  return relay;
}

// ---- the JSON-RPC side: set params in, set/get results out ----------------------------------------

export const SET = 'tasks/pushNotificationConfig/set';
export const GET = 'tasks/pushNotificationConfig/get';

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

// Only URLs the relay can reach are relayed; anything else is left for the server to judge (C-19).
const LOOPBACK_URL = /^https?:\/\/(127\.0\.0\.1|localhost|\[::1\])[:/]/;

/** Points the webhook configuration of a set request at the relay (in place). */
export function relaySetParams(relay: WebhookRelay, params: unknown): void {
  if (!isObject(params) || !isObject(params.config)) return;
  const config = params.config;
  if (typeof config.url !== 'string' || !LOOPBACK_URL.test(config.url)) return;
  const policy = isObject(config.retryPolicy) ? config.retryPolicy : {};
  const num = (v: unknown, fallback: number): number => (typeof v === 'number' ? v : fallback);
  const route: RelayRoute = {
    target: config.url,
    headerNames: isObject(config.headers) ? Object.keys(config.headers).map((k) => k.toLowerCase()) : [],
    retryPolicy: {
      maxRetries: num(policy.maxRetries, 3),
      backoffMultiplier: num(policy.backoffMultiplier, 2),
      initialDelay: num(policy.initialDelay, 1),
    },
  };
  if (typeof config.secret === 'string' && config.secret !== '') route.secret = config.secret;
  config.url = relay.route(route);
}

/** Puts the client's URL back into a set or get result (in place). */
export function restoreResultUrl(relay: WebhookRelay, method: string, result: unknown): void {
  if (!isObject(result)) return;
  if (method === SET && typeof result.url === 'string') result.url = relay.original(result.url);
  if (method === GET && isObject(result.config) && typeof result.config.url === 'string') {
    result.config.url = relay.original(result.config.url);
  }
}

// ---- a variant whose webhooks go through a relay ----------------------------------------------------

export interface WebhookMutantSpec {
  breaks: string;
  slug: string;
  description: string;
  /** What the relay does to each delivery attempt. */
  relay?: RelayMutation;
  /** Further proxy hooks; set requests are relayed after `request`, result URLs restored after `json`. */
  hooks?: ProxyHooks;
  options?: MutantOptions;
  only?: string[];
}

/** Proxy hooks that route every webhook configuration through `relay` and hide it from the client. */
export function relayHooks(relay: WebhookRelay, extra: ProxyHooks = {}): ProxyHooks {
  const json = { ...extra.json };
  for (const method of [SET, GET]) {
    const inner = extra.json?.[method] ?? extra.json?.['*'];
    // The client's URL goes back first, so a hook that re-serializes the body sends it too.
    json[method] = (body, ctx) => {
      restoreResultUrl(relay, method, isObject(body) ? body.result : undefined);
      return inner?.(body, ctx);
    };
  }
  return {
    ...extra,
    json,
    request(call) {
      const out = extra.request?.(call);
      if (call.method !== SET) return out;
      const value = out ?? call.json;
      relaySetParams(relay, isObject(value) ? value.params : undefined);
      return value;
    },
  };
}

/** A mutant whose webhook deliveries pass through a relay running `mutation`; closing it closes both. */
export async function startRelayedMutant(
  mutation: RelayMutation = {},
  hooks?: ProxyHooks,
  options?: MutantOptions,
): Promise<MutantTarget> {
  const relay = await startWebhookRelay(mutation);
  try {
    const target = await startMutant(relayHooks(relay, hooks), options);
    return {
      ...target,
      async close() {
        await target.close();
        await relay.close();
      },
    };
  } catch (error) {
    await relay.close();
    throw error;
  }
}

export function webhookMutant(spec: WebhookMutantSpec): Variant {
  return {
    name: `${idSlug(spec.breaks)}--${spec.slug}`,
    breaks: spec.breaks,
    expect: expectedVerdict(spec.breaks),
    area: 'webhooks',
    description: spec.description,
    ...(spec.only ? { only: spec.only } : {}),
    start: () => startRelayedMutant(spec.relay, spec.hooks, spec.options),
  };
}
