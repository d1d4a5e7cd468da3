// `list` and `explain`: what the ledger requires of each role (service, receiver, client), which
// checks verify it, the spec text and the rulings (CLARIFICATIONS.md) behind a requirement. Nothing
// is sent to any target.
import {
  freedomsOf,
  getRequirement,
  hasRequirement,
  ROLES,
  specText,
  type Requirement,
  type Role,
} from '../../requirements/index.ts';
import { didYouMean, nearestIds } from '../../requirements/nearest.ts';
import { clientCheckList } from '../client/run-client.ts';
import { loadClarifications } from '../../core/clarifications.ts';
import { ConfigError, resolveOptions } from '../options.ts';
import { receiverCheckList } from '../receiver/run-receiver.ts';
import { listChecks, type ListedCheck } from '../runner/list-checks.ts';
import { assertKnownGlobs, selectForRun } from '../runner/select-requirements.ts';
import type { CliIo } from './shared.ts';
import { traceRequirement, type RequirementTrace } from './requirement-trace.ts';

/** The checks of one role: the suites' for the service, the modes' own for receiver and client. */
async function checksOf(role: Role, io: CliIo): Promise<ListedCheck[] | null> {
  if (role === 'receiver')
    return receiverCheckList().map((c) => ({ ...c, file: 'a2a-conformance receiver' }));
  if (role === 'client') return clientCheckList().map((c) => ({ ...c, file: 'a2a-conformance client' }));
  const { checks, errors } = await listChecks();
  for (const e of errors) io.err(`suite error${e.file ? ` in ${e.file}` : ''}: ${e.message}\n`);
  return errors.length > 0 ? null : checks;
}

/** A check as `list --json` shows it: its title, its file, and why it is filed in another section. */
function checkEntry(c: ListedCheck): { title: string; file: string; crossSection?: string } {
  const reason = c.plan?.crossSection;
  return { title: c.title, file: c.file, ...(reason === undefined ? {} : { crossSection: reason }) };
}

/** Where a check is, and why there when its file is of another section (verifies(..., { crossSection })). */
function checkPlace(c: { file: string; crossSection?: string }): string {
  return c.crossSection === undefined ? `(${c.file})` : `(${c.file}: ${c.crossSection})`;
}

function rolesOf(value: unknown): Role[] {
  if (value === undefined || value === 'all') return [...ROLES];
  if (typeof value === 'string' && (ROLES as readonly string[]).includes(value)) return [value as Role];
  throw new ConfigError(`--role must be one of ${ROLES.join(', ')}, all; got '${String(value)}'`);
}

export async function listCommand(flags: Record<string, unknown>, io: CliIo): Promise<number> {
  const opts = resolveOptions({ flag: { only: flags.only, level: flags.level }, env: {}, file: {} });
  const roles = rolesOf(flags.role);
  assertKnownGlobs(opts.only);
  const selections: Array<[Role, Requirement[]]> = [];
  for (const role of roles) {
    try {
      selections.push([role, selectForRun(opts, role)]);
    } catch (e) {
      // A role with nothing selected is left out; nothing selected in any role is an error.
      if (!(e instanceof ConfigError) || roles.length === 1) throw e;
    }
  }
  if (selections.length === 0) throw new ConfigError('no requirement matches the selection');
  const listed = await listedChecks(selections, io);
  if (listed === null) return 2;
  const covered = listed.requirements.filter((r) => r.checks.length > 0).length;
  if (flags.json === true) {
    const { requirements, checkCount } = listed;
    const doc = { requirements, total: requirements.length, covered, checks: checkCount };
    io.out(`${JSON.stringify(doc, null, 2)}\n`);
    return 0;
  }
  for (const r of listed.requirements) {
    io.out(`${r.id}  ${r.level}  ${r.role}  ${r.behaviour}\n`);
    for (const c of r.checks) io.out(`    check: ${c.title}  ${checkPlace(c)}\n`);
    if (r.checks.length === 0) io.out('    (no check registered)\n');
  }
  io.out(
    `${listed.requirements.length} requirement(s), ${covered} with checks, ${listed.checkCount} check(s) in all\n`,
  );
  return 0;
}

/**
 * Each selected requirement with its ledger fields and the checks that verify it (`list`, and
 * `list --json` for tools), and the count of checks of the roles listed; null when a role's checks
 * could not be collected.
 */
