// How the option table (harness/option-table.ts) reads a value and writes it back: each kind parses
// what a flag, an A2A_* variable or a config file gave (a ConfigError naming the option when it is
// wrong) and spells a resolved value the way the CLI takes it (the reproduce lines), so that
// parse(spell(v)) gives v back.
import { resolve as absolute } from 'node:path';
import { ConfigError } from '../schemas/config-error.ts';
import { redactLine } from '../core/redaction.ts';
import { checkProxyUrl, parseHeaders } from './io/target/network.ts';
import type { Pace } from './io/traffic/pace.ts';

/** What a kind names in its messages: the option's config key, and its variable. */
export interface OptionName {
  key: string;
  env: string;
}

/** A kind of option value: read from any layer, spelled back as a flag takes it. */
export interface OptionValue<T> {
  parse(value: unknown, option: OptionName): T;
  /**
   * The flag's argument; a list: one use of the flag per item; a boolean: a switch, its flag alone
   * when true, nothing when false.
   */
  spell(value: T): string | readonly string[] | boolean;
  /** The value when no layer gives one and the row has no default (an empty list, a switch off). */
  absent?: T;
}

/** `timeoutMs` -> `--timeout-ms`. */
export function flagOf(key: string): string {
  return `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

/** Milliseconds per unit of a duration or a pace's window. */
const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };

/** An integer >= `min`, from a number or its decimal text. */
function integer(value: unknown, name: string, min: number): number {
  const n = typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < min) {
    throw new ConfigError(`${name} must be an integer >= ${min}, got ${JSON.stringify(value)}`);
  }
  return n;
}

/** A duration with its unit: `300s`, `5m`, `1h`, `1500ms`, in milliseconds. */
function durationMs(value: unknown, name: string): number {
  const m = typeof value === 'string' ? /^\s*(\d+)\s*(ms|s|m|h)\s*$/.exec(value) : null;
  if (!m)
    throw new ConfigError(`${name} must be a duration such as 90s, 5m or 1h, got ${JSON.stringify(value)}`);
  return Number(m[1]) * UNIT_MS[m[2]!]!;
}

/** Milliseconds in the largest unit that writes them whole: `7m`, `90s`, `1500ms`. */
function spellDuration(ms: number): string {
  return ms % 60_000 === 0 ? `${ms / 60_000}m` : ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`;
}

/** An integer of at least `min` (`--runs 400`; `--seed -3`). */
function integerFrom(min: number): OptionValue<number> {
  return { parse: (v, o) => integer(v, o.key, min), spell: String };
}

/** A duration with its unit (`--max-wait 6m`), resolved to milliseconds. */
const duration: OptionValue<number> = { parse: (v, o) => durationMs(v, o.key), spell: spellDuration };

/** A non-empty string (`--agent-id echo`). */
const text: OptionValue<string> = {
  parse: (value, o) => {
    if (typeof value !== 'string' || value === '')
      throw new ConfigError(`${o.key} must be a non-empty string`);
    return value;
  },
  spell: (value) => value,
};

/** A file, made absolute: the suites' workers read it too, whatever their directory (`--ca-cert`). */
const path: OptionValue<string> = { parse: (v, o) => absolute(text.parse(v, o)), spell: text.spell };

/** A switch: the flag alone, or true/false (1/0, yes/no) in a variable or a file. */
const toggle: OptionValue<boolean> & { absent: boolean } = {
  parse: (value, o) => {
    if (value === true || value === false) return value;
    const v = typeof value === 'string' ? value.trim().toLowerCase() : undefined;
    if (v === '1' || v === 'true' || v === 'yes') return true;
    if (v === '0' || v === 'false' || v === 'no' || v === '') return false;
    throw new ConfigError(`${o.key} must be true or false, got ${JSON.stringify(value)}`);
  },
  spell: (value) => value,
  absent: false,
};

/** One of `choices`, in any case (`--level must`). */
function choice<C extends string>(choices: readonly C[]): OptionValue<C> {
  return {
    parse: (value, o) => {
      const v = typeof value === 'string' ? value.toLowerCase() : value;
      if (choices.includes(v as C)) return v as C;
      throw new ConfigError(`${o.key} must be one of ${choices.join(', ')}; got ${JSON.stringify(value)}`);
    },
    spell: (value) => value,
  };
}

/** Items from repeated flags, a JSON array or a comma-separated string (a variable), blanks dropped. */
function items(value: unknown): string[] | null {
  const given = Array.isArray(value) ? value : typeof value === 'string' ? [value] : null;
  if (given === null || !given.every((i) => typeof i === 'string')) return null;
  return (given as string[])
    .flatMap((i) => i.split(','))
    .map((i) => i.trim())
    .filter((i) => i !== '');
}

/** `--only` globs: repeated flags, a JSON array, or a comma-separated string. */
const globs: OptionValue<string[]> & { absent: string[] } = {
  parse: (value, o) => {
    const list = items(value);
    if (list === null) throw new ConfigError(`${o.key} must be a glob string or a list of them`);
    return list;
  },
  spell: (value) => value,
  absent: [],
};

const PACE_UNITS: Record<number, string> = { 1000: 's', 60_000: 'm', 3_600_000: 'h' };

/**
 * `--rate <n>/<s|m|h>` (Schemathesis' form) or `off` (null): at most n requests per second, minute or
 * hour. A window the flag cannot write is spelled per minute, rounded down.
 */
