// Builds the reproduction lines of a check: a CLI command that re-runs one requirement, each option
// spelled by its kind in the option table (harness/option-values.ts), and a curl line for the check's
// first exchange. Credentials always appear as $A2A_API_KEY / $A2A_BEARER, and a URL's user
// information never appears.
import { cardLimit } from './capabilities.ts';
import type { Exchange } from '../core/evidence.ts';
import { isSecretHeaderName, withoutUserinfo } from '../core/redaction.ts';
import type { AuthKind } from '../core/types.ts';
import { withoutCredentials, type NetworkSettings } from './io/target/network.ts';
import type { Pace } from './io/traffic/pace.ts';
import { defaultCheckTimeoutMs, DEFAULTS } from './options.ts';
import {
  flagOf,
  nameOf,
  OPTIONS,
  rowOf,
  type FieldValues,
  type GivenValues,
  type OptionKey,
  type OptionSpec,
} from './option-table.ts';
import type { FieldSettings } from './provided.ts';

export interface ReproduceBase {
  baseUrl: string;
  agentId: string;
  authKind: AuthKind;
  /** The target is the bundled reference server on an ephemeral port: re-running starts a new one. */
  bundled: boolean;
  seed: number;
  runs: number;
  /** TLS, proxy and the extra headers: the way to the target is part of what reproduces a run. */
  network?: NetworkSettings;
  /**
   * The run's settings that change what a check does (the profile's allowances, the pace, the waits
   * it may plan, the turns it may spend); absent: the run's defaults.
   */
  field?: Pick<FieldSettings, 'profile' | 'pace'> & Partial<FieldValues>;
  /** The probed card: a pace equal to its limits.requestsPerMinute needs no --rate to come back. */
  card?: Record<string, unknown> | null;
  /** Request and check budgets (a check's deadlines derive from them). */
  timeoutMs?: number;
  checkTimeoutMs?: number;
  webhookPublicUrl?: string;
}

