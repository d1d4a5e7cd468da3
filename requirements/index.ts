// The requirement ledger: every normative statement of spec/a2a-jsonrpc-service.md (and the JSON-RPC
// 2.0 rules it inherits), frozen in spec order, with lookup and selection by id or section glob.
import { SECTION_1 } from './sections/01-overview.ts';
import { SECTION_2_1_TO_2_2 } from './sections/02-01-envelopes.ts';
import { SECTION_2_3_TO_2_6 } from './sections/02-03-message.ts';
import { SECTION_2_7_TO_2_10 } from './sections/02-07-task.ts';
import { SECTION_2_11_TO_2_13 } from './sections/02-11-webhook-config.ts';
import { SECTION_2_14 } from './sections/02-14-agent-card.ts';
import { SECTION_3 } from './sections/03-states.ts';
import { SECTION_4 } from './sections/04-00-endpoint.ts';
import { SECTION_4_1 } from './sections/04-01-message-send.ts';
import { SECTION_4_2 } from './sections/04-02-message-stream.ts';
import { SECTION_4_3 } from './sections/04-03-tasks-get.ts';
import { SECTION_4_4 } from './sections/04-04-tasks-cancel.ts';
import { SECTION_4_5 } from './sections/04-05-tasks-resubscribe.ts';
import { SECTION_4_6_TO_4_7 } from './sections/04-06-push-config.ts';
import { SECTION_4_8 } from './sections/04-08-extended-card.ts';
import { SECTION_4_9 } from './sections/04-09-multi-turn-files.ts';
import { SECTION_5 } from './sections/05-authentication.ts';
import { SECTION_6_TO_6_5 } from './sections/06-01-webhooks.ts';
import { SECTION_6_6 } from './sections/06-06-streaming-events.ts';
import { SECTION_7 } from './sections/07-errors.ts';
import { SECTION_8 } from './sections/08-limits.ts';
import { SECTION_9 } from './sections/09-versioning.ts';
import { CLIENT_REQUIREMENTS } from './sections/roles-client.ts';
import { RECEIVER_REQUIREMENTS } from './sections/roles-receiver.ts';
import { FREEDOMS, type Freedom } from './freedoms.ts';
import { ledgerVersion, type LedgerVersion } from './ledger-version.ts';
import { specHeadings } from './spec-text.ts';
import type { Requirement, Role } from './types.ts';

export type { Capability, ExternalSource, Level, Requirement, Role, SpecSource } from './types.ts';
export { ROLES } from './types.ts';
export { isSpecSource, specExcerpt, specText } from './spec-text.ts';
export { formatLedgerVersion, type LedgerVersion } from './ledger-version.ts';
export {
  FREEDOM_GROUPS,
  FREEDOMS,
  type Freedom,
  type FreedomGroup,
  type FreedomSource,
  type RulingSource,
} from './freedoms.ts';

function freezeRequirement(r: Requirement): Requirement {
  return Object.freeze({
    ...r,
    source: Object.freeze({ ...r.source }),
    ...(r.rulings ? { rulings: Object.freeze([...r.rulings]) } : {}),
    ...(r.capabilities ? { capabilities: Object.freeze([...r.capabilities]) } : {}),
  });
}

/**
 * Every requirement: the service's in spec order (section by section, as the section files list
 * them), then the receiver's and the client's, each in spec order.
 */
export const REQUIREMENTS: readonly Requirement[] = Object.freeze(
  [
    SECTION_1,
    SECTION_2_1_TO_2_2,
    SECTION_2_3_TO_2_6,
    SECTION_2_7_TO_2_10,
    SECTION_2_11_TO_2_13,
    SECTION_2_14,
    SECTION_3,
    SECTION_4,
    SECTION_4_1,
    SECTION_4_2,
    SECTION_4_3,
    SECTION_4_4,
    SECTION_4_5,
    SECTION_4_6_TO_4_7,
    SECTION_4_8,
    SECTION_4_9,
    SECTION_5,
    SECTION_6_TO_6_5,
    SECTION_6_6,
    SECTION_7,
    SECTION_8,
    SECTION_9,
    RECEIVER_REQUIREMENTS,
    CLIENT_REQUIREMENTS,
  ]
    .flat()
    .map(freezeRequirement),
);