const pace: OptionValue<Pace | null> = {
  parse: (value, o) => {
    if (typeof value === 'string' && value.trim().toLowerCase() === 'off') return null;
    const m = typeof value === 'string' ? /^\s*(\d+)\s*\/\s*(s|m|h)\s*$/.exec(value) : null;
    const limit = m ? Number(m[1]) : NaN;
    if (!m || !Number.isSafeInteger(limit) || limit < 1) {
      throw new ConfigError(
        `${o.key} must be <n>/s, <n>/m, <n>/h (n >= 1) or off, got ${JSON.stringify(value)}`,
      );
    }
    return { limit, windowMs: UNIT_MS[m[2]!]!, source: 'option' };
  },
  spell: (value) => {
    if (value === null) return 'off';
    const unit = PACE_UNITS[value.windowMs];
    if (unit !== undefined) return `${value.limit}/${unit}`;
    return `${Math.max(1, Math.floor((value.limit * 60_000) / value.windowMs))}/m`;
  },
};

/** An absolute http(s) URL, its user information never in a message. */
function httpUrl(value: unknown, o: OptionName): string {
  const given = text.parse(value, o);
  let parsed: URL;
  try {
    parsed = new URL(given);
  } catch {
    throw new ConfigError(
      `${o.key} must be an absolute http(s) URL, got ${JSON.stringify(redactLine(given, []))}`,
    );
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new ConfigError(
      `${o.key} must be an http: or https: URL, got ${JSON.stringify(redactLine(given, []))}`,
    );
  }
  return given;
}

/**
 * A URL the harness adds paths to (the target's base URL, the receiver's public URL), without its
 * trailing slashes: a query string or a fragment would end up before the added path, so either is
 * refused, naming the option and its variable.
 */
const baseUrl: OptionValue<string> = {
  parse: (value, o) => {
    const given = httpUrl(value, o);
    const parsed = new URL(given);
    // `new URL` drops a bare `?` or `#`; the text still has it.
    const part =
      parsed.hash !== '' || given.includes('#')
        ? 'a fragment (#...)'
        : parsed.search !== '' || given.includes('?')
          ? 'a query string (?...)'
          : undefined;
    if (part === undefined) return given.replace(/\/+$/, '');
    throw new ConfigError(
      `${flagOf(o.key)} (${o.env}) is a base URL the harness adds paths to, so it cannot carry ${part}: got ${JSON.stringify(redactLine(given, []))}`,
    );
  },
  spell: (value) => value,
};

/**
 * Base URLs (`--replica http://10.0.0.5:8080`, repeated, or comma-separated in a variable): each
 * http(s), without its trailing slashes, in the order given.
 */
const urls: OptionValue<string[]> = {
  parse: (value, o) => {
    const given = items(value) ?? [value];
    return given.map((v) => {
      const url = typeof v === 'string' ? v : '';
      if (!/^https?:\/\/[^/\s]+/.test(url)) {
        throw new ConfigError(`${o.key} must be http(s) base URLs, got ${JSON.stringify(v)}`);
      }
      return url.replace(/\/+$/, '');
    });
  },
  spell: (value) => value,
};

/** A forward proxy's URL (`--proxy http://proxy:3128`), http or https. */
const proxyUrl: OptionValue<string> = {
  parse: (value, o) => checkProxyUrl(text.parse(value, o), o.key),
  spell: (value) => value,
};

/** `host:port` (`--webhook-listen 0.0.0.0:8099`; an IPv6 host in brackets). */
const hostPort: OptionValue<{ host: string; port: number }> = {
  parse: (value, o) => {
    const m = typeof value === 'string' ? /^(.+):(\d{1,5})$/.exec(value) : null;
    const port = m ? Number(m[2]) : NaN;
    if (!m || port > 65535) throw new ConfigError(`${o.key} must be host:port, got ${JSON.stringify(value)}`);
    return { host: m[1]!.replace(/^\[(.*)\]$/, '$1'), port };
  },
  spell: ({ host, port }) => `${host.includes(':') ? `[${host}]` : host}:${port}`,
};

/**
 * `Name: value` headers (repeated flags, a JSON array or object, or one a line in a variable), by
 * lower-case name; the harness's own headers are refused (harness/io/target/network.ts).
 */
const headers: OptionValue<Record<string, string>> & { absent: Record<string, string> } = {
  parse: (value, o) => parseHeaders(headerLines(value, o.key), flagOf(o.key), true),
  spell: (value) => Object.entries(value).map(([name, v]) => `${name}: ${v}`),
  absent: {},
};

function headerLines(value: unknown, name: string): string[] {
  if (typeof value === 'string') return value.split(/\r?\n/).filter((l) => l.trim() !== '');
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value as string[];
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const entries = Object.entries(value);
    if (entries.every(([, v]) => typeof v === 'string'))
      return entries.map(([k, v]) => `${k}: ${v as string}`);
  }
  throw new ConfigError(`${name} must be a list of "Name: value" strings or an object of header values`);
}

/** The kinds the table's rows name. */
export const VALUE = Object.freeze({
  /** A count of at least one (`--concurrency 8`). */
  positive: integerFrom(1),
  /** An integer from -2^31 (`--seed`). */
  signed: integerFrom(-(2 ** 31)),
  duration,
  text,
  path,
  toggle,
  choice,
  globs,
  pace,
  baseUrl,
  urls,
  proxyUrl,
  hostPort,
  headers,
});
