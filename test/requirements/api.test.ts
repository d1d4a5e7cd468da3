// The ledger's lookup API (requirements/index.ts): getRequirement, hasRequirement, selectRequirements
// over id and section globs, SECTIONS from the spec headings, requirementsForRuling.
import { describe, expect, it } from 'vitest';
import {
  REQUIREMENTS,
  SECTIONS,
  getRequirement,
  hasRequirement,
  requirementsForRuling,
  selectRequirements,
} from '../../requirements/index.ts';

const ids = (rs: readonly { id: string }[]): string[] => rs.map((r) => r.id);

describe('getRequirement and hasRequirement', () => {
  it('find a known id', () => {
    expect(hasRequirement('6.4/signature-hmac-sha256-hex')).toBe(true);
    expect(getRequirement('6.4/signature-hmac-sha256-hex')).toMatchObject({ section: '6.4', level: 'MUST' });
  });

  it('reject an unknown id', () => {
    expect(hasRequirement('4.4/no-such-thing')).toBe(false);
    expect(() => getRequirement('4.4/no-such-thing')).toThrow(/unknown requirement id '4.4\/no-such-thing'/);
  });
});

describe('selectRequirements', () => {
  it('selects one section by an id glob, in spec order', () => {
    const got = selectRequirements('4.4/*');
    expect(got.length).toBeGreaterThan(3);
    expect(got.every((r) => r.section === '4.4')).toBe(true);
    expect(ids(got)).toEqual(ids(REQUIREMENTS.filter((r) => r.section === '4.4')));
  });

  it('selects a section and its subsections by a section glob', () => {
    const sections = new Set(selectRequirements('4.*').map((r) => r.section));
    expect([...sections].sort()).toEqual([
      '4',
      '4.1',
      '4.2',
      '4.3',
      '4.4',
      '4.5',
      '4.6',
      '4.7',
      '4.8',
      '4.9',
    ]);
  });

  it('selects an exact section without its neighbours', () => {
    const sections = new Set(selectRequirements('2.1').map((r) => r.section));
    expect([...sections]).toEqual(['2.1']);
  });

  it('selects by a partial id glob', () => {
    const got = ids(selectRequirements('6.4/signature-*'));
    expect(got).toContain('6.4/signature-hmac-sha256-hex');
    expect(got.every((id) => id.startsWith('6.4/signature-'))).toBe(true);
  });

  it('unions comma-separated globs and lists, each requirement once', () => {
    const a = selectRequirements('9/*, 9/version-path-v1,8/max-file-size');
    const b = selectRequirements(['9/*', '8/max-file-size']);
    expect(ids(a)).toEqual(ids(b));
    expect(ids(a)).toEqual(ids(REQUIREMENTS.filter((r) => r.section === '9' || r.id === '8/max-file-size')));
  });

  it('returns nothing for a glob that matches nothing, and refuses an empty selection', () => {
    expect(selectRequirements('42/*')).toEqual([]);
    expect(() => selectRequirements(' , ')).toThrow(/no glob/);
  });

  it('treats glob metacharacters other than * literally', () => {
    expect(selectRequirements('4+4/*')).toEqual([]);
  });
});

describe('SECTIONS', () => {
  it('maps section numbers to the spec heading titles', () => {
    expect(SECTIONS['1']).toBe('What the service does');
    expect(SECTIONS['4.4']).toBe('tasks/cancel');
    expect(SECTIONS['6.4']).toBe('Signature');
    expect(SECTIONS['9']).toBe('Versioning');
  });

  it('names every section a requirement uses', () => {
    expect(REQUIREMENTS.filter((r) => SECTIONS[r.section] === undefined).map((r) => r.id)).toEqual([]);
  });
});

describe('requirementsForRuling', () => {
  it('lists exactly the requirements citing a ruling', () => {
    const got = requirementsForRuling('C-06');
    expect(ids(got)).toContain('4.4/cancel-completed-task-code');
    expect(got.every((r) => r.rulings?.includes('C-06'))).toBe(true);
    expect(got.length).toBe(REQUIREMENTS.filter((r) => r.rulings?.includes('C-06')).length);
  });

  it('returns nothing for an uncited ruling and refuses a malformed id', () => {
    expect(requirementsForRuling('C-99')).toEqual([]);
    expect(() => requirementsForRuling('6')).toThrow(/not a ruling id/);
  });
});