/** The version of this ledger (requirements/ledger-version.ts), named by `--version` and every report. */
export const LEDGER_VERSION: LedgerVersion = Object.freeze(ledgerVersion(REQUIREMENTS));

const BY_ID: ReadonlyMap<string, Requirement> = new Map(REQUIREMENTS.map((r) => [r.id, r]));

/** Section number -> heading title, read from the spec's headings (e.g. '4.4' -> 'tasks/cancel'). */
export const SECTIONS: Readonly<Record<string, string>> = Object.freeze(
  Object.fromEntries(specHeadings().map((h) => [h.section, h.title])),
);

/** The requirements that bind one role, in spec order. */
export function requirementsOf(role: Role): Requirement[] {
  return REQUIREMENTS.filter((r) => r.role === role);
}

export function hasRequirement(id: string): boolean {
  return BY_ID.has(id);
}

/** The requirement with this id; throws on an unknown id so a typo in a check fails loudly. */
export function getRequirement(id: string): Requirement {
  const r = BY_ID.get(id);
  if (r === undefined) throw new Error(`unknown requirement id '${id}'`);
  return r;
}

function globToRegExp(glob: string): RegExp {
  const body = glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
  return new RegExp(`^${body}$`);
}

/** Whether one glob selects a requirement: globs with '/' match ids, others match sections. */
function globMatcher(glob: string): (r: Requirement) => boolean {
  const re = globToRegExp(glob);
  if (glob.includes('/')) return (r) => re.test(r.id);
  // `4.*` reads as "section 4 and its subsections", so it also takes the statements of section 4 itself.
  const parent = glob.endsWith('.*') ? glob.slice(0, -2) : undefined;
  return (r) => re.test(r.section) || r.section === parent;
}

/**
 * Requirements selected by globs over ids (`4.4/*`, `6.4/signature-*`) or sections (`4.4`, `4.*`),
 * given as one comma-separated string or a list; in spec order, each once.
 */
export function selectRequirements(globs: string | readonly string[]): Requirement[] {
  const list = (typeof globs === 'string' ? [globs] : globs)
    .flatMap((g) => g.split(','))
    .map((g) => g.trim())
    .filter((g) => g !== '');
  if (list.length === 0) throw new Error('selectRequirements: no glob given');
  const matchers = list.map(globMatcher);
  return REQUIREMENTS.filter((r) => matchers.some((m) => m(r)));
}

/** Requirements that cite a ruling of CLARIFICATIONS.md, e.g. 'C-06'. */
export function requirementsForRuling(cId: string): Requirement[] {
  if (!/^C-\d{2}$/.test(cId)) throw new Error(`requirementsForRuling: '${cId}' is not a ruling id (C-NN)`);
  return REQUIREMENTS.filter((r) => r.rulings?.includes(cId));
}

const FREEDOM_BY_ID: ReadonlyMap<string, Freedom> = new Map(FREEDOMS.map((f) => [f.id, f]));

export function hasFreedom(id: string): boolean {
  return FREEDOM_BY_ID.has(id);
}

/** The freedom with this id (requirements/freedoms.ts); throws on an unknown id. */
export function getFreedom(id: string): Freedom {
  const f = FREEDOM_BY_ID.get(id);
  if (f === undefined) throw new Error(`unknown freedom id '${id}'`);
  return f;
}

/**
 * The freedoms whose `touches` select a requirement, in ledger order: what its checks must tolerate.
 * `all` touches every service requirement.
 */
export function freedomsOf(r: Requirement): Freedom[] {
  return FREEDOMS.filter((f) => (f.touches === 'all' ? r.role === 'service' : touchedBy(f).has(r.id)));
}

const TOUCHED = new Map<Freedom, ReadonlySet<string>>();

/** The ids of the requirements a freedom's globs select, computed once per freedom. */
function touchedBy(f: Freedom): ReadonlySet<string> {
  let ids = TOUCHED.get(f);
  if (ids === undefined && f.touches !== 'all') {
    ids = new Set(selectRequirements(f.touches).map((s) => s.id));
    TOUCHED.set(f, ids);
  }
  return ids ?? new Set();
}
