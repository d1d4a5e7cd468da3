// Runs the harness CLI (a child process) against each variant and reads the verdict of the broken
// requirement from report.json; a control run certifies the same proxy with no mutation.
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { mapInOrder } from '../harness/pool.ts';
import { hasRequirement } from '../requirements/index.ts';
import { expectedVerdict, idSlug } from './define.ts';
import { startMutant } from './proxy.ts';
import type { Area, ControlTarget, MutantTarget, SetRunOptions, Variant } from './types.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const VARIANTS_DIR = join(ROOT, 'mutants', 'variants');
/**
 * A run that hangs past this is killed and counted as not caught (generous: cores may be shared);
 * `npm run mutants -- --run-timeout <s>` sets it for a machine busier than that.
 */
let RUN_TIMEOUT_MS = 240_000;

/** The time after which one harness run is killed (see RUN_TIMEOUT_MS). */
export function setRunTimeoutMs(ms: number): void {
  RUN_TIMEOUT_MS = ms;
}
/** The harness's --profile in every run (`npm run mutants -- --profile`); undefined: its default. */
let PROFILE: string | undefined;

export function setRunProfile(profile: string): void {
  PROFILE = profile;
}

/** A fixed seed so a variant caught once is caught on every run. */
const SEED = '20240601';
/**
 * Cases per property: every variant breaks its rule on every answer of the kind it touches, so a
 * few dozen cases find it; the default 400 would spend most of the run on repetitions.
 */
const RUNS = '40';

export interface VariantResult {
  name: string;
  breaks: string;
  area: Area;
  expect: 'fail' | 'warn';
  /** verdict of `breaks` in the run's report.json (undefined when the run produced none) */
  verdict: string | undefined;
  caught: boolean;
  exitCode: number | null;
  durationMs: number;
  /** why the run did not yield a verdict, when it did not */
  problem?: string;
}

export interface ControlResult {
  only: string[];
  verdicts: Record<string, string>;
  /** requirements whose verdict was not pass (or not-applicable) through the faithful proxy */
  unfaithful: string[];
  exitCode: number | null;
  durationMs: number;
  problem?: string;
}

/**
 * Every variant of mutants/variants/*.ts (each file default-exports Variant[]), checked for
 * consistency; with `extended`, also the variants files export as `extended` (run by
 * `npm run mutants -- --extended`, not by the detection test, whose time budget they would exceed).
 */
export async function loadVariants(dir = VARIANTS_DIR, { extended = false } = {}): Promise<Variant[]> {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.ts')).sort();
  const variants: Variant[] = [];
  for (const file of files) {
    const mod = (await import(pathToFileURL(join(dir, file)).href)) as {
      default?: unknown;
      extended?: unknown;
    };
    if (!Array.isArray(mod.default)) throw new Error(`${file} must default-export Variant[]`);
    variants.push(...(mod.default as Variant[]));
    if (extended && Array.isArray(mod.extended)) variants.push(...(mod.extended as Variant[]));
  }
  const problems = variants.flatMap(variantProblems);
  const names = variants.map((v) => v.name);
  for (const name of new Set(names)) {
    if (names.indexOf(name) !== names.lastIndexOf(name)) problems.push(`${name}: name used twice`);
  }
  if (problems.length > 0) throw new Error(`invalid variants:\n${problems.join('\n')}`);
  return variants;
}

export function variantProblems(v: Variant): string[] {
  if (!hasRequirement(v.breaks)) return [`${v.name}: ${v.breaks} is not a ledger id`];
  const problems: string[] = [];
  if (!v.name.startsWith(idSlug(v.breaks)))
    problems.push(`${v.name}: name must start with ${idSlug(v.breaks)}`);
  if (!/^[a-z0-9]+(-[a-z0-9]+)*(--[a-z0-9]+(-[a-z0-9]+)*)*$/.test(v.name))
    problems.push(`${v.name}: not kebab-case`);
  try {
    if (expectedVerdict(v.breaks) !== v.expect)
      problems.push(`${v.name}: expect ${v.expect} disagrees with the ledger`);
  } catch (error) {
    problems.push(`${v.name}: ${(error as Error).message}`);
  }
  return problems;
}

interface HarnessRun {
  exitCode: number | null;
  verdicts: Record<string, string>;
  problem?: string;
}

/** One `run` of the harness CLI against `target`, scoped to `only`; the verdict of every requirement run. */
export async function runHarness(
  target: MutantTarget,
  only: readonly string[],
  keep?: string,
): Promise<HarnessRun> {
  const out = keep ?? (await mkdtemp(join(tmpdir(), 'a2a-mutant-')));
  const args = ['--import', 'tsx', join(ROOT, 'harness/cli/main.ts'), 'run', '--target', target.baseUrl];
  args.push(
    '--agent-id',
    target.agentId,
    '--api-key',
    target.apiKey,
    '--out',
    out,
    '--quiet',
    '--seed',
    SEED,
    '--runs',
    RUNS,
  );
  for (const glob of only) args.push('--only', glob);
  if (PROFILE !== undefined) args.push('--profile', PROFILE);
  args.push(...(target.extraArgs ?? []));
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(A2A_|VITEST)/.test(k)));
  try {
    const ran = await new Promise<{ code: number | null; stderr: string; stdout: string }>((resolve) => {
      execFile(
        process.execPath,
        args,
        { cwd: ROOT, env: { ...env, NO_COLOR: '1' }, timeout: RUN_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 },
        (error, stdout, stderr) => {
          const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
          resolve({ code, stdout, stderr });
        },
      );
    });
    let report: { requirements?: Array<{ id: string; verdict: string }> };
    try {
      report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as typeof report;
    } catch {
      const tail = `${ran.stdout}\n${ran.stderr}`.trim().split('\n').slice(-5).join(' | ');
      return { exitCode: ran.code, verdicts: {}, problem: `no report.json (exit ${ran.code}): ${tail}` };
    }
    const verdicts = Object.fromEntries((report.requirements ?? []).map((r) => [r.id, r.verdict]));
    return { exitCode: ran.code, verdicts };
  } finally {
    if (keep === undefined) await rm(out, { recursive: true, force: true });
  }
}

