// Builds the reproduction lines of a check: a CLI command that re-runs one requirement and a curl
// line for the check's first exchange. Credentials always appear as $A2A_API_KEY / $A2A_BEARER.
import type { Exchange } from '../core/evidence.ts';
import type { AuthKind } from '../core/types.ts';

export interface ReproduceBase {
  baseUrl: string;
  agentId: string;
  authKind: AuthKind;
  /** The target is the bundled reference server on an ephemeral port: re-running starts a new one. */
  bundled: boolean;
  seed: number;
  runs: number;
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
  parts.push(`--only ${shellQuote(requirementId)}`, `--seed ${base.seed}`, `--runs ${base.runs}`);
  return parts.join(' ');
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
    if (!SKIPPED_HEADERS.has(name.toLowerCase())) parts.push(headerArg(name.toLowerCase(), value));
  }
  if (request.body !== undefined) parts.push(`--data-binary ${shellQuote(request.body)}`);
  return parts.join(' ');
}
