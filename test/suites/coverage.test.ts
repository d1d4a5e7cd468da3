// The coverage gate: every MUST and SHOULD requirement of the ledger is verified by at least
// one check; and the layout rule: a requirement's section maps to one ledger file
// (requirements/sections/<name>.ts) and one suite folder of the same name (suites/<name>/), named
// with zero-padded section numbers so that path order is spec order. The evidence is the suites' own
// verifies() registrations (collected by vitest without touching a target), never a hand-kept list.
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { requirementsOf, type Requirement } from '../../requirements/index.ts';
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

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Ledger files of the service's requirements (roles-*.ts hold the client's and the receiver's). */
const LEDGER_FILES = readdirSync(`${ROOT}requirements/sections`)
  .filter((f) => /^\d\d-.*\.ts$/.test(f))
  .map((f) => f.replace(/\.ts$/, ''));
const SUITE_FOLDERS = readdirSync(`${ROOT}suites`, { withFileTypes: true })
  .filter((d) => d.isDirectory() && d.name !== 'support')
  .map((d) => d.name);

/**
 * Checks that grade a requirement of another ledger file on the sample their own file makes (one
 * task, one delivery, one malformed body serves several sections' requirements, which saves agent
 * turns), or that must run at a point of the run only their folder gives them. Keyed by
 * `<folder> <requirement id>`; every entry must still be in use.
 */
const QUEUE = 'graded on the queue scenario: every slot is filled once per run, not once per section';
const CROSS_SECTION: Readonly<Record<string, string>> = {
  '02-01-envelopes 7/parse-error-code': 'the envelope checks send the unreadable body',
  '02-01-envelopes 7/invalid-request-code': 'the envelope checks send the wrong jsonrpc version',
  '02-01-envelopes 7/method-not-found-code': 'the envelope checks send the unknown method',
  '02-01-envelopes 7/jsonrpc-errors-http-200': 'graded on the malformed-envelope property run',
  '02-01-envelopes 7/invalid-params-field': 'graded on the malformed-envelope property run',
  '02-07-task 2/extra-fields-tolerated': 'section 2 applies to every result: graded on each result type',
  '02-11-webhook-config 6/no-delivery-without-config':
    'must run before any file sets an agent-level configuration',
  '04-01-message-send 2.3/message-id-uuid-v4': 'graded on the invalid message/send params table',
  '04-01-message-send 2.3/role-user': 'graded on the invalid message/send params table',
  '04-01-message-send 2.3/parts-non-empty-array': 'graded on the invalid message/send params table',
  '04-01-message-send 2.4/part-type': 'graded on the invalid message/send params table',
  '04-01-message-send 2.5/file-bytes-base64-no-prefix': 'graded on the invalid message/send params table',
  '04-03-tasks-get 2.8/progress-monotone': 'graded on the tasks/get progress trace',
  '04-05-tasks-resubscribe 7/task-not-found-code': 'graded on the resubscribe to an unknown task',
  '04-09-multi-turn-files 2.6/unknown-context-id': 'graded on the multi-turn context sample',
  '04-09-multi-turn-files 2.6/session-id-accepted': 'graded on the multi-turn context sample',
  '06-01-webhooks 2.11/agent-scoped-config': 'observable only through deliveries',
  '06-01-webhooks 2.11/events-default-all': 'observable only through deliveries',
  '06-01-webhooks 2.11/initial-delay-default': 'observable only through delivery retries',
  '06-01-webhooks 2.11/backoff-multiplier-default': 'observable only through delivery retries',
  '06-01-webhooks 2.11/max-retries-default': 'observable only through delivery retries',
  '06-01-webhooks 2.11/task-scoped-config': 'observable only through deliveries',
  '06-01-webhooks 2.13/get-config-last-used': 'set by a delivery',
  '06-01-webhooks 4.7/get-agent-scope': 'shares the agent-level configuration of the delivery checks',
  '06-01-webhooks 4.7/get-returns-scope': 'shares the agent-level configuration of the delivery checks',
  '06-01-webhooks 3/task-submitted-announced':
    'read on the agent-level delivery samples (no requests of their own); the one file that sets the agent-level configuration',
  '06-01-webhooks 3/completed-webhook': 'read on the agent-level delivery samples: no requests of their own',
  '06-01-webhooks 3/failed-webhook': 'read on the agent-level delivery samples: no requests of their own',
  '08-limits 3/new-task-submitted': QUEUE,
  '08-limits 3/submitted-to-working-on-dequeue': QUEUE,
  '08-limits 3/cancel-from-submitted': QUEUE,
  '08-limits 3/cancel-from-submitted-webhook': QUEUE,
  '08-limits 3/working-webhook-optional': QUEUE,
  '08-limits 4.3/get-current-state': QUEUE,
};

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

  it('keeps every check in the suite folder of its requirement, or names why not', async () => {
    const home = await ledgerFileOf();
    const used = new Set<string>();
    const stray: string[] = [];
    for (const check of listing.checks) {
      const folder = check.file.replace(/^.*suites\//, '').split('/')[0]!;
      if (home.get(check.requirementId) === folder) continue;
      const key = `${folder} ${check.requirementId}`;
      if (key in CROSS_SECTION) used.add(key);
      else stray.push(`${check.file}: ${check.requirementId}`);
    }
    expect(stray).toEqual([]);
    expect(Object.keys(CROSS_SECTION).filter((k) => !used.has(k))).toEqual([]);
  });
});
