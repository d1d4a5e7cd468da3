// Runs the conformance suites (suites/**) through vitest's programmatic API with the target injected
// by `provide`, a test-name filter built from the selected requirement ids, and a whole-run budget.
import { fileURLToPath } from 'node:url';
import type { ProvidedRun } from '../provided.ts';
import type { HarnessError } from '../../core/types.ts';
import { Collector, type CollectedTest } from './collector.ts';
import type { ProgressListener } from '../../core/progress.ts';
import { allSuiteFiles, EXCLUSIVE_SUITE_FILES, RUNS_FIRST, RUNS_LAST, suiteFilesFor } from './suite-files.ts';
import { Governor } from '../io/governor.ts';
import { serveGovernor, type GovernorLink } from '../io/governor-link.ts';

export const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const SUITES_CONFIG = fileURLToPath(new URL('../../suites/vitest.config.ts', import.meta.url));
const SUITES_DIR = fileURLToPath(new URL('../../suites/', import.meta.url));

export interface SuitesOutcome {
  tests: CollectedTest[];
  harnessErrors: HarnessError[];
  /** Set when the run budget was spent before the suites finished. */
  interrupted?: string;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/**
 * verifies() names tests `<id> <title>`; vitest matches the pattern against the full name (parent
 * suite names joined by spaces), so an id is matched at the start or after a space, and must be
 * followed by a space so that `2.1/id` does not select `2.1/id-types`.
 */
export function testNamePattern(ids: readonly string[]): string {
  return `(?:^| )(?:${ids.map(escapeRegExp).join('|')}) `;
}

// After the budget, running checks get this long to end (their own budgets bound them) before the
// runner stops waiting for vitest; a late vitest is closed in the background.
const GRACE_MS = 5_000;
// What a paced run keeps of its budget for the rate-limit checks, which wait for a window to reset.
const RESERVE_MS = 75_000;

// Workers the suite files share against a --target: an agent's seconds per turn and its network
// delay are waits, so files overlap them. Four keep the agent's task slots busy on a slow agent (1.5 s
// per turn: 155 s with three, 144 s with four); more only add memory on two cores.
const FIELD_WORKERS = 4;
// Workers against the bundled server: its answers are instant, but a certification still waits on
// spec-bound times (the 5 s receiver timeout of 6.5, the 2 s system timeout of section 3 and 4.1), which
// more workers overlap with the other files while the checks that need the agent idle run in turn
// (`npm run certify` on two cores: 22-23 s in one worker, 18.5-19.7 s in two, 17.5-17.8 s in three;
// BENCHMARKS.md).
const BUNDLED_WORKERS = 3;
const MIN_PARALLEL_FILES = 8;

/** Workers for this run: one for a fixed receiver port, a low --concurrency or a narrow run. */
export function suiteWorkers(provided: ProvidedRun, files: number): number {
  if (provided.webhookListen.port !== 0 || provided.field.concurrency < 8) return 1;
  // A narrow run (--only a few sections) is over before more workers would have loaded.
  if (files < MIN_PARALLEL_FILES) return 1;
  return provided.bundled ? BUNDLED_WORKERS : FIELD_WORKERS;
}

function vitestOptions(provided: ProvidedRun, ids: readonly string[], collector: Collector, workers: number) {
  const parallel = workers > 1 ? { fileParallelism: true, maxWorkers: workers } : {};
  return {
    ...parallel,
    root: PROJECT_ROOT,
    config: SUITES_CONFIG,
    watch: false,
    run: true,
    reporters: [collector],
    testNamePattern: testNamePattern(ids),
    // vitest's own timeout stays above the check budget so verifies() reports overruns itself.
    testTimeout: provided.checkTimeoutMs + 5_000,
    provide: { a2aRun: provided },
  };
}

/**
 * The runs of vitest a run makes: in one worker a single run (path order; the sequencer puts the
 * rate-limit file last). In several, files would overlap in any order, so the file that needs an agent
 * without agent-level configuration gets a run of its own first, and the rate-limit file one of its
 * own after every other file ended (a file still running beside it would wait out the tripped limit,
 * up to 60 s).
 */
export function suitePhases(
  files: readonly string[] | undefined,
  all: () => string[],
  workers: number,
): string[][] {
  if (workers <= 1) return [files === undefined ? [] : [...files]];
  const chosen = files ?? all();
  const first = chosen.filter((f) => RUNS_FIRST.test(f));
  const last = chosen.filter((f) => RUNS_LAST.test(f));
  const rest = chosen.filter((f) => !first.includes(f) && !last.includes(f));
  return [first, rest, last].filter((phase) => phase.length > 0);
}

/**
 * Runs each phase's files in turn in one vitest instance: its workers and their loaded modules carry
 * over from phase to phase (a vitest started per phase cost about 2 s each). Stops between phases once
 * `stopped()` says why.
 */
async function runPhases(
  options: ReturnType<typeof vitestOptions>,
  phases: readonly string[][],
  stopped: () => string | undefined,
): Promise<void> {
  // What startVitest sets before it creates its instance.
  process.env.TEST = 'true';
  process.env.VITEST = 'true';
  process.env.NODE_ENV ??= 'test';
  // Loaded on demand: vitest/node is the heaviest import of the CLI (seconds under tsx).
  const { createVitest } = await import('vitest/node');
  const vitest = await createVitest('test', options);
  try {
    for (const [i, phase] of phases.entries()) {
      if (stopped() !== undefined) return;
      // The first phase starts vitest (reporters' onInit, global setup); `[]` selects every file.
      if (i === 0) await vitest.start(phase);
      else await vitest.runTestFiles(phase);
    }
  } finally {
    await vitest.close();
  }
}

/** Resolves when vitest finished, or GRACE_MS after the budget was spent, whichever comes first. */
function budgeted(
  run: Promise<unknown>,
  budgetMs: number,
  collector: Collector,
  onSpent: () => void,
): Promise<unknown> {
  let budgetTimer: NodeJS.Timeout | undefined;
  let graceTimer: NodeJS.Timeout | undefined;
  const spent = new Promise<void>((resolve) => {
    budgetTimer = setTimeout(() => {
      onSpent();
      collector.cancel();
      graceTimer = setTimeout(() => {
        collector.abandon();
        resolve();
      }, GRACE_MS);
    }, budgetMs);
  });
  return Promise.race([run, spent]).finally(() => {
    clearTimeout(budgetTimer);
    clearTimeout(graceTimer);
  });
}

export async function runSuites(
  provided: ProvidedRun,
  ids: readonly string[],
  budgetMs: number,
  log: (line: string) => void,
  progress?: ProgressListener,
): Promise<SuitesOutcome> {
  const collector = new Collector(PROJECT_ROOT, log, progress);
  // No paced wait may end after this: the run ends by itself within its budget, leaving the
  // rate-limit checks (last, unpaced) and the reports their share.
  provided.field.deadlineAt = Date.now() + budgetMs - Math.min(RESERVE_MS, budgetMs / 10);
  let interrupted: string | undefined;
  const exitCode = process.exitCode;
  const files = suiteFilesFor(PROJECT_ROOT, SUITES_DIR, ids);
  // No suite file spells a selected id: nothing to run, every selected requirement is not-exercised.
  if (files?.length === 0) return { tests: [], harnessErrors: [] };
  const workers = suiteWorkers(provided, files?.length ?? Infinity);
  provided.field.suiteWorkers = workers;
  let link: GovernorLink | undefined;
  try {
    if (workers > 1) {
      link = await serveGovernor(new Governor({ ...provided.field }));
      provided.field.governorUrl = link.url;
      provided.field.exclusiveFiles = [...EXCLUSIVE_SUITE_FILES];
    }
    const phases = suitePhases(files, () => allSuiteFiles(PROJECT_ROOT, SUITES_DIR), workers);
    const run = runPhases(vitestOptions(provided, ids, collector, workers), phases, () => interrupted);
    await budgeted(run, budgetMs, collector, () => {
      interrupted = `the run budget of ${budgetMs} ms was spent before the suites finished`;
    });
  } catch (e) {
    collector.harnessErrors.push({
      message: `vitest failed: ${(e as Error).message}`,
      stack: (e as Error).stack,
    });
  } finally {
    // startVitest sets process.exitCode on test failures; the runner decides the exit code itself.
    process.exitCode = exitCode;
    await link?.close();
  }
  // Results that arrive after this point are ignored: the run is over.
  const outcome: SuitesOutcome = { tests: [...collector.tests], harnessErrors: [...collector.harnessErrors] };
  if (interrupted !== undefined) outcome.interrupted = interrupted;
  return outcome;
}
