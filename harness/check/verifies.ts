// verifies(id, title, fn): binds a check to a ledger requirement and registers it as a vitest test
// titled `<id> <title>`. The CheckResult travels to the runner in `task.meta.a2a` (see runner/collector.ts).
// suiteFile({...}) at the top of a suite file declares what its checks cost and need (check/cost.ts);
// each test carries its resolved declaration in `task.meta.a2aPlan` from collection on.
import { inject, recordArtifact, test, TestRunner, type TestArtifactBase, type TestContext } from 'vitest';

import { getRequirement } from '../../requirements/index.ts';
import type { Requirement } from '../../requirements/types.ts';
import { remoteGovernor } from './run-governor.ts';
import {
  resolveCheckPlan,
  validateFileDeclaration,
  validateSampleCost,
  type CheckCost,
  type CheckDeclaration,
  type CheckPlanMeta,
  type SuiteFileDeclaration,
} from './cost.ts';
import { runCheck, type CheckFn } from './run-check.ts';
import type { WebhookSettlement } from './expectations.ts';
import { holdFileLock, type FileHold } from '../io/links/file-hold.ts';
import { TURN_BUDGET_MULTIPLE } from '../io/target/agent-turn.ts';
import { newTally, type TrafficTally } from '../io/traffic/tallies.ts';
import type { ProvidedRun } from '../provided.ts';
import type { CheckResult } from '../../core/types.ts';

declare module 'vitest' {
  interface TaskMeta {
    a2a?: CheckResult;
    /** The check's requests, turns and waits (summed into RunResult.traffic by the runner). */
    a2aTraffic?: TrafficTally;
    /** The check's declared cost and needs, with its file's (set at registration). */
    a2aPlan?: CheckPlanMeta;
    /** On the file task: the file's suiteFile() declaration. */
    a2aFile?: SuiteFileDeclaration;
    /** The check's webhook expectations still open, and the delivery lags it saw (settled by the runner). */
    a2aWebhooks?: WebhookSettlement;
  }
}

export interface VerifiesOptions extends CheckDeclaration {
  /** Budget of this check instead of the run's checkTimeoutMs. */
  timeoutMs?: number;
  /**
   * Run beside the other concurrent checks of the same file (vitest `test.concurrent`). For checks
   * that mostly wait (retry schedules, timeouts, delays) and touch no per-agent limit. Default: the
   * file's suiteFile({ concurrent }).
   */
  concurrent?: boolean;
  /**
   * The check fills or overflows the agent's limits.concurrentTasks on purpose (C-21: queued tasks,
   * slot holders): its task-creating requests neither wait for one of the run's task slots nor hold
   * one. Every other check's turns stay within the card's limit (harness/io/traffic/governor.ts).
   */
  overflowsTasks?: boolean;
}

// vitest's own timeout stays above the check budget so that verifies() reports the overrun itself.
const VITEST_MARGIN_MS = 5_000;
const FALLBACK_BUDGET_MS = 60_000;

function lookup(id: string): Requirement {
  try {
    return getRequirement(id);
  } catch (e) {
    throw new Error(
      `verifies(): unknown requirement id '${id}' (not in the ledger, requirements/): ${(e as Error).message}`,
    );
  }
}

function providedRun(): ProvidedRun | undefined {
  try {
    return inject('a2aRun');
  } catch {
    return undefined;
  }
}

/** Mirrors the check's status as the vitest test state, so plain `vitest run` reads sensibly too. */
function settle(ctx: TestContext, result: CheckResult): void {
  if (result.status === 'pass') return;
  if (result.status === 'not-applicable' || result.status === 'not-exercised') {
    ctx.skip(`${result.status}: ${result.message}`);
    return;
  }
  const error = new Error(`${result.status === 'error' ? 'HARNESS ERROR' : 'FAIL'}: ${result.message}`);
  throw error;
}

/** No file lock (one worker, or a check that starts after the run's budget). */
const NO_HOLD: FileHold = { yield: async () => undefined, release: async () => undefined };

