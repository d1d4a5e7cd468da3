// The gate of the ledger of freedoms (requirements/freedoms.ts), as the coverage gate is for the
// requirements: every freedom is proven by a legal variant (mutants/legal/, `varies`) or a field
// condition (bench/field/conditions.ts, `freedoms`); every name a variant or condition gives is a
// freedom; every source is real (a spec quote on its line, a ruling of CLARIFICATIONS.md that says
// it); every `touches` selects requirements. The ledger is read as data: nothing here runs a target.
import { describe, expect, it } from 'vitest';
import { CONDITIONS } from '../../bench/field/conditions.ts';
import { loadClarifications } from '../../core/clarifications.ts';
import { loadLegalVariants } from '../../mutants/legal-run.ts';
import {
  FREEDOM_GROUPS,
  FREEDOMS,
  freedomsOf,
  getRequirement,
  selectRequirements,
  type FreedomSource,
} from '../../requirements/index.ts';
import { specLines } from '../../requirements/spec-text.ts';

const variants = await loadLegalVariants();
const rulings = loadClarifications();
const ids = FREEDOMS.map((f) => f.id);

/** Freedom id -> what proves it (`legal <name>` or `field <condition>`). */
function proofs(): Map<string, string[]> {
  const by = new Map<string, string[]>(ids.map((id) => [id, []]));
  for (const v of variants) for (const id of v.varies) by.get(id)?.push(`legal ${v.name}`);
  for (const c of CONDITIONS) for (const id of c.freedoms ?? []) by.get(id)?.push(`field ${c.name}`);
  return by;
}

function sourceProblem(s: FreedomSource): string | undefined {
  if ('line' in s) {
    const line = specLines()[s.line - 1] ?? '';
    return line.includes(s.quote) ? undefined : `spec line ${s.line} does not say ${JSON.stringify(s.quote)}`;
  }
  if ('ruling' in s) {
    const r = rulings.get(s.ruling);
    if (r === undefined) return `${s.ruling} is not a ruling of CLARIFICATIONS.md`;
    return r.body.replace(/\s+/g, ' ').includes(s.quote)
      ? undefined
      : `${s.ruling} does not say ${JSON.stringify(s.quote)}`;
  }
  return s.origin.trim() !== '' && s.quote.trim() !== ''
    ? undefined
    : 'an external source needs an origin and a quote';
}

describe('the ledger of freedoms', () => {
  it('has unique ids of the form topic.choice, each in a known group, with a freedom and what to accept', () => {
    expect(ids.length).toBeGreaterThanOrEqual(40);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    for (const f of FREEDOMS) {
      expect(f.id, f.id).toMatch(/^[a-z]+(-[a-z]+)*\.[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(FREEDOM_GROUPS).toContain(f.group);
      expect(f.freedom.length, f.id).toBeGreaterThan(10);
      expect(f.accept.length, f.id).toBeGreaterThan(10);
      expect(f.sources.length, f.id).toBeGreaterThan(0);
    }
  });

  it('cites only real sources: spec quotes on their lines, rulings that say what is quoted', () => {
    const problems = FREEDOMS.flatMap((f) =>
      f.sources.map(sourceProblem).flatMap((p) => (p === undefined ? [] : [`${f.id}: ${p}`])),
    );
    expect(problems).toEqual([]);
  });

  it('touches requirements that exist: every glob selects at least one', () => {
    const dead = FREEDOMS.flatMap((f) =>
      f.touches === 'all'
        ? []
        : f.touches.filter((g) => selectRequirements(g).length === 0).map((g) => `${f.id}: ${g}`),
    );
    expect(dead).toEqual([]);
  });

  it('proves every freedom with a legal variant or a field condition', () => {
    const unproven = [...proofs()].filter(([, by]) => by.length === 0).map(([id]) => id);
    expect(unproven).toEqual([]);
  });

  it('knows every freedom a legal variant or a field condition names', () => {
    const known = new Set(ids);
    const unknown = [
      ...variants.flatMap((v) =>
        v.varies.filter((id) => !known.has(id)).map((id) => `legal ${v.name}: ${id}`),
      ),
      ...CONDITIONS.flatMap((c) =>
        (c.freedoms ?? []).filter((id) => !known.has(id)).map((id) => `field ${c.name}: ${id}`),
      ),
    ];
    expect(unknown).toEqual([]);
    for (const v of variants) expect(v.varies.length, v.name).toBeGreaterThan(0);
  });

  it('gives a requirement the freedoms that touch it: every-requirement ones and those of its section', () => {
    const ids = (id: string): string[] => freedomsOf(getRequirement(id)).map((f) => f.id);
    expect(ids('9/version-path-v1')).toEqual(
      expect.arrayContaining(['http.base-url-path', 'http.content-coding']),
    );
    expect(ids('4.2/stream-event-data-line')).toEqual(
      expect.arrayContaining(['sse.line-endings', 'json.member-order']),
    );
    expect(ids('9/version-path-v1')).not.toContain('sse.line-endings');
    // Freedoms of the service never touch what a receiver or a client must do.
    const receiver = getRequirement('6.5/receiver-acknowledges-events');
    expect(freedomsOf(receiver).filter((f) => f.touches === 'all')).toEqual([]);
  });
});
