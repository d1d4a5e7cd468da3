// Builds the reproduction lines of a check: a CLI command that re-runs one requirement and a curl
// line for the check's first exchange. Credentials always appear as $A2A_API_KEY / $A2A_BEARER.
import type { Exchange } from '../core/evidence.ts';
import { isSecretHeaderName } from '../core/redaction.ts';
import type { AuthKind } from '../core/types.ts';
import { withoutCredentials, type NetworkSettings } from './io/network.ts';

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
}

/** POSIX single-quote quoting: safe for any text in sh, bash and zsh. */
export function shellQuote(text: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

export function reproduceCommand(base: ReproduceBase, requirementId: string): string {
  const parts = ['npx a2a-conformance run'];
  if (!base.bundled) {
    parts.push(`--target ${shellQuote(base.baseUrl)}`, `--agent-id ${shellQuote(base.agentId)}`);
    if (base.authKind === 'api-key') parts.push('--api-key "$A2A_API_KEY"');
    if (base.authKind === 'bearer') parts.push('--bearer "$A2A_BEARER"');
  }
  parts.push(...networkArgs(base.network));
  parts.push(`--only ${shellQuote(requirementId)}`, `--seed ${base.seed}`, `--runs ${base.runs}`);
  return parts.join(' ');
}

/**
 * The network options as flags. A secret header's value is never printed: it is expected in
 * A2A_SECRET_HEADERS, as a proxy's credentials are expected back in the URL by whoever runs it.
 */
function networkArgs(net: NetworkSettings | undefined): string[] {
  if (net === undefined) return [];
  const args: string[] = [];
  if (net.caCert !== undefined) args.push(`--ca-cert ${shellQuote(net.caCert)}`);
  if (net.insecure === true) args.push('--insecure');
  if (net.clientCert !== undefined) args.push(`--client-cert ${shellQuote(net.clientCert)}`);
  if (net.clientKey !== undefined) args.push(`--client-key ${shellQuote(net.clientKey)}`);
  if (net.proxy?.source === 'option' && net.proxy.http !== undefined)
    args.push(`--proxy ${shellQuote(withoutCredentials(net.proxy.http))}`);
  const secret = new Set(net.secretHeaders ?? []);
  for (const [name, value] of Object.entries(net.headers ?? {}))
    if (!secret.has(name) && !isSecretHeaderName(name))
      args.push(`--header ${shellQuote(`${name}: ${value}`)}`);
  return args;
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
  parts.push(`-X ${request.method}`, shellQuote(request.url));
  for (const [name, value] of Object.entries(request.headers)) {
    const lower = name.toLowerCase();
    // curl decodes what it advertises only with --compressed (which sends its own Accept-Encoding).
    if (lower === 'accept-encoding') parts.push('--compressed');
    else if (!SKIPPED_HEADERS.has(lower)) parts.push(headerArg(lower, value));
  }
  if (request.body !== undefined) parts.push(`--data-binary ${shellQuote(request.body)}`);
  return parts.join(' ');
}
