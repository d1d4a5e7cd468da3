// verifies() binds a check to the ledger at registration: an unknown id or an empty title throws
// before any test is registered, so a typo can never become a silently unchecked requirement.
import { describe, expect, it } from 'vitest';
import { verifies } from '../../harness/verifies.ts';

describe('verifies', () => {
  it('throws on an id that is not in the ledger', () => {
    expect(() => verifies('2.1/no-such-requirement', 'does something', () => undefined)).toThrow(
      /unknown requirement id '2\.1\/no-such-requirement'/,
    );
  });

  it('throws on an empty title', () => {
    expect(() => verifies('2.2/response-id-equals-request-id', '  ', () => undefined)).toThrow(
      /needs a title/,
    );
  });
});
