// Credentials as the authentication and access suites use them (spec 5; C-01, C-37, C-38): the run's
// credentials, the form each is usable in (x-api-key, Bearer), refused-credential header sets and an
// Origin no deployment lists. The context hides the run's credentials; only these helpers read them.
import { inject } from 'vitest';
import type { CheckContext, TargetClient } from '../../harness/check/index.ts';
import { answer } from './calls.ts';
import { CARD } from './rpc.ts';
import { madeOnce, type MadeOnce } from './made-once.ts';

/** An Origin no deployment is likely to list: only a wildcard (the default of C-38) allows it. */
export const TEST_ORIGIN = 'https://a2a-conformance-client.example';
const WRONG_KEY = 'a2a-conformance-wrong-key-0000000000';
const WRONG_TOKEN = 'a2a-conformance-wrong-token-000000000';

export type Headers = Record<string, string | null>;

export interface RefusedCase {
  name: string;
  /** C-01 data.reason. */
  reason: 'missing' | 'invalid';
  headers: Headers;
}

export const NO_CREDENTIAL: Headers = { 'x-api-key': null, authorization: null };

export const REFUSED_CASES: readonly RefusedCase[] = [
  { name: 'no credential', reason: 'missing', headers: NO_CREDENTIAL },
  { name: 'a wrong x-api-key', reason: 'invalid', headers: { 'x-api-key': WRONG_KEY, authorization: null } },
  {
    name: 'a wrong Bearer token',
    reason: 'invalid',
    headers: { 'x-api-key': null, authorization: `Bearer ${WRONG_TOKEN}` },
  },
];

export function wrongKeyHeader(): string {
  return WRONG_KEY;
}

export function wrongBearerHeader(): string {
  return `Bearer ${WRONG_TOKEN}`;
}

/** The run's credentials (the context hides them; the injected run carries them). */
export function runCredentials(): { apiKey?: string; bearer?: string } {
  return inject('a2aRun').auth;
}

export interface UsableCredentials {
  apiKey?: string;
  bearer?: string;
  /** Why a form is missing: the run has no such credential and the other one was refused in it. */
  notes: string[];
}

const usable = new Map<string, MadeOnce<UsableCredentials>>();

/**
 * The credential usable in each header form. A run gives one form (or both); the same value is then
 * tried in the other form: accepted, it serves both; refused, that form cannot be exercised (keys and
 * tokens may differ, spec 5 line 266).
 */
export function usableCredentials(c: CheckContext): Promise<UsableCredentials> {
  return madeOnce(usable, `${c.target.baseUrl} ${c.target.agentId}`, c, (c) => probeForms(c.client));
}

async function probeForms(client: TargetClient): Promise<UsableCredentials> {
  const { apiKey, bearer } = runCredentials();
  const out: UsableCredentials = { notes: [] };
  if (apiKey !== undefined) out.apiKey = apiKey;
  if (bearer !== undefined) out.bearer = bearer;
  if (apiKey !== undefined && bearer === undefined) {
    const a = await answer(
      client,
      CARD,
      {},
      { headers: { 'x-api-key': null, authorization: `Bearer ${apiKey}` } },
    );
    if (a.served) out.bearer = apiKey;
    else out.notes.push('the run has no Bearer token and its API key is refused as a Bearer token');
  }
  if (bearer !== undefined && apiKey === undefined) {
    const a = await answer(client, CARD, {}, { headers: { 'x-api-key': bearer, authorization: null } });
    if (a.served) out.apiKey = bearer;
    else out.notes.push('the run has no API key and its Bearer token is refused as an x-api-key');
  }
  return out;
}

/** Headers carrying exactly one credential form. */
export function onlyApiKey(key: string): Headers {
  return { 'x-api-key': key, authorization: null };
}

export function onlyBearer(token: string, scheme = 'Bearer'): Headers {
  return { 'x-api-key': null, authorization: `${scheme} ${token}` };
}