/**
 * With suite files in several workers, a test holds the run's file lock: shared, or exclusive when it
 * needs the agent idle (it fills or overflows the agent's task slots, C-21, or its file declares
 * `agent: 'alone'`: it holds other per-agent limits). Its file's other checks run beside the rest.
 */
async function fileLock(run: ProvidedRun, file: string, needsIdle: boolean): Promise<FileHold> {
  const link = remoteGovernor(run);
  if (link === undefined) return NO_HOLD;
  // A check still waiting for the lock when the run's budget ends waits no more: it then ends at once
  // not-exercised (runCheck), as one that starts after the budget does.
  const endsAt = run.field.budget?.endsAt;
  const signal = endsAt === undefined ? undefined : AbortSignal.timeout(Math.max(0, endsAt - Date.now()));
  try {
    return await holdFileLock(link.link, needsIdle ? file.split('\\').join('/') : null, signal);
  } catch (e) {
    if (signal?.aborted === true) return NO_HOLD;
    throw e;
  }
}

/** The file task vitest is collecting, when it is collecting one. */
function collectingFile(): { name: string; meta: { a2aFile?: SuiteFileDeclaration } } | undefined {
  try {
    return (
      TestRunner.getCurrentSuite() as { file?: { name: string; meta: { a2aFile?: SuiteFileDeclaration } } }
    ).file;
  } catch {
    return undefined;
  }
}

/** Each collecting file's samples by name, as its sharedSample()/declareSample() calls register them. */
const fileSamples = new WeakMap<object, Record<string, CheckCost>>();

/**
 * Declares what the checks of the suite file that calls it cost and need (harness/check/cost.ts):
 * call it once at the top of the file, before its first verifies(). The runner orders and plans the
 * run from these declarations; a file without one does not load. Its shared samples are not named
 * here: each declares its own name and cost (declareSample, sharedSample).
 */
export function suiteFile(declaration: Omit<SuiteFileDeclaration, 'samples'>): void {
  if (declaration !== null && typeof declaration === 'object' && 'samples' in declaration)
    throw new Error(
      'suiteFile(): a file does not list its samples; each declares its own name and cost (sharedSample(name, cost, make) or declareSample(name, cost))',
    );
  validateFileDeclaration(declaration);
  const file = collectingFile();
  if (file === undefined) throw new Error('suiteFile(): call it at the top of a suite file');
  if (file.meta.a2aFile !== undefined) throw new Error(`suiteFile(): ${file.name} declares itself twice`);
  const samples = fileSamples.get(file);
  file.meta.a2aFile = samples === undefined ? { ...declaration } : { ...declaration, samples };
}

/**
 * Declares a sample of the suite file being collected: made once per file by the first check that
 * reads it, at `cost` (charged once, to the file). A check that reads it names it in
 * verifies(..., { samples: [name] }), below this call. Returns `name`. A name declared twice in one
 * file throws. Outside collection (a sample made by a support module's own test) it records nothing.
 */
export function declareSample(name: string, cost: CheckCost): string {
  if (typeof name !== 'string' || name.trim() === '') throw new Error('a shared sample needs a name');
  validateSampleCost(name, cost);
  const file = collectingFile();
  if (file === undefined) return name;
  let samples = fileSamples.get(file);
  if (samples === undefined) {
    samples = {};
    fileSamples.set(file, samples);
  }
  if (samples[name] !== undefined)
    throw new Error(`sample '${name}' in ${file.name}: the file declares a sample of that name twice`);
  samples[name] = cost;
  // Imported modules register before the file's suiteFile(); a sample declared after it joins it here.
  const declared = file.meta.a2aFile;
  if (declared !== undefined && declared.samples === undefined) declared.samples = samples;
  return name;
}

/** Whether a check runs beside the file's other concurrent checks: its own say, else its file's. */
export function runsConcurrently(file: SuiteFileDeclaration | undefined, options: VerifiesOptions): boolean {
  return options.concurrent ?? file?.concurrent === true;
}

