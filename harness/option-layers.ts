// The three layers a run option comes from, as given (harness/options.ts parses and resolves them):
// A2A_* environment variables, a JSON config file (--config), and their merge under the flags, key by
// key (flags > env > file), remembering where each value came from. Names from harness/option-table.ts.
import { readFileSync } from 'node:fs';
import { ConfigError } from '../schemas/config-error.ts';
import { RUN_OPTIONS, type OptionKey } from './option-table.ts';

export type Layer = 'flag' | 'env' | 'file';
export type RawOptions = Partial<Record<OptionKey, unknown>>;
export type { OptionKey };

/** Option name (camelCase, as in the config file) -> environment variable. */
export const ENV_VARS = Object.freeze(
  Object.fromEntries(RUN_OPTIONS.map((o) => [o.key, o.env])) as Record<OptionKey, string>,
);
const KEYS = RUN_OPTIONS.map((o) => o.key);

export function readConfigFile(path: string): RawOptions {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new ConfigError(`cannot read config file ${path}: ${(e as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ConfigError(`config file ${path} must hold a JSON object`);
  }
  const unknown = Object.keys(parsed).filter((k) => !(KEYS as readonly string[]).includes(k));
  if (unknown.length > 0) {
    throw new ConfigError(
      `config file ${path}: unknown option(s) ${unknown.join(', ')}; known: ${KEYS.join(', ')}`,
    );
  }
  return parsed as RawOptions;
}

export function readEnv(env: NodeJS.ProcessEnv): RawOptions {
  const out: RawOptions = {};
  for (const key of KEYS) {
    const value = env[ENV_VARS[key]];
    if (value !== undefined && value !== '') out[key] = value;
  }
  return out;
}

/** Merges the layers key by key (flags > env > file) and remembers where each value came from. */
export function mergeLayers(layers: Record<Layer, RawOptions>): {
  raw: RawOptions;
  from: Partial<Record<OptionKey, Layer>>;
} {
  const raw: RawOptions = {};
  const from: Partial<Record<OptionKey, Layer>> = {};
  for (const layer of ['file', 'env', 'flag'] as const) {
    for (const key of KEYS) {
      if (layers[layer][key] !== undefined) {
        raw[key] = layers[layer][key];
        from[key] = layer;
      }
    }
  }
  return { raw, from };
}

const RANK: Record<Layer, number> = { flag: 3, env: 2, file: 1 };

/** Of two options given in different layers, the one given in the higher layer; undefined: the same layer. */
export function higherLayer(
  from: Partial<Record<OptionKey, Layer>>,
  a: OptionKey,
  b: OptionKey,
): OptionKey | undefined {
  const rankA = RANK[from[a]!];
  const rankB = RANK[from[b]!];
  return rankA === rankB ? undefined : rankA > rankB ? a : b;
}
