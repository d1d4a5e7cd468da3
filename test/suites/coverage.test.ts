// The coverage gate: every MUST and SHOULD requirement of the ledger is verified by at least
// one check. The evidence is the suites' own verifies() registrations (collected by vitest without
// touching a target), never a hand-kept list.
import { beforeAll, describe, expect, it } from 'vitest';
import { requirementsOf } from '../../requirements/index.ts';
import { listChecks, type Listing } from '../../harness/runner/list-checks.ts';

let listing: Listing;

beforeAll(async () => {
  listing = await listChecks();
}, 120_000);

describe('suite coverage of the ledger', () => {
  it('collects every suite file without an error', () => {
    expect(listing.errors).toEqual([]);
    expect(listing.checks.length).toBeGreaterThan(0);
  });

  // Client and receiver requirements are checked by their own modes (test/client, test/receiver).
  it('verifies every MUST and SHOULD service requirement with at least one check', () => {
    const verified = new Set(listing.checks.map((c) => c.requirementId));
    const missing = requirementsOf('service')
      .filter((r) => (r.level === 'MUST' || r.level === 'SHOULD') && !verified.has(r.id))
      .map((r) => `${r.id} (${r.level})`);
    expect(missing).toEqual([]);
  });

  it('binds every check to a service requirement of the ledger', () => {
    const known = new Set(requirementsOf('service').map((r) => r.id));
    expect(listing.checks.filter((c) => !known.has(c.requirementId))).toEqual([]);
  });
});
