// The coverage gate: every MUST and SHOULD requirement of the ledger is verified by at least
// one check; and the layout rule: a requirement's section maps to one ledger file
// (requirements/sections/<name>.ts) and one suite folder of the same name (suites/<name>/), named
// with zero-padded section numbers so that path order is spec order. The evidence is the suites' own
// verifies() registrations (collected by vitest without touching a target), never a hand-kept list.
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { requirementsOf, type Requirement } from '../../requirements/index.ts';
import { listChecks, type ListedCheck, type Listing } from '../../harness/runner/list-checks.ts';

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

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Ledger files of the service's requirements (roles-*.ts hold the client's and the receiver's). */
const LEDGER_FILES = readdirSync(`${ROOT}requirements/sections`)
  .filter((f) => /^\d\d-.*\.ts$/.test(f))
  .map((f) => f.replace(/\.ts$/, ''));
const SUITE_FOLDERS = readdirSync(`${ROOT}suites`, { withFileTypes: true })
  .filter((d) => d.isDirectory() && d.name !== 'support')
  .map((d) => d.name);

/**
 * The checks filed against the layout rule without saying why: a check of another ledger file's
 * requirement states its reason in its own declaration (verifies(..., { crossSection })), e.g. it
 * grades on the sample its file already makes, or must run at a point of the run only its folder
 * gives it; a check in its requirement's own folder states none (a reason left behind is stale).
 */
function misfiled(checks: readonly ListedCheck[], home: ReadonlyMap<string, string>): string[] {
  const problems: string[] = [];
  for (const check of checks) {
    const folder = check.file.replace(/^.*suites\//, '').split('/')[0]!;
    const reason = check.plan?.crossSection;
    const own = home.get(check.requirementId) === folder;
    if (!own && reason === undefined)
      problems.push(
        `${check.file}: ${check.requirementId} is not of this section and states no crossSection`,
      );
    if (own && reason !== undefined)
      problems.push(`${check.file}: ${check.requirementId} is in its own section yet states a crossSection`);
  }
  return problems;
}

async function ledgerFileOf(): Promise<Map<string, string>> {
  const home = new Map<string, string>();
  for (const file of LEDGER_FILES) {
    const module = (await import(`${ROOT}requirements/sections/${file}.ts`)) as Record<string, unknown>;
    for (const list of Object.values(module)) {
      if (Array.isArray(list)) for (const r of list as Requirement[]) home.set(r.id, file);
    }
  }
  return home;
}

/** `04-03-tasks-get` -> [4, 3]; `03-states` -> [3, 0]. */
function sectionKey(name: string): [number, number] {
  const [major, minor] = name.split('-');
  return [Number(major), /^\d+$/.test(minor!) ? Number(minor) : 0];
}

describe('suite layout', () => {
  it('names every suite folder after a ledger file, and gives every ledger file a suite folder', () => {
    expect([...SUITE_FOLDERS].sort()).toEqual([...LEDGER_FILES].sort());
  });

  it('puts folders in spec section order when sorted by name', () => {
    const sorted = [...SUITE_FOLDERS].sort();
    const bySection = [...SUITE_FOLDERS].sort((a, b) => {
      const [x, y] = [sectionKey(a), sectionKey(b)];
      return x[0] - y[0] || x[1] - y[1];
    });
    expect(sorted).toEqual(bySection);
  });

  it('files every section of a ledger file in that file only', async () => {
    const home = await ledgerFileOf();
    const fileOfSection = new Map<string, Set<string>>();
    for (const r of requirementsOf('service')) {
      const files = fileOfSection.get(r.section) ?? new Set<string>();
      files.add(home.get(r.id)!);
      fileOfSection.set(r.section, files);
    }
    expect([...fileOfSection].filter(([, files]) => files.size !== 1)).toEqual([]);
  });

  it('keeps every check in the suite folder of its requirement, or the check says why not', async () => {
    expect(misfiled(listing.checks, await ledgerFileOf())).toEqual([]);
  });

  it('refuses a check of another section that states no reason, and a reason where none is needed', () => {
    const home = new Map([
      ['7/parse-error-code', '07-errors'],
      ['2.1/jsonrpc-required', '02-01-envelopes'],
    ]);
    const plan = { file: { cost: { requests: 1, turns: 0 } }, cost: { requests: 1, turns: 0 }, samples: [] };
    const at = (requirementId: string, crossSection?: string): ListedCheck => ({
      requirementId,
      title: 'a check',
      file: 'suites/02-01-envelopes/envelope.test.ts',
      plan: { ...plan, needsIdleAgent: false, ...(crossSection === undefined ? {} : { crossSection }) },
    });
    expect(
      misfiled([at('7/parse-error-code', 'graded on the unreadable body'), at('2.1/jsonrpc-required')], home),
    ).toEqual([]);
    expect(misfiled([at('7/parse-error-code')], home)).toEqual([
      'suites/02-01-envelopes/envelope.test.ts: 7/parse-error-code is not of this section and states no crossSection',
    ]);
    expect(misfiled([at('2.1/jsonrpc-required', 'stale')], home)).toHaveLength(1);
  });
});
