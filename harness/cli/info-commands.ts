// `list` and `explain`: what the ledger requires, which checks verify it, the spec text and the
// rulings (CLARIFICATIONS.md) behind a requirement. Nothing is sent to any target.
import { getRequirement, hasRequirement, specText } from '../../requirements/index.ts';
import { loadClarifications } from '../clarifications.ts';
import { ConfigError, resolveOptions } from '../options.ts';
import { listChecks, type ListedCheck } from '../runner/list-checks.ts';
import { selectForRun } from '../runner/run-conformance.ts';
import type { CliIo } from './program.ts';

async function checksOrFail(io: CliIo): Promise<ListedCheck[] | null> {
  const { checks, errors } = await listChecks();
  for (const e of errors) io.err(`suite error${e.file ? ` in ${e.file}` : ''}: ${e.message}\n`);
  return errors.length > 0 ? null : checks;
}

export async function listCommand(flags: Record<string, unknown>, io: CliIo): Promise<number> {
  const opts = resolveOptions({ flag: { only: flags.only, level: flags.level }, env: {}, file: {} });
  const selected = selectForRun(opts);
  const checks = await checksOrFail(io);
  if (checks === null) return 2;
  let covered = 0;
  for (const r of selected) {
    const mine = checks.filter((c) => c.requirementId === r.id);
    if (mine.length > 0) covered += 1;
    io.out(`${r.id}  ${r.level}  ${r.behaviour}\n`);
    for (const c of mine) io.out(`    check: ${c.title}  (${c.file})\n`);
    if (mine.length === 0) io.out('    (no check registered)\n');
  }
  io.out(`${selected.length} requirement(s), ${covered} with checks, ${checks.length} check(s) in all\n`);
  return 0;
}

export async function explainCommand(id: string, io: CliIo): Promise<number> {
  if (!hasRequirement(id)) throw new ConfigError(`unknown requirement id '${id}' (see a2a-conformance list)`);
  const r = getRequirement(id);
  const rulings = loadClarifications();
  io.out(`${r.id}  (${r.level}, section ${r.section})\n`);
  io.out(`behaviour: ${r.behaviour}\n`);
  io.out(`spec: ${specText(r)}\n`);
  if (r.capabilities?.length) io.out(`capabilities: ${r.capabilities.join(', ')}\n`);
  for (const cId of r.rulings ?? []) {
    const ruling = rulings.get(cId);
    io.out(`\n${cId} ${ruling?.title ?? '(not found in CLARIFICATIONS.md)'}\n`);
    if (ruling) io.out(`${indent(ruling.body)}\n`);
  }
  const checks = await checksOrFail(io);
  if (checks === null) return 2;
  const mine = checks.filter((c) => c.requirementId === r.id);
  io.out(`\nchecks (${mine.length}):\n`);
  for (const c of mine) io.out(`  ${c.title}  (${c.file})\n`);
  if (mine.length === 0) io.out('  (no check registered: a run reports it not-exercised)\n');
  return 0;
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((l) => (l === '' ? '' : `    ${l}`))
    .join('\n');
}
