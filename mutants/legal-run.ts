// Runs the legal variants of mutants/legal/ (each file default-exports LegalVariant[]) and a control
// through the same proxy with no change; a variant is clean when no requirement the control passes
// gets `fail` or `warn` against it (`info` and not-exercised are allowed: a legal form may hide a
// precondition, and the run says so).
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { mapInOrder } from '../harness/pool.ts';
import { hasFreedom } from '../requirements/index.ts';
import { byControl, mergeVerdicts, PROXY_CONTROL, runOnTarget } from './runner.ts';
import type { LegalVariant, SetRunOptions } from './types.ts';

export const LEGAL_DIR = fileURLToPath(new URL('./legal/', import.meta.url));

export interface LegalResult {
  name: string;
  /** the freedom ids it proves (requirements/freedoms.ts) */
  varies: readonly string[];
  /** requirements the control passes that this variant fails or warns, as `id: verdict` */
  falseFindings: string[];
  /** requirements the control passes that this variant leaves not-exercised or error (not graded) */
  unexercised: string[];
  clean: boolean;
  exitCode: number | null;
  durationMs: number;
  problem?: string;
}

export interface LegalRun {
  control: { verdicts: Record<string, string>; problem?: string; durationMs: number };
  results: LegalResult[];
  durationMs: number;
}

const KEBAB = /^[a-z0-9]+(-[a-z0-9]+)*$/;

export async function loadLegalVariants(dir = LEGAL_DIR): Promise<LegalVariant[]> {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.ts')).sort();
  const variants: LegalVariant[] = [];
  for (const file of files) {
    const mod = (await import(pathToFileURL(join(dir, file)).href)) as { default?: unknown };
    if (!Array.isArray(mod.default)) throw new Error(`${file} must default-export LegalVariant[]`);
    variants.push(...(mod.default as LegalVariant[]));
  }
  const problems: string[] = [];
  const names = variants.map((v) => v.name);
  for (const v of variants) {
    if (!KEBAB.test(v.name)) problems.push(`${v.name}: not kebab-case`);
    if (names.indexOf(v.name) !== names.lastIndexOf(v.name)) problems.push(`${v.name}: name used twice`);
    if (v.allowedBy.trim() === '') problems.push(`${v.name}: says nothing of what allows it`);
    if (v.varies.length === 0) problems.push(`${v.name}: names no freedom it varies`);
    for (const id of v.varies.filter((f) => !hasFreedom(f)))
      problems.push(`${v.name}: varies '${id}', which is not in requirements/freedoms.ts`);
  }
  if (problems.length > 0) throw new Error(`invalid legal variants:\n${[...new Set(problems)].join('\n')}`);
  return variants;
}

/** The --only scope of a set of variants: everything when one of them has none. */
export function scopeOf(variants: readonly LegalVariant[]): string[] {
  if (variants.some((v) => v.only === undefined)) return [];
  return [...new Set(variants.flatMap((v) => v.only ?? []))].sort();
}

const GRADED_BAD = new Set(['fail', 'warn']);
const UNGRADED = new Set(['not-exercised', 'error']);

/** Compares a variant's verdicts with the control's: only requirements the control passes count. */
export function compareWithControl(
  control: Record<string, string>,
  verdicts: Record<string, string>,
): { falseFindings: string[]; unexercised: string[] } {
  const falseFindings: string[] = [];
  const unexercised: string[] = [];
  for (const [id, verdict] of Object.entries(verdicts)) {
    if (control[id] !== 'pass') continue;
    if (GRADED_BAD.has(verdict)) falseFindings.push(`${id}: ${verdict}`);
    else if (UNGRADED.has(verdict)) unexercised.push(`${id}: ${verdict}`);
  }
  return { falseFindings, unexercised };
}

export async function runLegalVariant(
  v: LegalVariant,
  control: Record<string, string>,
  keep?: string,
): Promise<LegalResult> {
  const started = Date.now();
  const run = await runOnTarget(
    () => v.start(),
    v.only ?? [],
    keep === undefined ? undefined : join(keep, v.name),
  );
  const found = compareWithControl(control, run.verdicts);
  return {
    name: v.name,
    varies: v.varies,
    ...found,
    clean: run.problem === undefined && found.falseFindings.length === 0,
    exitCode: run.exitCode,
    durationMs: Date.now() - started,
    ...(run.problem !== undefined ? { problem: run.problem } : {}),
  };
}

/**
 * Each control (the proxy with no change, or the unchanged target a variant names) over the union of
 * its variants' scopes, then every variant, compared with its own control.
 */
export async function runLegal(
  variants: readonly LegalVariant[],
  { concurrency = 3, onResult, keep }: SetRunOptions<LegalResult> = {},
): Promise<LegalRun> {
  const started = Date.now();
  const controls = new Map<string, Record<string, string>>();
  const problems: string[] = [];
  for (const group of byControl(variants)) {
    const plain = group.control === PROXY_CONTROL;
    const dir = plain ? 'control' : `control-${group.control.name}`;
    const run = await runOnTarget(
      () => group.control.start(),
      scopeOf(group.variants),
      keep === undefined ? undefined : join(keep, dir),
    );
    controls.set(group.control.name, run.verdicts);
    if (run.problem !== undefined) problems.push(plain ? run.problem : `${run.problem} (${dir})`);
  }
  const control = {
    verdicts: mergeVerdicts([...controls.values()]),
    durationMs: Date.now() - started,
    ...(problems.length > 0 ? { problem: problems.join('; ') } : {}),
  };
  const results = await mapInOrder(variants, concurrency, async (v) => {
    const own = controls.get((v.control ?? PROXY_CONTROL).name) ?? {};
    const r = await runLegalVariant(v, own, keep);
    onResult?.(r);
    return r;
  });
  return { control, results, durationMs: Date.now() - started };
}

export interface LegalScore {
  clean: number;
  total: number;
  controlPasses: number;
  controlProblem: string | null;
  variants: Array<
    Pick<LegalResult, 'name' | 'varies' | 'clean' | 'falseFindings' | 'unexercised'> & {
      problem: string | null;
    }
  >;
}

export function computeLegalScore(run: LegalRun): LegalScore {
  return {
    clean: run.results.filter((r) => r.clean).length,
    total: run.results.length,
    controlPasses: Object.values(run.control.verdicts).filter((v) => v === 'pass').length,
    controlProblem: run.control.problem ?? null,
    variants: run.results.map((r) => ({
      name: r.name,
      varies: r.varies,
      clean: r.clean,
      falseFindings: r.falseFindings,
      unexercised: r.unexercised,
      problem: r.problem ?? null,
    })),
  };
}

export function legalScoreMarkdown(score: LegalScore): string {
  const lines = [
    `Legal-variant score: **${score.clean}/${score.total}** clean (no fail or warn where the control passes)`,
    '',
    `Control (the proxy with no change): ${score.controlPasses} requirements pass` +
      (score.controlProblem === null ? '' : `; problem: ${score.controlProblem}`),
    '',
    '| variant | varies | false fail/warn | not exercised (control passes) |',
    '| ------- | ------ | --------------- | ------------------------------ |',
    ...score.variants.map(
      (v) =>
        `| ${v.name} | ${v.varies.join(', ')} | ${v.problem ?? (v.falseFindings.join(', ') || 'none')} | ${v.unexercised.length} |`,
    ),
  ];
  return `${lines.join('\n')}\n`;
}
