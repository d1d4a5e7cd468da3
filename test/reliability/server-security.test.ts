// Credential comparison of the reference server (spec 5; C-37): constant time, meaning every
// accepted credential of the agent is compared, whatever matches first, and every comparison is
// between equal-length digests, so neither the position of a match nor a key's length shows in the
// time an answer takes. Asserted on the comparisons made, not on timings.
import * as crypto from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resolveAgentConfigs } from '../../reference-server/agents/config.ts';
import { authenticate } from '../../reference-server/http/auth.ts';

vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof crypto>();
  return { ...actual, timingSafeEqual: vi.fn(actual.timingSafeEqual) };
});

const compare = vi.mocked(crypto.timingSafeEqual);
afterEach(() => compare.mockClear());

const [agent] = resolveAgentConfigs([
  {
    id: 'a',
    apiKeys: ['first-key', 'second', 'a-much-longer-third-key-value'],
    bearerTokens: ['tok-1', 'tok-2'],
  },
]);
if (agent === undefined) throw new Error('no agent');

function comparisons(): Array<[number, number]> {
  return compare.mock.calls.map(([a, b]) => [(a as Buffer).length, (b as Buffer).length]);
}

describe('C-37 constant-time credential comparison', () => {
  it.each([
    ['the first key', { 'x-api-key': 'first-key' }, true],
    ['the last key', { 'x-api-key': 'a-much-longer-third-key-value' }, true],
    ['a wrong key', { 'x-api-key': 'f' }, false],
    ['a very long wrong key', { 'x-api-key': 'x'.repeat(5000) }, false],
  ])('compares %s against all three keys, as 32-byte digests', (_label, headers, ok) => {
    expect(authenticate(agent, headers).ok).toBe(ok);
    expect(comparisons()).toEqual([
      [32, 32],
      [32, 32],
      [32, 32],
    ]);
  });

  it('compares a bearer token against every token, and both forms when both are sent (C-37)', () => {
    expect(authenticate(agent, { authorization: 'Bearer tok-1' }).ok).toBe(true);
    expect(compare).toHaveBeenCalledTimes(2);
    compare.mockClear();
    expect(authenticate(agent, { 'x-api-key': 'second', authorization: 'bearer tok-2' }).ok).toBe(true);
    expect(compare).toHaveBeenCalledTimes(5);
    expect(comparisons().every(([a, b]) => a === 32 && b === 32)).toBe(true);
  });

  it('never compares a plain string with ===: the digests differ for keys sharing a prefix', () => {
    expect(authenticate(agent, { 'x-api-key': 'first-ke' }).ok).toBe(false);
    expect(authenticate(agent, { 'x-api-key': 'first-key ' }).ok).toBe(false);
    expect(authenticate(agent, { 'x-api-key': 'FIRST-KEY' }).ok).toBe(false);
  });
});
