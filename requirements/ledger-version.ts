// The ledger's version: a short hash of what grading depends on (each requirement's id, level, behaviour
// and quoted spec text), so two reports name the ledger they were graded against and can be
// compared honestly. Spec order does not count; any change of a requirement changes the hash.
import { createHash } from 'node:crypto';
import type { Requirement } from './types.ts';

export interface LedgerVersion {
  /** First 12 hex digits of the SHA-256 of the ledger's canonical JSON. */
  hash: string;
  /** How many requirements the ledger holds. */
  requirements: number;
}

export function ledgerVersion(requirements: readonly Requirement[]): LedgerVersion {
  const canonical = requirements
    .map((r) => [r.id, r.level, r.behaviour, r.source.quote] as const)
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const hash = createHash('sha256').update(JSON.stringify(canonical)).digest('hex').slice(0, 12);
  return { hash, requirements: requirements.length };
}

/** `--version` and report headers: `ledger 1a2b3c4d5e6f (300 requirements)`. */
export function formatLedgerVersion(v: LedgerVersion): string {
  return `ledger ${v.hash} (${v.requirements} requirements)`;
}