/** The check's declaration against its file's; throws when the file declares nothing. */
function planOf(id: string, options: VerifiesOptions): CheckPlanMeta {
  const file = collectingFile();
  const declared = file?.meta.a2aFile;
  if (declared === undefined) {
    throw new Error(
      `verifies(): check of '${id}' in ${file?.name ?? 'a file vitest is not collecting'}: its suite file declares nothing; call suiteFile({ cost, ... }) at its top (harness/check/cost.ts)`,
    );
  }
  return resolveCheckPlan(declared, options, options.overflowsTasks === true);
}

declare module 'vitest' {
  interface TestArtifactRegistry {
    'a2a:waiting-on-target': TestArtifactBase & { type: 'a2a:waiting-on-target' };
  }
}

/**
 * Makes sure the runner has heard that this check is running. vitest sends a worker's test events in
 * batches at most every 100 ms, and a batch whose timer fires a little early is kept until the next
 * event: a check that hangs on the target makes none, so the runner never heard it start, could not
 * name it, and ended a run whose target stopped answering as one that did (exit 0, not 2). Recording
 * an artifact sends every batch held first; the runner ignores the artifact itself.
 */
async function tellRunning(ctx: TestContext): Promise<void> {
  try {
    await recordArtifact(ctx.task, { type: 'a2a:waiting-on-target' });
  } catch {
    // A worker that cannot tell any more is ending: the runner's grace decides then.
  }
}

export function verifies(id: string, title: string, fn: CheckFn, options: VerifiesOptions = {}): void {
  const requirement = lookup(id);
  if (title.trim() === '') throw new Error(`verifies(): check of '${id}' needs a title`);
  const plan = planOf(id, options);
  const provided = providedRun();
  const budget = options.timeoutMs ?? provided?.checkTimeoutMs ?? FALLBACK_BUDGET_MS;
  const register = runsConcurrently(collectingFile()?.meta.a2aFile, options) ? test.concurrent : test;
  // The agent's time extends a check's budget (run-check.ts: its pace, its turns, a sample another
  // check makes), up to the run's own budget; paced, or waiting for the file lock of another worker's
  // file, up to it too. After the run's budget the runner gives a check under way its grace (the
  // agent's turn included, runner/run-end.ts) and ends it itself: vitest's timeout reaches past that,
  // whenever the check starts, so that a check waiting on the agent is never cut by vitest.
  const waits = provided?.field.pace != null || provided?.field.governorUrl !== undefined;
  const deadline = provided?.field.budget?.endsAt ?? (waits ? provided?.field.deadlineAt : undefined);
  const turns = TURN_BUDGET_MULTIPLE * (provided?.field.probedTurnMs ?? 0);
  // A check may also plan a long wait (--max-wait) on top of its budget.
  const timeout =
    budget +
    VITEST_MARGIN_MS +
    (deadline === undefined ? 0 : Math.max(0, deadline - Date.now()) + turns) +
    (provided?.field.maxWaitMs ?? 0);
  register(`${id} ${title}`, { timeout, meta: { a2aPlan: plan } }, async (ctx) => {
    const run = providedRun();
    if (run === undefined) {
      throw new Error(
        'no target provided: run the suites with a2a-conformance or --config suites/vitest.config.ts',
      );
    }
    const overflowsTasks = options.overflowsTasks === true;
    // After the run's budget a check ends at once not-exercised (runCheck): it waits for no lock.
    const ended = run.field.budget !== undefined && Date.now() >= run.field.budget.endsAt;
    const hold = ended ? NO_HOLD : await fileLock(run, ctx.task.file.filepath, plan.needsIdleAgent);
    const spec = {
      requirement,
      title,
      fn,
      file: ctx.task.file.name,
      timeoutMs: budget,
      overflowsTasks,
      betweenSteps: () => hold.yield(),
      outlivesRun: () => void tellRunning(ctx),
    };
    const tally = newTally();
    const webhooks: WebhookSettlement = { expectations: [], lagsMs: [] };
    let result: CheckResult;
    try {
      result = await runCheck(spec, run, tally, webhooks);
    } finally {
      await hold.release();
    }
    ctx.task.meta.a2a = result;
    ctx.task.meta.a2aTraffic = tally;
    if (webhooks.expectations.length > 0 || webhooks.lagsMs.length > 0) ctx.task.meta.a2aWebhooks = webhooks;
    settle(ctx, result);
  });
}
