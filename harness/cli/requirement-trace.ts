// What `explain` adds to a requirement's checks: the reference-server files that implement it
// (reference-server/requirements-map.ts), the mutants that break it (mutants/variants/) and the legal
// variants that name it (mutants/legal/). Read as data: the mutants exist in a clone only (the package
// leaves them out), and the harness never imports the reference server's code.
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { freedomsOf, selectRequirements, type Requirement } from '../../requirements/index.ts';
import { PROJECT_ROOT } from '../runner/paths.ts';

const MAP_MODULE = '../../reference-server/requirements-map.ts';
export const MUTANTS_DIR = 'mutants/variants';
export const LEGAL_DIR = 'mutants/legal';

interface MapEntry {
  select: string;
  files: readonly string[];
}

/** One mutant or legal variant, with the file that defines it (from the project root). */
export interface TracedVariant {
  name: string;
  file: string;
  description: string;
  /** Legal variants: the spec line or ruling that allows the choice. */
  allowedBy?: string;
}

export interface RequirementTrace {
  referenceFiles: string[];
  /** null when this installation has no mutants/ (the package leaves them out). */
  mutants: TracedVariant[] | null;
  legal: TracedVariant[] | null;
  /** Legal variants that run against every requirement without naming one. */
  legalUnscoped: number;
}

/** The reference-server files of every map entry that selects the requirement, each once. */
export async function referenceFilesOf(r: Requirement): Promise<string[]> {
  const { REQUIREMENTS_MAP } = (await import(MAP_MODULE)) as { REQUIREMENTS_MAP: readonly MapEntry[] };
  const files = REQUIREMENTS_MAP.filter((e) => selects(e.select, r)).flatMap((e) => e.files);
  return [...new Set(files)];
}

function selects(globs: string | readonly string[], r: Requirement): boolean {
  return selectRequirements(globs).some((s) => s.id === r.id);
}

interface VariantData {
  name: string;
  description: string;
  breaks?: string;
  allowedBy?: string;
  only?: readonly string[];
  varies?: readonly string[];
}

/** Every variant a directory's modules export (`default`, and `extended` for mutants), by file. */
async function variantsIn(dir: string): Promise<Array<VariantData & { file: string }> | null> {
  const abs = join(PROJECT_ROOT, dir);
  if (!existsSync(abs)) return null;
  const out: Array<VariantData & { file: string }> = [];
  for (const f of (await readdir(abs)).filter((n) => n.endsWith('.ts')).sort()) {
    const mod = (await import(pathToFileURL(join(abs, f)).href)) as Record<string, unknown>;
    for (const list of [mod.default, mod.extended]) {
      if (Array.isArray(list))
        out.push(...(list as VariantData[]).map((v) => ({ ...v, file: `${dir}/${f}` })));
    }
  }
  return out;
}

/**
 * Whether a legal variant names the requirement: its `only` selects it, a freedom it varies touches
 * the requirement's section or id (not merely every requirement), or its `allowedBy` cites one of the
 * requirement's rulings (`C-06`) or its section (`spec 2.7 and 6.3`, `spec 4.2`).
 */
export function legalNames(
  v: { allowedBy?: string; only?: readonly string[]; varies?: readonly string[] },
  r: Requirement,
): boolean {
  if (v.only !== undefined && v.only.length > 0 && selects(v.only, r)) return true;
  const touching = freedomsOf(r).filter((f) => f.touches !== 'all');
  if (touching.some((f) => v.varies?.includes(f.id) === true)) return true;
  const text = v.allowedBy ?? '';
  if ((r.rulings ?? []).some((c) => new RegExp(`\\b${c}\\b`).test(text))) return true;
  const cited = [...text.matchAll(/\bspec ((?:\d+(?:\.\d+)?)(?:(?:, | and )\d+(?:\.\d+)?)*)/g)].flatMap((m) =>
    (m[1] ?? '').split(/, | and /),
  );
  return cited.includes(r.section);
}

const traced = (v: VariantData & { file: string }): TracedVariant => ({
  name: v.name,
  file: v.file,
  description: v.description,
  ...(v.allowedBy !== undefined ? { allowedBy: v.allowedBy } : {}),
});

export async function traceRequirement(r: Requirement): Promise<RequirementTrace> {
  const referenceFiles = r.role === 'service' ? await referenceFilesOf(r) : [];
  const mutants = await variantsIn(MUTANTS_DIR);
  const legal = await variantsIn(LEGAL_DIR);
  return {
    referenceFiles,
    mutants: mutants?.filter((v) => v.breaks === r.id).map(traced) ?? null,
    legal: legal?.filter((v) => legalNames(v, r)).map(traced) ?? null,
    legalUnscoped: legal?.filter((v) => v.only === undefined && !legalNames(v, r)).length ?? 0,
  };
}
