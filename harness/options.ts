// Resolves the run's options (ResolvedRunOptions): the layers merged (harness/option-layers.ts: flags >
// A2A_* environment > config file), every given value parsed by its row's kind (harness/option-table.ts),
// then the defaults, and what the table leaves to this module (its `composed` rows): the defaults that
// depend on other options, the credentials' precedence, the network settings. A bad value is a
// ConfigError naming the option (exit 2, never a verdict).
import { ConfigError } from '../schemas/config-error.ts';
import type { Pace } from './io/traffic/pace.ts';
import { checkTlsFiles, resolveProxy, type NetworkSettings } from './io/target/network.ts';
import { higherLayer, mergeLayers, type Layer, type RawOptions } from './option-layers.ts';
import {
  nameOf,
  OPTIONS,
  rowOf,
  type DefaultValues,
  type FieldValues,
  type GivenValues,
  type OptionKey,
  type TableValues,
} from './option-table.ts';
import type { EvidenceMode, LevelSelection, Profile } from '../core/types.ts';

export { ConfigError };
export {
  ENV_VARS,
  mergeLayers,
  readConfigFile,
  readEnv,
  type Layer,
  type RawOptions,
} from './option-layers.ts';
export type { OptionKey };

/** The resolved run options: those the table resolves alone (TableValues) and these. */
export interface ResolvedRunOptions extends TableValues {
  apiKey?: string;
  bearer?: string;
  /** Directory for report.json; null writes nothing. */
  out: string | null;
  level: LevelSelection;
  /** Budget of one check (a check may make many requests and wait for webhooks). */
  checkTimeoutMs: number;
  /** How long the probe waits for the target's first answer (a cold start); at least timeoutMs. */
  coldStartMs: number;
  /** Budget of the whole run; when spent the run stops and exits 2. */
  budgetMs: number;
  seed: number;
  /** Wire evidence kept: all, or only that of checks that did not pass, or none. */
  evidence: EvidenceMode;
  /** Default: full for the bundled target, standard against a --target. */
  profile: Profile;
  /** TLS, proxy and extra headers of every request to the target (harness/io/target/network.ts). */
  network: NetworkSettings;
  /** --proxy as given (the environment's proxy is in network.proxy). */
  proxyOption?: string;
}

/** The run's budget with --profile smoke unless --budget-ms says otherwise. */
export const SMOKE_BUDGET_MS = 300_000;

/** The defaults that are one value, from the option table, in the CLI's spelling. */
export const DEFAULTS: Readonly<DefaultValues> = Object.freeze(
  Object.fromEntries(
    OPTIONS.filter((o) => o.default !== undefined).map((o) => [o.key, o.default]),
  ) as DefaultValues,
);

/** Every value the layers gave, parsed by its row's kind (a ConfigError naming the option when wrong). */
export function parseGiven(raw: RawOptions): GivenValues {
  const given: Record<string, unknown> = {};
  for (const row of OPTIONS) {
    const value = raw[row.key as OptionKey];
    if (value !== undefined) given[row.key] = row.value.parse(value, row);
  }
  return given as GivenValues;
}

/** A row's default, parsed by its kind. */
function defaultOf(key: OptionKey): unknown {
  const row = rowOf(key);
  return row.default === undefined ? undefined : row.value.parse(row.default, row);
}

/**
 * The options the table resolves alone (rows without `composed`), by resolved name: the value given,
 * else the row's default, else its kind's `absent`, else null (an `optional` row: nothing).
 */
export function tableValues(raw: RawOptions): TableValues {
  return aloneValues(parseGiven(raw));
}

