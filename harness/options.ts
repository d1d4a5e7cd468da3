// Resolves the run options from four layers, highest first: CLI flags, A2A_* environment variables,
// a JSON config file (--config), defaults. Validation errors are ConfigError (exit 2, never a verdict).
import { readFileSync } from 'node:fs';
import { resolve as absolute } from 'node:path';
import { ConfigError } from '../schemas/config-error.ts';
import type { Pace } from './io/traffic/pace.ts';
import {
  checkProxyUrl,
  checkTlsFiles,
  parseHeaders,
  resolveProxy,
  type NetworkSettings,
} from './io/target/network.ts';
import {
  flagOf,
  nameOf,
  OPTIONS,
  PROFILES,
  RUN_OPTIONS,
  type FieldValues,
  type OptionKey,
  type TableValues,
} from './option-table.ts';
import { integer, UNIT_MS } from './option-values.ts';
import { EVIDENCE_MODES, type EvidenceMode, type LevelSelection, type Profile } from '../core/types.ts';
import { redactLine } from '../core/redaction.ts';

export { ConfigError };

export type Layer = 'flag' | 'env' | 'file';
export type RawOptions = Partial<Record<OptionKey, unknown>>;

/** Option name (camelCase, as in the config file) -> environment variable (harness/option-table.ts). */
export const ENV_VARS = Object.freeze(
  Object.fromEntries(RUN_OPTIONS.map((o) => [o.key, o.env])) as Record<OptionKey, string>,
);
export type { OptionKey };
const KEYS = RUN_OPTIONS.map((o) => o.key);

/** The resolved run options: those the table resolves alone (TableValues) and these. */
export interface ResolvedRunOptions extends TableValues {
  /** Undefined: certify the bundled reference server. */
  target?: string;
  agentId?: string;
  apiKey?: string;
  bearer?: string;
  /** Directory for report.json; null writes nothing. */
  out: string | null;
  level: LevelSelection;
  only: string[];
  webhookListen: { host: string; port: number };
  webhookPublicUrl?: string;
  /** Budget of one request. */
  timeoutMs: number;
  /** Budget of one check (a check may make many requests and wait for webhooks). */
  checkTimeoutMs: number;
  /** How long the probe waits for the target's first answer (a cold start); at least timeoutMs. */
  coldStartMs: number;
  /** Budget of the whole run; when spent the run stops and exits 2. */
  budgetMs: number;
  seed: number;
  runs: number;
  baseline?: string;
  /** `--events`: the file the run's events stream into, one JSON line each; `-`: stdout. */
  events?: string;
  /** A MUST requirement not exercised exits 1 instead of 0 (--fail-on-unverified). */
  failOnUnverified: boolean;
  /** Wire evidence kept: all, or only that of checks that did not pass, or none. */
  evidence: EvidenceMode;
  /** `--rate`: the pace instead of the card's; null: no pacing ('off'); undefined: the card's. */
  rate?: Pace | null;
  /** Default: full for the bundled target, standard against a --target. */
  profile: Profile;
  /** TLS, proxy and extra headers of every request to the target (harness/io/target/network.ts). */
  network: NetworkSettings;
  /** --proxy as given (the environment's proxy is in network.proxy). */
  proxyOption?: string;
}

function defaultOf<T extends string | number>(key: OptionKey): T {
  const row = OPTIONS.find((o) => o.key === key);
  if (row?.default === undefined) throw new Error(`option table: ${key} has no default value`);
  return row.default as T;
}

/** The defaults that are one value, from the option table. */
/** The run's budget with --profile smoke unless --budget-ms says otherwise. */
export const SMOKE_BUDGET_MS = 300_000;

export const DEFAULTS = Object.freeze({
  out: defaultOf<string>('out'),
  level: defaultOf<LevelSelection>('level'),
  webhookListen: defaultOf<string>('webhookListen'),
  timeoutMs: defaultOf<number>('timeoutMs'),
  coldStartMs: defaultOf<number>('coldStartMs'),
  budgetMs: defaultOf<number>('budgetMs'),
  runs: defaultOf<number>('runs'),
  concurrency: defaultOf<number>('concurrency'),
});

/**
 * The options the table resolves alone (a row with a `value`): the parsed value by its resolved
 * name, else the row's default, else null.
 */