/** POSIX single-quote quoting: safe for any text in sh, bash and zsh. */
export function shellQuote(text: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** A run option's flag and value as the option table spells it, quoted for a shell (none: a switch off). */
export function optionArgs<K extends OptionKey>(key: K, value: Exclude<GivenValues[K], undefined>): string[] {
  return spelledArgs(rowOf(key), value);
}

function spelledArgs(row: OptionSpec, value: unknown): string[] {
  const flag = flagOf(row.key);
  const spelled = row.value.spell(value);
  if (typeof spelled === 'boolean') return spelled ? [flag] : [];
  return (typeof spelled === 'string' ? [spelled] : spelled).map((arg) => `${flag} ${shellQuote(arg)}`);
}

export function reproduceCommand(base: ReproduceBase, requirementId: string): string {
  const parts = ['npx a2a-conformance run'];
  if (!base.bundled) {
    parts.push(
      ...optionArgs('target', withoutUserinfo(base.baseUrl)),
      ...optionArgs('agentId', base.agentId),
    );
    if (base.authKind === 'api-key') parts.push('--api-key "$A2A_API_KEY"');
    if (base.authKind === 'bearer') parts.push('--bearer "$A2A_BEARER"');
  }
  parts.push(...networkArgs(base.network));
  parts.push(
    ...optionArgs('only', [requirementId]),
    ...optionArgs('seed', base.seed),
    ...optionArgs('runs', base.runs),
  );
  parts.push(...settingFlags(base));
  return parts.join(' ');
}

/**
 * The network options as flags. A secret header's value is never printed: it is expected in
 * A2A_SECRET_HEADERS, as a proxy's credentials are expected back in the URL by whoever runs it.
 */
function networkArgs(net: NetworkSettings | undefined): string[] {
  if (net === undefined) return [];
  const args: string[] = [];
  if (net.caCert !== undefined) args.push(...optionArgs('caCert', net.caCert));
  args.push(...optionArgs('insecure', net.insecure === true));
  if (net.clientCert !== undefined) args.push(...optionArgs('clientCert', net.clientCert));
  if (net.clientKey !== undefined) args.push(...optionArgs('clientKey', net.clientKey));
  if (net.proxy?.source === 'option' && net.proxy.http !== undefined)
    args.push(...optionArgs('proxy', withoutCredentials(net.proxy.http)));
  const secret = new Set(net.secretHeaders ?? []);
  const plain = Object.entries(net.headers ?? {}).filter(
    ([name]) => !secret.has(name) && !isSecretHeaderName(name),
  );
  args.push(...optionArgs('header', Object.fromEntries(plain)));
  return args;
}

function cardRate(card: Record<string, unknown> | null | undefined): number | undefined {
  const n = cardLimit(card, 'requestsPerMinute');
  return n !== undefined && n >= 1 ? Math.floor(n) : undefined;
}

/**
 * `--rate` as the run had it: the pace an option set (n/s|m|h; a window --rate cannot write is given
 * per minute, rounded down), `off` when the run kept none although the card states a limit; nothing
 * when the pace is the card's own (the re-run reads the card again).
 */
export function rateFlag(
  pace: Pace | null,
  card: Record<string, unknown> | null | undefined,
): string | undefined {
  if (pace === null && cardRate(card) === undefined) return undefined;
  if (pace?.source === 'card') return undefined;
  return optionArgs('rate', pace).join(' ');
}

/** The flags of the run's settings that change what the check does, in the CLI's spelling. */
function settingFlags(base: ReproduceBase): string[] {
  const flags: string[] = [];
  const f = base.field;
  if (f !== undefined) {
    flags.push(...optionArgs('profile', f.profile));
    const rate = rateFlag(f.pace, base.card);
    if (rate !== undefined) flags.push(rate);
    flags.push(...tableFlags(f));
  }
  const timeoutMs = base.timeoutMs ?? DEFAULTS.timeoutMs;
  if (timeoutMs !== DEFAULTS.timeoutMs) flags.push(...optionArgs('timeoutMs', timeoutMs));
  if (base.checkTimeoutMs !== undefined && base.checkTimeoutMs !== defaultCheckTimeoutMs(timeoutMs)) {
    flags.push(...optionArgs('checkTimeoutMs', base.checkTimeoutMs));
  }
  if (base.webhookPublicUrl !== undefined)
    flags.push(...optionArgs('webhookPublicUrl', base.webhookPublicUrl));
  return flags;
}

/**
 * The option table's rows that change what a check does (`reproduce`), from the run's field settings:
 * each set to other than its default, spelled as the CLI takes it.
 */
function tableFlags(field: Partial<Record<string, unknown>>): string[] {
  const flags: string[] = [];
  for (const row of OPTIONS) {
    if (row.reproduce !== true) continue;
    const value = field[nameOf(row)];
    if (value === undefined || value === null) continue;
    const args = spelledArgs(row, value);
    const byDefault = row.default === undefined ? [] : spelledArgs(row, row.value.parse(row.default, row));
    if (args.join(' ') !== byDefault.join(' ')) flags.push(...args);
  }
  return flags;
}

// Headers curl computes itself, or that say nothing about the request.
const SKIPPED_HEADERS = new Set(['host', 'content-length', 'connection', 'transfer-encoding', 'user-agent']);

function headerArg(name: string, value: string): string {
  if (name === 'x-api-key') return `-H "x-api-key: $A2A_API_KEY"`;
  if (name === 'authorization' && /^bearer\s/i.test(value)) return `-H "Authorization: Bearer $A2A_BEARER"`;
  return `-H ${shellQuote(`${name}: ${value}`)}`;
}

/** A curl line for one recorded exchange; undefined when there is nothing to replay. */
export function curlFor(exchange: Exchange | undefined): string | undefined {
  if (!exchange) return undefined;
  const { request } = exchange;
  const parts = ['curl -sS'];
  if (exchange.kind === 'stream') parts.push('-N');
  parts.push(`-X ${request.method}`, shellQuote(withoutUserinfo(request.url)));
  for (const [name, value] of Object.entries(request.headers)) {
    const lower = name.toLowerCase();
    // curl decodes what it advertises only with --compressed (which sends its own Accept-Encoding).
    if (lower === 'accept-encoding') parts.push('--compressed');
    else if (!SKIPPED_HEADERS.has(lower)) parts.push(headerArg(lower, value));
  }
  if (request.body !== undefined) parts.push(`--data-binary ${shellQuote(request.body)}`);
  return parts.join(' ');
}