function aloneValues(given: GivenValues): TableValues {
  const values: Record<string, unknown> = {};
  for (const row of OPTIONS) {
    if (row.composed !== undefined) continue;
    // A given null is a value (`--rate off`), not a missing one.
    const stated = (given as Record<string, unknown>)[row.key];
    const value = stated !== undefined ? stated : (defaultOf(row.key as OptionKey) ?? row.value.absent);
    if (value !== undefined) values[nameOf(row)] = value;
    else if (row.optional !== true) values[nameOf(row)] = null;
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

/**
 * An API key and a bearer token from different layers: the higher layer wins. From one layer: both
 * are kept; the key is the run's credential and the token is used by the both-forms checks (spec 5).
 */
function withCredential(raw: RawOptions, from: Partial<Record<OptionKey, Layer>>): RawOptions {
  if (raw.apiKey === undefined || raw.bearer === undefined) return raw;
  const higher = higherLayer(from, 'apiKey', 'bearer');
  if (higher === undefined) return raw;
  const { apiKey, bearer, ...rest } = raw;
  return higher === 'apiKey' ? { ...rest, apiKey } : { ...rest, bearer };
}

/**
 * `processEnv`: where HTTPS_PROXY / HTTP_PROXY / NO_PROXY are read (the A2A_* variables come in the
 * env layer); none: no proxy unless --proxy.
 */
export function resolveOptions(
  layers: Record<Layer, RawOptions>,
  processEnv: NodeJS.ProcessEnv = {},
): ResolvedRunOptions {
  const merged = mergeLayers(layers);
  // `out: null` (from the API) writes nothing: no flag or variable can say it.
  const { out, ...raw } = withCredential(merged.raw, merged.from);
  const given = parseGiven(out === null ? raw : { ...raw, out });
  const alone = aloneValues(given);
  const timeoutMs = alone.timeoutMs;
  const smoke = given.profile === 'smoke';
  // smoke is the quick look: five minutes, every MUST requirement first (harness/runner/plan.ts).
  const budgetMs = given.budgetMs ?? (smoke ? SMOKE_BUDGET_MS : DEFAULTS.budgetMs);
  const resolved: ResolvedRunOptions = {
    ...alone,
    out: out === null ? null : (given.out ?? DEFAULTS.out),
    // smoke exercises the MUST requirements only, unless --level says otherwise.
    level: given.level ?? (smoke ? 'must' : (defaultOf('level') as LevelSelection)),
    checkTimeoutMs: given.checkTimeoutMs ?? defaultCheckTimeoutMs(timeoutMs),
    coldStartMs: Math.max(timeoutMs, Math.min(given.coldStartMs ?? DEFAULTS.coldStartMs, budgetMs)),
    budgetMs,
    seed: given.seed ?? Math.floor(Math.random() * 2 ** 31),
    evidence: given.evidence ?? evidenceDefault(alone.target),
    profile: given.profile ?? (alone.target === undefined ? 'full' : 'standard'),
    network: network(given, processEnv),
  };
  if (given.proxy !== undefined) resolved.proxyOption = resolved.network.proxy!.http!;
  if (given.apiKey !== undefined) resolved.apiKey = given.apiKey;
  if (given.bearer !== undefined) resolved.bearer = given.bearer;
  checkTargetCompleteness(resolved);
  return resolved;
}

/**
 * Against a target of the user's, reports go to CI artifacts and pull requests, where the findings
 * matter and the evidence of hundreds of passes only weighs (16 MB for a whole run): `failing`.
 * The bundled reference server is the executable answer to "what does the spec mean here?": its
 * passing exchanges are what a reader came for, so `all`.
 */
function evidenceDefault(target: string | undefined): EvidenceMode {
  return target === undefined ? 'all' : 'failing';
}

/** The TLS, proxy and header options; the PEM files are read and tried here (exit 2 when unusable). */
function network(given: GivenValues, processEnv: NodeJS.ProcessEnv): NetworkSettings {
  const net: NetworkSettings = {};
  if (given.caCert !== undefined) net.caCert = given.caCert;
  if (given.clientCert !== undefined) net.clientCert = given.clientCert;
  if (given.clientKey !== undefined) net.clientKey = given.clientKey;
  if (given.insecure === true) net.insecure = true;
  const proxy = resolveProxy(given.proxy, processEnv);
  if (proxy !== undefined) net.proxy = proxy;
  const secret = given.secretHeader ?? {};
  const headers = { ...given.header, ...secret };
  if (Object.keys(headers).length > 0) net.headers = headers;
  if (Object.keys(secret).length > 0) net.secretHeaders = Object.keys(secret);
  checkTlsFiles(net);
  return net;
}

function checkTargetCompleteness(o: ResolvedRunOptions): void {
  if (o.target === undefined) return;
  if (o.agentId === undefined) throw new ConfigError('--target needs --agent-id (or A2A_AGENT_ID)');
  if (o.apiKey === undefined && o.bearer === undefined) {
    throw new ConfigError('--target needs a credential: --api-key (A2A_API_KEY) or --bearer (A2A_BEARER)');
  }
}

/** `--rate <n>/<s|m|h>` or `off` (null), as the option table reads it. */
export function rate(value: unknown): Pace | null {
  return rowOf('rate').value.parse(value, rowOf('rate')) as Pace | null;
}