export function tableValues(raw: RawOptions): TableValues {
  const values: Record<string, unknown> = {};
  for (const row of OPTIONS) {
    if (row.value === undefined) continue;
    const given = raw[row.key as OptionKey];
    values[nameOf(row)] = given === undefined ? (row.default ?? null) : row.value.parse(given, row.key);
  }
  return values as TableValues;
}

/** Of the options the table resolves, those handed to every check (`field: true`), by resolved name. */
export function fieldValues(values: TableValues): FieldValues {
  const field: Record<string, unknown> = {};
  for (const row of OPTIONS) {
    if (row.field === true) field[nameOf(row)] = (values as unknown as Record<string, unknown>)[nameOf(row)];
  }
  return field as FieldValues;
}

/** A check's budget without --check-timeout-ms: several requests plus a webhook retry schedule (C-20: 1 + 2 + 4 s). */
export function defaultCheckTimeoutMs(timeoutMs: number): number {
  return Math.max(30_000, 3 * timeoutMs);
}

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

/**
 * An API key and a bearer token from different layers: the higher layer wins. From one layer: both
 * are kept; the key is the run's credential and the token is used by the both-forms checks (spec 5).
 */
function pickCredential(
  raw: RawOptions,
  from: Partial<Record<OptionKey, Layer>>,
): Pick<RawOptions, 'apiKey' | 'bearer'> {
  if (raw.apiKey === undefined || raw.bearer === undefined) return { apiKey: raw.apiKey, bearer: raw.bearer };
  const keyRank = RANK[from.apiKey!];
  const bearerRank = RANK[from.bearer!];
  if (keyRank === bearerRank) return { apiKey: raw.apiKey, bearer: raw.bearer };
  return keyRank > bearerRank ? { apiKey: raw.apiKey } : { bearer: raw.bearer };
}

/**
 * `processEnv`: where HTTPS_PROXY / HTTP_PROXY / NO_PROXY are read (the A2A_* variables come in the
 * env layer); none: no proxy unless --proxy.
 */
export function resolveOptions(
  layers: Record<Layer, RawOptions>,
  processEnv: NodeJS.ProcessEnv = {},
): ResolvedRunOptions {
  const { raw, from } = mergeLayers(layers);
  const cred = pickCredential(raw, from);
  const timeoutMs = int(raw.timeoutMs, 'timeoutMs', DEFAULTS.timeoutMs, 1);
  const target = raw.target === undefined ? undefined : prefixUrl(raw.target, 'target');
  const resolved: ResolvedRunOptions = {
    ...tableValues(raw),
    out: raw.out === null ? null : (str(raw.out, 'out') ?? DEFAULTS.out),
    // smoke exercises the MUST requirements only, unless --level says otherwise.
    level: level(raw.level ?? (raw.profile === 'smoke' ? 'must' : undefined)),
    only: list(raw.only),
    webhookListen: hostPort(raw.webhookListen ?? DEFAULTS.webhookListen),
    timeoutMs,
    checkTimeoutMs: int(raw.checkTimeoutMs, 'checkTimeoutMs', defaultCheckTimeoutMs(timeoutMs), 1),
    coldStartMs: Math.max(timeoutMs, int(raw.coldStartMs, 'coldStartMs', DEFAULTS.coldStartMs, 1)),
    // smoke is the quick look: five minutes, every MUST requirement first (harness/runner/plan.ts).
    budgetMs: int(raw.budgetMs, 'budgetMs', raw.profile === 'smoke' ? SMOKE_BUDGET_MS : DEFAULTS.budgetMs, 1),
    seed: int(raw.seed, 'seed', Math.floor(Math.random() * 2 ** 31), -(2 ** 31)),
    runs: int(raw.runs, 'runs', DEFAULTS.runs, 1),
    evidence: evidenceMode(raw.evidence, target),
    failOnUnverified: bool(raw.failOnUnverified, 'failOnUnverified'),
    profile: profile(raw.profile, target === undefined ? 'full' : 'standard'),
    network: network(raw, processEnv),
  };
  if (raw.proxy !== undefined) resolved.proxyOption = resolved.network.proxy!.http!;
  if (raw.rate !== undefined) resolved.rate = rate(raw.rate);
  if (target !== undefined) resolved.target = target.replace(/\/+$/, '');
  setIfDefined(resolved, 'agentId', str(raw.agentId, 'agentId'));
  setIfDefined(resolved, 'apiKey', str(cred.apiKey, 'apiKey'));
  setIfDefined(resolved, 'bearer', str(cred.bearer, 'bearer'));
  setIfDefined(resolved, 'baseline', str(raw.baseline, 'baseline'));
  setIfDefined(resolved, 'events', str(raw.events, 'events'));
  if (raw.webhookPublicUrl !== undefined)
    resolved.webhookPublicUrl = prefixUrl(raw.webhookPublicUrl, 'webhookPublicUrl');
  checkTargetCompleteness(resolved);
  return resolved;
}