/**
 * Starts a variant's target, runs the harness against it over `only` and closes it. A target that
 * cannot start is the run's problem (no verdicts), never a throw.
 */
export async function runOnTarget(
  start: () => Promise<MutantTarget>,
  only: readonly string[],
  keep?: string,
): Promise<HarnessRun> {
  let target: MutantTarget;
  try {
    target = await start();
  } catch (error) {
    return { exitCode: null, verdicts: {}, problem: `start failed: ${(error as Error).message}` };
  }
  try {
    return await runHarness(target, only, keep);
  } finally {
    await target.close();
  }
}

/** Runs the harness against one variant; `keep` is a directory to leave its reports in. */
export async function runVariant(v: Variant, keep?: string): Promise<VariantResult> {
  const started = Date.now();
  const run = await runOnTarget(
    () => v.start(),
    v.only ?? [v.breaks],
    keep === undefined ? undefined : join(keep, v.name),
  );
  const verdict = run.verdicts[v.breaks];
  return {
    name: v.name,
    breaks: v.breaks,
    area: v.area,
    expect: v.expect,
    verdict,
    caught: verdict === v.expect,
    exitCode: run.exitCode,
    durationMs: Date.now() - started,
    ...(run.problem !== undefined ? { problem: run.problem } : {}),
  };
}

/** The control of variants that name none: the proxy with no hook. */
export const PROXY_CONTROL: ControlTarget = { name: 'proxy', start: () => startMutant() };

/** The variants grouped by their control (default the plain proxy), in the order first named. */
export function byControl<V extends { control?: ControlTarget }>(
  variants: readonly V[],
): Array<{ control: ControlTarget; variants: V[] }> {
  const groups = new Map<string, { control: ControlTarget; variants: V[] }>();
  for (const v of variants) {
    const control = v.control ?? PROXY_CONTROL;
    const group = groups.get(control.name) ?? { control, variants: [] };
    group.variants.push(v);
    groups.set(control.name, group);
  }
  return [...groups.values()];
}

/** A verdict seen in two control runs: the one that is not a pass, if either (a control must pass both). */
export function mergeVerdicts(runs: ReadonlyArray<Record<string, string>>): Record<string, string> {
  const merged: Record<string, string> = {};
  for (const verdicts of runs) {
    for (const [id, verdict] of Object.entries(verdicts)) {
      if (merged[id] === undefined || merged[id] === 'pass') merged[id] = verdict;
    }
  }
  return merged;
}

/**
 * The union of the variants' --only scopes, run on each control with no hook (the plain proxy, or the
 * faithful target a variant names): every verdict must pass.
 */
export async function runControl(variants: readonly Variant[]): Promise<ControlResult> {
  const started = Date.now();
  const ok = new Set(['pass', 'not-applicable']);
  const unfaithful: string[] = [];
  const problems: string[] = [];
  const runs: Array<Record<string, string>> = [];
  let exitCode: number | null = 0;
  for (const group of byControl(variants)) {
    const only = [...new Set(group.variants.flatMap((v) => v.only ?? [v.breaks]))].sort();
    const run = await runOnTarget(() => group.control.start(), only);
    const where = group.control === PROXY_CONTROL ? '' : ` (control ${group.control.name})`;
    runs.push(run.verdicts);
    if (run.problem !== undefined) problems.push(`${run.problem}${where}`);
    if (exitCode === 0) exitCode = run.exitCode;
    for (const [id, verdict] of Object.entries(run.verdicts)) {
      if (!ok.has(verdict)) unfaithful.push(`${id}: ${verdict}${where}`);
    }
    for (const v of group.variants) {
      if (run.verdicts[v.breaks] !== 'pass' && !unfaithful.some((u) => u.startsWith(`${v.breaks}:`))) {
        unfaithful.push(`${v.breaks}: ${run.verdicts[v.breaks] ?? 'not run'}${where}`);
      }
    }
  }
  return {
    only: [...new Set(variants.flatMap((v) => v.only ?? [v.breaks]))].sort(),
    verdicts: mergeVerdicts(runs),
    unfaithful,
    exitCode,
    durationMs: Date.now() - started,
    ...(problems.length > 0 ? { problem: problems.join('; ') } : {}),
  };
}

export interface MutationRun {
  results: VariantResult[];
  control: ControlResult;
  durationMs: number;
}

/** The control and every variant, `concurrency` harness runs at a time (the control goes first). */
export async function runMutants(
  variants: readonly Variant[],
  { concurrency = 3, onResult, keep }: SetRunOptions<VariantResult> = {},
): Promise<MutationRun> {
  const started = Date.now();
  let control: ControlResult | undefined;
  const jobs: Array<() => Promise<VariantResult | undefined>> = [
    async () => {
      control = await runControl(variants);
      return undefined;
    },
    ...variants.map((v) => async () => {
      const r = await runVariant(v, keep);
      onResult?.(r);
      return r;
    }),
  ];
  const all = await mapInOrder(jobs, concurrency, (job) => job());
  const results = all.filter((r): r is VariantResult => r !== undefined);
  return { results, control: control as ControlResult, durationMs: Date.now() - started };
}
