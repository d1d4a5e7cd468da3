// Cross-check of the ledger with CLARIFICATIONS.md: every ruling a requirement cites is a `### C-NN`
// heading there, and every ledger id (or id glob) CLARIFICATIONS.md cites exists in the ledger.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { REQUIREMENTS, hasRequirement, selectRequirements } from '../../requirements/index.ts';

const CLARIFICATIONS = new URL('../../CLARIFICATIONS.md', import.meta.url);

function clarificationsText(): string {
  if (!existsSync(CLARIFICATIONS)) throw new Error('CLARIFICATIONS.md missing');
  return readFileSync(CLARIFICATIONS, 'utf8');
}

function rulingHeadings(text: string): Set<string> {
  return new Set([...text.matchAll(/^### (C-\d{2})\b/gm)].map((m) => m[1]!));
}

// Backticked ledger ids such as `4.4/cancel-reason`, and globs such as `6.4/signature-*`.
function citedIds(text: string): { ids: string[]; globs: string[] } {
  const cited = [...text.matchAll(/`(\d+(?:\.\d+)?\/[a-z0-9*-]+)`/g)].map((m) => m[1]!);
  return { ids: cited.filter((c) => !c.includes('*')), globs: cited.filter((c) => c.includes('*')) };
}

describe('ledger and CLARIFICATIONS.md', () => {
  it('cites only rulings that CLARIFICATIONS.md has as headings', () => {
    const headings = rulingHeadings(clarificationsText());
    const missing = REQUIREMENTS.flatMap((r) =>
      (r.rulings ?? []).filter((c) => !headings.has(c)).map((c) => `${r.id} -> ${c}`),
    );
    expect(missing).toEqual([]);
  });

  it('has every ledger id that CLARIFICATIONS.md cites', () => {
    const { ids, globs } = citedIds(clarificationsText());
    expect(ids.length).toBeGreaterThan(0);
    expect([...new Set(ids.filter((id) => !hasRequirement(id)))]).toEqual([]);
    expect(globs.filter((g) => selectRequirements(g).length === 0)).toEqual([]);
  });
});