async function listedChecks(
  selections: Array<[Role, Requirement[]]>,
  io: CliIo,
): Promise<{
  requirements: Array<
    Pick<Requirement, 'id' | 'section' | 'level' | 'role' | 'behaviour'> & {
      checks: Array<{ title: string; file: string; crossSection?: string }>;
    }
  >;
  checkCount: number;
} | null> {
  const requirements = [];
  let checkCount = 0;
  for (const [role, selected] of selections) {
    const checks = await checksOf(role, io);
    if (checks === null) return null;
    checkCount += checks.length;
    for (const r of selected) {
      const mine = checks.filter((c) => c.requirementId === r.id).map(checkEntry);
      const { id, section, level, behaviour } = r;
      requirements.push({ id, section, level, role: r.role, behaviour, checks: mine });
    }
  }
  return { requirements, checkCount };
}

export async function explainCommand(id: string, io: CliIo): Promise<number> {
  if (!hasRequirement(id))
    throw new ConfigError(
      `unknown requirement id '${id}'${didYouMean(nearestIds(id))} (a2a-conformance list lists them)`,
    );
  const r = getRequirement(id);
  const rulings = loadClarifications();
  io.out(`${r.id}  (${r.level}, section ${r.section}, role ${r.role})\n`);
  io.out(`behaviour: ${r.behaviour}\n`);
  io.out(`spec: ${specText(r)}\n`);
  if (r.role !== 'service') io.out(`certified by: a2a-conformance ${r.role}\n`);
  if (r.capabilities?.length) io.out(`capabilities: ${r.capabilities.join(', ')}\n`);
  for (const cId of r.rulings ?? []) {
    const ruling = rulings.get(cId);
    io.out(`\n${cId} ${ruling?.title ?? '(not found in CLARIFICATIONS.md)'}\n`);
    if (ruling) io.out(`${indent(ruling.body)}\n`);
  }
  printFreedoms(r, io);
  const checks = await checksOf(r.role, io);
  if (checks === null) return 2;
  const mine = checks.filter((c) => c.requirementId === r.id);
  io.out(`\nchecks (${mine.length}):\n`);
  for (const c of mine) io.out(`  ${c.title}  ${checkPlace(checkEntry(c))}\n`);
  if (mine.length === 0) io.out('  (no check registered: a run reports it not-exercised)\n');
  printTrace(r, await traceRequirement(r), io);
  return 0;
}

/**
 * The freedoms of a legal agent its checks must tolerate (requirements/freedoms.ts): those that touch
 * its section or id in full, then the ids of those every service requirement tolerates.
 */
function printFreedoms(r: Requirement, io: CliIo): void {
  const all = freedomsOf(r);
  if (all.length === 0) return;
  const own = all.filter((f) => f.touches !== 'all');
  io.out(`\nfreedoms its checks must tolerate (${all.length}; docs/freedoms.md):\n`);
  for (const f of own) io.out(`  ${f.id}: ${f.freedom} Accept: ${f.accept}\n`);
  const every = all.filter((f) => f.touches === 'all').map((f) => f.id);
  if (every.length > 0) io.out(`  and those of every requirement: ${every.join(', ')}\n`);
}

/** The reference-server code, the mutants and the legal variants behind a requirement. */
function printTrace(r: Requirement, t: RequirementTrace, io: CliIo): void {
  if (r.role === 'service') {
    io.out(`\nreference server (${t.referenceFiles.length}):\n`);
    for (const f of t.referenceFiles) io.out(`  ${f}\n`);
  }
  if (t.mutants === null || t.legal === null) {
    io.out('\nmutants and legal variants: not in this installation (a clone has them: npm run mutants)\n');
    return;
  }
  io.out(`\nmutants (${t.mutants.length}), each must make the harness fail or warn here:\n`);
  for (const m of t.mutants) io.out(`  ${m.name}  (${m.file}): ${m.description}\n`);
  if (t.mutants.length === 0) io.out('  (none breaks it)\n');
  // --extended: the filter keeps only this id's mutants, wherever they are listed (core or extended set).
  if (t.mutants.length > 0)
    io.out(`  run: npm run mutants -- --mutants --extended ${r.id.replace(/[/.]/g, '-')}\n`);
  io.out(`\nlegal variants (${t.legal.length}), each must get no fail or warn here:\n`);
  for (const v of t.legal) io.out(`  ${v.name}  (${v.file}): ${v.description}; allowed by ${v.allowedBy}\n`);
  if (t.legal.length === 0) io.out('  (none names it)\n');
  io.out(`  and ${t.legalUnscoped} more that run against every requirement: npm run mutants -- --legal\n`);
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((l) => (l === '' ? '' : `    ${l}`))
    .join('\n');
}
