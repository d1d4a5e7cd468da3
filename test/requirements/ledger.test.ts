// The ledger's own shape: well-formed unique ids, one-sentence behaviours, verbatim spec quotes, every
// numbered spec section covered, rulings and capabilities well-formed (requirements/, all sections).
import { describe, expect, it } from 'vitest';
import { REQUIREMENTS, ROLES, requirementsOf } from '../../requirements/index.ts';
import { isSpecSource, specHeadings, specLines } from '../../requirements/spec-text.ts';

const ID = /^\d+(\.\d+)?\/[a-z0-9]+(-[a-z0-9]+)*$/;
const LEVELS = ['MUST', 'SHOULD', 'MAY', 'INFO'];
const CAPABILITIES = ['streaming', 'webhooks', 'fileUpload', 'multiTurn', 'metrics'];
// The brief's list; section 2 has no statements of its own beyond its subsections' tables.
const NUMBERED_SECTIONS = [
  '1',
  ...Array.from({ length: 14 }, (_, i) => `2.${i + 1}`),
  '3',
  '4',
  ...Array.from({ length: 9 }, (_, i) => `4.${i + 1}`),
  '5',
  '6',
  ...Array.from({ length: 6 }, (_, i) => `6.${i + 1}`),
  '7',
  '8',
  '9',
];

function sectionKey(section: string): number[] {
  return section.split('.').map(Number);
}

function compareSections(a: string, b: string): number {
  const [ka, kb] = [sectionKey(a), sectionKey(b)];
  return (ka[0]! - kb[0]!) * 1000 + ((ka[1] ?? 0) - (kb[1] ?? 0));
}

describe('requirement ids', () => {
  it('are well-formed and prefixed by their section', () => {
    const bad = REQUIREMENTS.filter((r) => !ID.test(r.id) || !r.id.startsWith(`${r.section}/`));
    expect(bad.map((r) => r.id)).toEqual([]);
  });

  it('are unique', () => {
    const seen = new Set<string>();
    const dups = REQUIREMENTS.filter((r) => (seen.has(r.id) ? true : (seen.add(r.id), false)));
    expect(dups.map((r) => r.id)).toEqual([]);
  });

  it('come in spec order of their sections, role by role', () => {
    for (const role of ROLES) {
      const mine = requirementsOf(role);
      const out = mine.filter((r, i) => i > 0 && compareSections(mine[i - 1]!.section, r.section) > 0);
      expect(out.map((r) => r.id)).toEqual([]);
    }
  });

  it('name their role in the id of every client and receiver requirement', () => {
    const bad = REQUIREMENTS.filter(
      (r) => !ROLES.includes(r.role) || (r.role !== 'service' && !r.id.includes(`/${r.role}-`)),
    );
    expect(bad.map((r) => `${r.id} (${r.role})`)).toEqual([]);
  });

  it('list the service first, then the receiver, then the client', () => {
    const order = REQUIREMENTS.map((r) => ROLES.indexOf(r.role));
    expect(order.filter((o, i) => i > 0 && order[i - 1]! > o)).toEqual([]);
    expect(requirementsOf('service').length).toBe(288);
    expect(requirementsOf('receiver').length).toBeGreaterThanOrEqual(10);
    expect(requirementsOf('client').length).toBeGreaterThanOrEqual(15);
  });
});

describe('requirement fields', () => {
  it('have a section, a known level and a one-sentence behaviour ending with a period', () => {
    const bad = REQUIREMENTS.filter(
      (r) =>
        r.section === '' ||
        !LEVELS.includes(r.level) ||
        !r.behaviour.endsWith('.') ||
        r.behaviour.trim() !== r.behaviour ||
        /[.!?]\s+[A-Z]/.test(r.behaviour),
    );
    expect(bad.map((r) => `${r.id}: ${r.behaviour}`)).toEqual([]);
  });

  it('quote their spec line verbatim', () => {
    const lines = specLines();
    const bad = REQUIREMENTS.filter(
      (r) =>
        isSpecSource(r.source) &&
        (r.source.quote.trim() === '' || !(lines[r.source.line - 1] ?? '').includes(r.source.quote)),
    );
    expect(bad.map((r) => `${r.id}: line ${'line' in r.source ? r.source.line : '?'}`)).toEqual([]);
  });

  it('name the JSON-RPC 2.0 section of every inherited rule', () => {
    const external = REQUIREMENTS.filter((r) => !isSpecSource(r.source));
    expect(external.length).toBeGreaterThan(5);
    const bad = external.filter(
      (r) =>
        !('origin' in r.source) ||
        !/^JSON-RPC 2\.0, section \d+(\.\d+)?$/.test(r.source.origin) ||
        r.source.quote === '',
    );
    expect(bad.map((r) => r.id)).toEqual([]);
  });

  it('cite well-formed rulings and known capabilities, without repeats', () => {
    const bad = REQUIREMENTS.filter(
      (r) =>
        (r.rulings ?? []).some((c) => !/^C-\d{2}$/.test(c)) ||
        new Set(r.rulings).size !== (r.rulings ?? []).length ||
        (r.capabilities ?? []).some((c) => !CAPABILITIES.includes(c)),
    );
    expect(bad.map((r) => r.id)).toEqual([]);
  });

  it('are frozen', () => {
    const r = REQUIREMENTS[0]!;
    expect(Object.isFrozen(REQUIREMENTS)).toBe(true);
    expect(Object.isFrozen(r)).toBe(true);
    expect(Object.isFrozen(r.source)).toBe(true);
  });
});

describe('coverage of the spec', () => {
  it('has more than 100 requirements', () => {
    expect(REQUIREMENTS.length).toBeGreaterThan(100);
  });

  it('lists every numbered section of the spec that states rules', () => {
    const fromSpec = specHeadings()
      .map((h) => h.section)
      .filter((s) => s !== '2');
    expect(fromSpec).toEqual(NUMBERED_SECTIONS);
  });

  it('has at least one requirement in every numbered section and subsection', () => {
    const covered = new Set(REQUIREMENTS.map((r) => r.section));
    expect(NUMBERED_SECTIONS.filter((s) => !covered.has(s))).toEqual([]);
  });

  it('uses only sections that exist in the spec', () => {
    const known = new Set(specHeadings().map((h) => h.section));
    expect(REQUIREMENTS.filter((r) => !known.has(r.section)).map((r) => r.id)).toEqual([]);
  });

  it('inherits each standard JSON-RPC error code', () => {
    const inherited = REQUIREMENTS.filter((r) => !isSpecSource(r.source)).map((r) => r.source.quote);
    for (const code of ['-32700', '-32600', '-32601', '-32602', '-32603']) {
      expect(
        inherited.some((q) => q.startsWith(code)),
        code,
      ).toBe(true);
    }
  });

  it('gates every service webhook event rule of section 6.1 to 6.5 on the webhooks capability', () => {
    const ungated = requirementsOf('service').filter(
      (r) => /^6\.[1-5]$/.test(r.section) && !(r.capabilities ?? []).includes('webhooks'),
    );
    expect(ungated.map((r) => r.id)).toEqual([]);
  });
});
