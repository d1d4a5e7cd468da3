// How the option table (harness/option-table.ts) reads a value and writes it back: each kind parses
// what a flag, an A2A_* variable or a config file gave (a ConfigError naming the option when it is
// wrong) and spells a resolved value the way the CLI takes it (the reproduce lines).
import { ConfigError } from '../schemas/config-error.ts';

/** A kind of option value: read from any layer, spelled back as a flag's argument. */
export interface OptionValue<T> {
  parse(value: unknown, name: string): T;
  spell(value: T): string;
}

/** Milliseconds per unit of a duration or a pace's window. */
export const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };

/** An integer >= `min`, from a number or its decimal text. */
export function integer(value: unknown, name: string, min: number): number {
  const n = typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < min) {
    throw new ConfigError(`${name} must be an integer >= ${min}, got ${JSON.stringify(value)}`);
  }
  return n;
}

/** A duration with its unit: `300s`, `5m`, `1h`, `1500ms`, in milliseconds. */
export function durationMs(value: unknown, name: string): number {
  const m = typeof value === 'string' ? /^\s*(\d+)\s*(ms|s|m|h)\s*$/.exec(value) : null;
  if (!m)
    throw new ConfigError(`${name} must be a duration such as 90s, 5m or 1h, got ${JSON.stringify(value)}`);
  return Number(m[1]) * UNIT_MS[m[2]!]!;
}

/** Milliseconds in the largest unit that writes them whole: `7m`, `90s`, `1500ms`. */
export function spellDuration(ms: number): string {
  return ms % 60_000 === 0 ? `${ms / 60_000}m` : ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`;
}

/** A count of at least one (`--concurrency 8`). */
const positive: OptionValue<number> = { parse: (v, name) => integer(v, name, 1), spell: String };
/** A duration with its unit (`--max-wait 6m`), resolved to milliseconds. */
const duration: OptionValue<number> = { parse: durationMs, spell: spellDuration };

/**
 * Base URLs (`--replica http://10.0.0.5:8080`, repeated, or comma-separated in the environment):
 * each http(s), without its trailing slashes, in the order given.
 */
const urls: OptionValue<string[]> = {
  parse: (value, name) => {
    const given = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : [value];
    return given.map((v) => {
      const url = typeof v === 'string' ? v.trim() : '';
      if (!/^https?:\/\/[^/\s]+/.test(url)) {
        throw new ConfigError(`${name} must be http(s) base URLs, got ${JSON.stringify(v)}`);
      }
      return url.replace(/\/+$/, '');
    });
  },
  spell: (value) => value.join(','),
};

/** The kinds the table's rows name. */
export const VALUE = Object.freeze({ positive, duration, urls });