/** The TLS, proxy and header options; the PEM files are read and tried here (exit 2 when unusable). */
function network(raw: RawOptions, processEnv: NodeJS.ProcessEnv): NetworkSettings {
  const net: NetworkSettings = {};
  // Absolute: the suites' workers read the files too, whatever their directory.
  const path = (key: 'caCert' | 'clientCert' | 'clientKey'): string | undefined => {
    const given = str(raw[key], key);
    return given === undefined ? undefined : absolute(given);
  };
  const caCert = path('caCert');
  const clientCert = path('clientCert');
  const clientKey = path('clientKey');
  if (caCert !== undefined) net.caCert = caCert;
  if (clientCert !== undefined) net.clientCert = clientCert;
  if (clientKey !== undefined) net.clientKey = clientKey;
  if (bool(raw.insecure, 'insecure')) net.insecure = true;
  const proxyOption = raw.proxy === undefined ? undefined : checkProxyUrl(str(raw.proxy, 'proxy')!, 'proxy');
  const proxy = resolveProxy(proxyOption, processEnv);
  if (proxy !== undefined) net.proxy = proxy;
  const plain = parseHeaders(headerList(raw.header, 'header'), '--header', true);
  const secret = parseHeaders(headerList(raw.secretHeader, 'secretHeader'), '--secret-header', true);
  const headers = { ...plain, ...secret };
  if (Object.keys(headers).length > 0) net.headers = headers;
  if (Object.keys(secret).length > 0) net.secretHeaders = Object.keys(secret);
  checkTlsFiles(net);
  return net;
}

/** `Name: value` headers: repeated flags, a JSON array or object, or one per line (environment). */
function headerList(value: unknown, name: string): string[] {
  if (value === undefined) return [];
  if (typeof value === 'string') return value.split(/\r?\n/).filter((l) => l.trim() !== '');
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value as string[];
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const entries = Object.entries(value);
    if (entries.every(([, v]) => typeof v === 'string'))
      return entries.map(([k, v]) => `${k}: ${v as string}`);
  }
  throw new ConfigError(`${name} must be a list of "Name: value" strings or an object of header values`);
}

function bool(value: unknown, name: string): boolean {
  if (value === undefined || value === false) return false;
  if (value === true) return true;
  const v = typeof value === 'string' ? value.trim().toLowerCase() : undefined;
  if (v === '1' || v === 'true' || v === 'yes') return true;
  if (v === '0' || v === 'false' || v === 'no' || v === '') return false;
  throw new ConfigError(`${name} must be true or false, got ${JSON.stringify(value)}`);
}

function checkTargetCompleteness(o: ResolvedRunOptions): void {
  if (o.target === undefined) return;
  if (o.agentId === undefined) throw new ConfigError('--target needs --agent-id (or A2A_AGENT_ID)');
  if (o.apiKey === undefined && o.bearer === undefined) {
    throw new ConfigError('--target needs a credential: --api-key (A2A_API_KEY) or --bearer (A2A_BEARER)');
  }
}

function setIfDefined<K extends 'agentId' | 'apiKey' | 'bearer' | 'baseline' | 'events'>(
  o: ResolvedRunOptions,
  key: K,
  value: string | undefined,
): void {
  if (value !== undefined) o[key] = value;
}

function str(value: unknown, name: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value === '') throw new ConfigError(`${name} must be a non-empty string`);
  return value;
}

function int(value: unknown, name: string, fallback: number, min: number): number {
  return value === undefined ? fallback : integer(value, name, min);
}

