// The pieces of the legal variants (mutants/legal/): `legal()` builds a variant from proxy hooks and a
// rewrite of every JSON value the server sends (answers, SSE events and, through the webhook relay,
// deliveries signed afresh), plus the walkers and serializers those rewrites share.
import { startMutant, type MutantOptions, type ProxyCall, type ProxyHooks } from './proxy.ts';
import type { LegalVariant } from './types.ts';
import {
  isObject,
  resign,
  startRelayedMutant,
  type JsonObject,
  type RelayAttempt,
  type RelayMutation,
} from './webhook-relay.ts';

export type Where = 'answer' | 'event' | 'delivery';

export interface LegalSpec {
  name: string;
  /** freedom ids (requirements/freedoms.ts) */
  varies: readonly string[];
  description: string;
  allowedBy: string;
  only?: string[];
  hooks?: ProxyHooks;
  /** Rewrites, in place, every JSON value the server sends (answers, SSE events, webhook payloads). */
  everyJson?(json: unknown, where: Where): void;
  /** The text of a rewritten value (default compact JSON); for SSE it must hold no line break. */
  serialize?(json: unknown, where: Where): string;
  /** What the webhook relay does to each delivery (after `everyJson`). */
  relay?: RelayMutation;
  /** Rewrites, in place, every JSON-RPC request before it reaches the server. */
  request?(json: unknown, call: ProxyCall): void;
  options?: MutantOptions;
}

function hooksOf(spec: LegalSpec): ProxyHooks {
  const hooks: ProxyHooks = { ...spec.hooks };
  const { everyJson, serialize } = spec;
  if (everyJson !== undefined || serialize !== undefined) {
    const text = (json: unknown, where: Where): string | undefined => {
      everyJson?.(json, where);
      return serialize?.(json, where);
    };
    hooks.json = { ...hooks.json, '*': (body) => text(body, 'answer') };
    hooks.sseEvent = (payload) => {
      const out = text(payload, 'event');
      return out === undefined ? undefined : `data: ${out}\n\n`;
    };
  }
  if (spec.request !== undefined) {
    const rewrite = spec.request;
    hooks.request = (call) => {
      if (call.json === undefined) return undefined;
      rewrite(call.json, call);
      return call.json;
    };
  }
  return hooks;
}

function relayOf(spec: LegalSpec): RelayMutation | undefined {
  if (spec.everyJson === undefined && spec.serialize === undefined) return spec.relay;
  const inner = spec.relay;
  return {
    ...inner,
    rewrite(a: RelayAttempt) {
      if (a.json !== undefined) {
        spec.everyJson?.(a.json, 'delivery');
        a.body = Buffer.from(spec.serialize?.(a.json, 'delivery') ?? JSON.stringify(a.json));
        resign(a);
      }
      return inner?.rewrite?.(a);
    },
  };
}

export function legal(spec: LegalSpec): LegalVariant {
  const hooks = hooksOf(spec);
  const mutation = relayOf(spec);
  return {
    name: spec.name,
    varies: spec.varies,
    description: spec.description,
    allowedBy: spec.allowedBy,
    ...(spec.only ? { only: spec.only } : {}),
    async start() {
      if (mutation === undefined) return startMutant(hooks, spec.options);
      return startRelayedMutant(mutation, hooks, spec.options);
    },
  };
}

// ---- walking JSON values in place ----------------------------------------------------------------

/** Calls `fn` on every object of `value`, parents before children (fn may add or reorder members). */
export function eachObject(value: unknown, fn: (o: JsonObject, key: string | undefined) => void): void {
  const walk = (v: unknown, key: string | undefined): void => {
    if (Array.isArray(v)) for (const item of v) walk(item, key);
    else if (isObject(v)) {
      fn(v, key);
      for (const [k, child] of Object.entries(v)) walk(child, k);
    }
  };
  walk(value, undefined);
}

/** Replaces, in place, every string value of `value` (not keys) by `fn(string, key)`. */
export function eachString(value: unknown, fn: (s: string, key: string | undefined) => string): void {
  eachObject({ root: value }, (o) => {
    for (const [k, v] of Object.entries(o)) {
      if (typeof v === 'string') o[k] = fn(v, k);
      else if (Array.isArray(v)) {
        v.forEach((item, i) => {
          if (typeof item === 'string') v[i] = fn(item, k);
        });
      }
    }
  });
}

/** The members of `o` in a new order, in place. */
export function reorder(o: JsonObject, order: (keys: string[]) => string[]): void {
  const entries = Object.entries(o);
  for (const [k] of entries) delete o[k];
  const byKey = new Map(entries);
  for (const k of order(entries.map(([key]) => key))) o[k] = byKey.get(k)!;
}

// ---- other JSON texts of the same value ------------------------------------------------------------

/**
 * JSON text of `v` with every string escaped by `escape` (which returns the text between the quotes)
 * and every number written by `number`.
 */
export function stringifyWith(
  v: unknown,
  escape: (s: string) => string,
  gap = '',
  number: (n: number) => string = (n) => JSON.stringify(n),
): string {
  const again = (x: unknown): string => stringifyWith(x, escape, gap, number);
  if (typeof v === 'string') return `"${escape(v)}"`;
  if (typeof v === 'number' && Number.isFinite(v)) return number(v);
  if (Array.isArray(v)) return `[${gap}${v.map(again).join(`,${gap}`)}${gap}]`;
  if (isObject(v)) {
    const members = Object.entries(v)
      .filter(([, x]) => x !== undefined)
      .map(([k, x]) => `"${escape(k)}"${gap}:${gap}${again(x)}`);
    return `{${gap}${members.join(`,${gap}`)}${gap}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

/** The JSON string escapes JSON.stringify uses (the text between the quotes). */
export const plainEscape = (s: string): string => JSON.stringify(s).slice(1, -1);

const hex4 = (c: string): string => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** The RFC 8259 escapes a JSON text may use for any character: \u for non-ASCII, `\/`, and more. */
export function heavyEscape(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i += 1) {
    const c = s[i]!;
    if (c === '"' || c === '\\') out += `\\${c}`;
    else if (c === '/') out += '\\/';
    else if (c < ' ' || c > '~' || c === 'a' || c === 'e') out += hex4(c);
    else out += c;
  }
  return out;
}
