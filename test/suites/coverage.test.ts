// Issue 5's coverage gate: every MUST and SHOULD requirement of the ledger is verified by at least
// one check. The evidence is the suites' own verifies() registrations (collected by vitest without
// touching a target), never a hand-kept list.
import { beforeAll, describe, expect, it } from 'vitest';
import { REQUIREMENTS } from '../../requirements/index.ts';
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

  it('verifies every MUST and SHOULD requirement with at least one check', () => {
    const verified = new Set(listing.checks.map((c) => c.requirementId));
    const missing = REQUIREMENTS.filter(
      (r) => (r.level === 'MUST' || r.level === 'SHOULD') && !verified.has(r.id),
    ).map((r) => `${r.id} (${r.level})`);
    expect(missing).toEqual([]);
  });

  it('binds every check to a ledger requirement', () => {
    const known = new Set(REQUIREMENTS.map((r) => r.id));
    expect(listing.checks.filter((c) => !known.has(c.requirementId))).toEqual([]);
  });
});