function url(value: unknown, name: string): string {
  const text = str(value, name)!;
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    throw new ConfigError(
      `${name} must be an absolute http(s) URL, got ${JSON.stringify(redactLine(text, []))}`,
    );
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new ConfigError(
      `${name} must be an http: or https: URL, got ${JSON.stringify(redactLine(text, []))}`,
    );
  }
  return text;
}

/**
 * A URL the harness adds paths to (the target's base URL, the receiver's public URL): a query string
 * or a fragment would end up before the added path, so either is refused, naming the option.
 */
function prefixUrl(value: unknown, key: 'target' | 'webhookPublicUrl'): string {
  const text = url(value, key);
  const parsed = new URL(text);
  // `new URL` drops a bare `?` or `#`; the text still has it.
  const part =
    parsed.hash !== '' || text.includes('#')
      ? 'a fragment (#...)'
      : parsed.search !== '' || text.includes('?')
        ? 'a query string (?...)'
        : undefined;
  if (part === undefined) return text;
  const env = RUN_OPTIONS.find((o) => o.key === key)?.env;
  throw new ConfigError(
    `${flagOf(key)}${env === undefined ? '' : ` (${env})`} is a base URL the harness adds paths to, so it cannot carry ${part}: got ${JSON.stringify(redactLine(text, []))}`,
  );
}

function level(value: unknown): LevelSelection {
  if (value === undefined) return DEFAULTS.level;
  const v = typeof value === 'string' ? value.toLowerCase() : value;
  if (v === 'must' || v === 'should' || v === 'all') return v;
  throw new ConfigError(`level must be one of must, should, all; got ${JSON.stringify(value)}`);
}

/** `--only` globs: repeated flags, a JSON array, or a comma-separated string (env). */
function list(value: unknown): string[] {
  if (value === undefined) return [];
  const items = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : null;
  if (items === null || !items.every((i) => typeof i === 'string')) {
    throw new ConfigError('only must be a glob string or a list of them');
  }
  return (items as string[])
    .flatMap((i) => i.split(','))
    .map((i) => i.trim())
    .filter((i) => i !== '');
}

/**
 * Against a target of the user's, reports go to CI artifacts and pull requests, where the findings
 * matter and the evidence of hundreds of passes only weighs (16 MB for a whole run): `failing`.
 * The bundled reference server is the executable answer to "what does the spec mean here?": its
 * passing exchanges are what a reader came for, so `all`.
 */
function evidenceMode(value: unknown, target: string | undefined): EvidenceMode {
  if (value === undefined) return target === undefined ? 'all' : 'failing';
  const v = typeof value === 'string' ? value.toLowerCase() : value;
  if (EVIDENCE_MODES.includes(v as EvidenceMode)) return v as EvidenceMode;
  throw new ConfigError(`evidence must be one of ${EVIDENCE_MODES.join(', ')}; got ${JSON.stringify(value)}`);
}

function hostPort(value: unknown): { host: string; port: number } {
  const m = typeof value === 'string' ? /^(.+):(\d{1,5})$/.exec(value) : null;
  const port = m ? Number(m[2]) : NaN;
  if (!m || port > 65535)
    throw new ConfigError(`webhookListen must be host:port, got ${JSON.stringify(value)}`);
  return { host: m[1]!.replace(/^\[(.*)\]$/, '$1'), port };
}

function profile(value: unknown, fallback: Profile): Profile {
  if (value === undefined) return fallback;
  const v = typeof value === 'string' ? value.toLowerCase() : value;
  if (PROFILES.includes(v as Profile)) return v as Profile;
  throw new ConfigError(`profile must be one of ${PROFILES.join(', ')}; got ${JSON.stringify(value)}`);
}

/** `--rate <n>/<s|m|h>` (Schemathesis' form) or `off`: at most n requests per second, minute or hour. */
export function rate(value: unknown): Pace | null {
  if (typeof value === 'string' && value.trim().toLowerCase() === 'off') return null;
  const m = typeof value === 'string' ? /^\s*(\d+)\s*\/\s*(s|m|h)\s*$/.exec(value) : null;
  const limit = m ? Number(m[1]) : NaN;
  if (!m || !Number.isSafeInteger(limit) || limit < 1) {
    throw new ConfigError(`rate must be <n>/s, <n>/m, <n>/h (n >= 1) or off, got ${JSON.stringify(value)}`);
  }
  return { limit, windowMs: UNIT_MS[m[2]!]!, source: 'option' };
}
