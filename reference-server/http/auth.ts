// Credential check of one agent (spec 5, C-01, C-37): `x-api-key` or `Authorization: Bearer`
// (scheme case-insensitive); both must be valid when both are sent; constant-time comparison; a
// credential header repeated in several field lines is invalid (C-48).
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { AgentConfig } from '../types.ts';

export type AuthResult = { ok: true } | { ok: false; reason: 'missing' | 'invalid' };

export const WWW_AUTHENTICATE = 'Bearer realm="a2a", ApiKey header="x-api-key"';

/** Digests have equal length whatever the inputs, so timingSafeEqual never leaks a key's length. */
function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/** Digests of an agent's accepted credentials, computed once per credential list. */
const acceptedDigests = new WeakMap<readonly string[], readonly Buffer[]>();

function digestsOf(accepted: readonly string[]): readonly Buffer[] {
  let digests = acceptedDigests.get(accepted);
  if (digests === undefined) {
    digests = accepted.map(digest);
    acceptedDigests.set(accepted, digests);
  }
  return digests;
}

/** Compares against every accepted value without an early exit. */
function matchesAny(candidate: string, accepted: readonly string[]): boolean {
  const offered = digest(candidate);
  let matched = false;
  for (const value of digestsOf(accepted)) {
    if (timingSafeEqual(offered, value)) matched = true;
  }
  return matched;
}

type HeaderLines = Readonly<Record<string, string | string[] | undefined>>;

const REPEATED = Symbol('repeated');

/** The value of a header sent once; REPEATED when it came in more than one field line. */
function single(value: string | string[] | undefined): string | undefined | typeof REPEATED {
  if (!Array.isArray(value)) return value;
  return value.length > 1 ? REPEATED : value[0];
}

/**
 * `headers` should be `req.headersDistinct`: node keeps only the first of repeated `Authorization`
 * lines in `req.headers`, while a proxy may act on another; a repeated credential is refused (C-48).
 */
export function authenticate(agent: AgentConfig, headers: HeaderLines | IncomingHttpHeaders): AuthResult {
  const apiKey = single(headers['x-api-key']);
  const authorization = single(headers.authorization);
  if (apiKey === undefined && authorization === undefined) return { ok: false, reason: 'missing' };
  if (apiKey === REPEATED || authorization === REPEATED) return { ok: false, reason: 'invalid' };
  if (apiKey !== undefined && !matchesAny(apiKey, agent.apiKeys)) return { ok: false, reason: 'invalid' };
  if (authorization !== undefined) {
    // Any other scheme, or a malformed value, is an invalid credential (C-01).
    const match = /^Bearer +(\S+) *$/i.exec(authorization);
    if (match === null || !matchesAny(match[1] as string, agent.bearerTokens))
      return { ok: false, reason: 'invalid' };
  }
  return { ok: true };
}
