// The ledger version (requirements/ledger-version.ts): a short hash that changes with any id, level,
// behaviour or quoted text, and not with the order the ledger lists them in.
import { describe, expect, it } from 'vitest';
import { LEDGER_VERSION, REQUIREMENTS } from '../../requirements/index.ts';
import { formatLedgerVersion, ledgerVersion } from '../../requirements/ledger-version.ts';
import type { Requirement } from '../../requirements/types.ts';

const sample = REQUIREMENTS.slice(0, 5);

function changed(index: number, patch: Partial<Requirement>): Requirement[] {
  return sample.map((r, i) => (i === index ? { ...r, ...patch } : r));
}

describe('ledgerVersion', () => {
  it('names the whole ledger by 12 hex digits and its size', () => {
    expect(LEDGER_VERSION.hash).toMatch(/^[0-9a-f]{12}$/);
    expect(LEDGER_VERSION.requirements).toBe(REQUIREMENTS.length);
    expect(formatLedgerVersion(LEDGER_VERSION)).toBe(
      `ledger ${LEDGER_VERSION.hash} (${REQUIREMENTS.length} requirements)`,
    );
  });

  it('does not depend on the order of the ledger', () => {
    expect(ledgerVersion([...sample].reverse())).toEqual(ledgerVersion(sample));
  });

  it('changes with an id, a level, a behaviour or a quoted text', () => {
    const base = ledgerVersion(sample).hash;
    const first = sample[0]!;
    const variants = [
      changed(0, { id: `${first.id}-renamed` }),
      changed(0, { level: first.level === 'MUST' ? 'SHOULD' : 'MUST' }),
      changed(0, { behaviour: `${first.behaviour} ` }),
      changed(0, { source: { ...first.source, quote: `${first.source.quote}.` } }),
      sample.slice(1),
    ];
    const hashes = variants.map((v) => ledgerVersion(v).hash);
    for (const h of hashes) expect(h).not.toBe(base);
    expect(new Set(hashes).size).toBe(hashes.length);
  });
});
