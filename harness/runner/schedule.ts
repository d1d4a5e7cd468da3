// The order the suite files run in, from their own declarations (suiteFile(), harness/check/cost.ts)
// as vitest collected them: never from a file's path or text, so renaming a file changes nothing but
// the tie-break between files of equal rank (path order, stable from run to run).
import type { CheckPlanMeta } from '../check/cost.ts';

/** A collected check: its requirement, title, file (relative, `/`-separated) and declaration. */
export interface PlannedCheck {
  requirementId: string;
  title: string;
  file: string;
  plan?: CheckPlanMeta;
}

/** What the schedule reads of a file: its declaration and whether a check of it needs the agent idle. */
export interface FileSchedule {
  file: string;
  runs?: 'first' | 'last';
  needsIdleAgent: boolean;
  span?: 'request-chain' | 'long';
}

/** One entry per file that has checks, in path order. */
export function fileSchedules(checks: readonly PlannedCheck[]): FileSchedule[] {
  const byFile = new Map<string, FileSchedule>();
  for (const check of checks) {
    const decl = check.plan?.file;
    const entry = byFile.get(check.file) ?? { file: check.file, needsIdleAgent: false };
    if (decl?.runs !== undefined) entry.runs = decl.runs.when;
    if (decl?.span !== undefined) entry.span = decl.span;
    if (check.plan?.needsIdleAgent === true) entry.needsIdleAgent = true;
    byFile.set(check.file, entry);
  }
  return [...byFile.values()].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}

/**
 * When files share several workers, the rank a file starts at (lower first): 0 for a long chain of
 * requests that lets the checks needing the agent idle in between its cases (`span: 'request-chain'`:
 * behind a slow link it is the run's longest), 1 for the files with checks that need the agent idle
 * (they run while the other workers hold short checks, not behind a long one), 2 for the long files
 * (`span: 'long'`: many turns in a row or a spec-bound wait, overlapped by the rest), 3 for the rest.
 */
export function startRank(file: FileSchedule): number {
  if (file.span === 'request-chain') return 0;
  if (file.needsIdleAgent) return 1;
  return file.span === 'long' ? 2 : 3;
}

const position = (f: FileSchedule): number => (f.runs === 'first' ? 0 : f.runs === 'last' ? 2 : 1);

/**
 * The files in the order they start: the ones declared to run first, then the rest (by start rank
 * when they share several workers, else in path order), then the ones declared to run last.
 */
export function fileOrder(
  files: readonly FileSchedule[],
  workers: number,
  /** The plan's order of the rest (harness/runner/plan.ts), when phase 1 does not fit the budget. */
  planned?: readonly string[],
): string[] {
  const at = new Map((planned ?? []).map((f, i) => [f, i]));
  const rank = (f: FileSchedule): number =>
    planned !== undefined ? (at.get(f.file) ?? Infinity) : workers > 1 ? startRank(f) : 0;
  return [...files]
    .sort(
      (a, b) =>
        position(a) - position(b) || rank(a) - rank(b) || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0),
    )
    .map((f) => f.file);
}

/**
 * The runs of vitest a run makes: in one worker a single run (the sequencer keeps fileOrder). In
 * several, files would overlap in any order, so the files declared to run first get a run of their own
 * first (e.g. one that needs an agent no file configured yet), and those declared to run last one of
 * their own after every other file ended (a file still running beside the rate-limit burst would wait
 * out the tripped limit, up to 60 s).
 */
export function suitePhases(
  files: readonly FileSchedule[],
  workers: number,
  planned?: readonly string[],
): string[][] {
  const order = fileOrder(files, workers, planned);
  if (workers <= 1) return order.length === 0 ? [] : [order];
  const when = new Map(files.map((f) => [f.file, f.runs]));
  const first = order.filter((f) => when.get(f) === 'first');
  const last = order.filter((f) => when.get(f) === 'last');
  const rest = order.filter((f) => when.get(f) === undefined);
  return [first, rest, last].filter((phase) => phase.length > 0);
}

/** What the runner provides the sequencer (suites/vitest.config.ts): each file's start position. */
export interface ProvidedSchedule {
  /** Relative, `/`-separated path -> position (lower starts first). */
  order: Record<string, number>;
}

export function providedSchedule(
  files: readonly FileSchedule[],
  workers: number,
  planned?: readonly string[],
): ProvidedSchedule {
  return { order: Object.fromEntries(fileOrder(files, workers, planned).map((f, i) => [f, i])) };
}

declare module 'vitest' {
  export interface ProvidedContext {
    a2aSchedule?: ProvidedSchedule;
  }
}
