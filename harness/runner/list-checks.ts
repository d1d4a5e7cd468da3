// Lists the registered checks without touching a target: vitest collects the suites (their
// verifies() calls register tests named `<id> <title>`) with a placeholder target provided.
import { relative } from 'node:path';
import type { Vitest } from 'vitest/node';
import { FULL_SPEED, type ProvidedRun } from '../provided.ts';
import type { HarnessError } from '../../core/types.ts';
import { splitTestName } from './assemble.ts';
import { PROJECT_ROOT, SUITES_CONFIG } from './paths.ts';
import type { PlannedCheck } from './schedule.ts';

/** A registered check, with what it declares it costs and needs (absent only on a file that failed to load). */
export type ListedCheck = PlannedCheck;

// Collection only registers tests; nothing is sent. The placeholder also keeps the suites' global
// setup from starting the bundled reference server.
const PLACEHOLDER: ProvidedRun = {
  baseUrl: 'http://127.0.0.1:9',
  agentId: 'list-only',
  auth: {},
  card: null,
  timeoutMs: 1,
  checkTimeoutMs: 1,
  seed: 0,
  runs: 1,
  webhookListen: { host: '127.0.0.1', port: 0 },
  bundled: false,
  field: FULL_SPEED,
};

export interface Listing {
  checks: ListedCheck[];
  errors: HarnessError[];
}

let cached: Promise<Listing> | undefined;

/** The suites do not change while a process runs: one collection serves every list/explain. */
export function listChecks(): Promise<Listing> {
  cached ??= collectChecks();
  return cached;
}

async function collectChecks(): Promise<Listing> {
  const exitCode = process.exitCode;
  const { createVitest } = await import('vitest/node');
  const vitest = await createVitest('test', {
    root: PROJECT_ROOT,
    config: SUITES_CONFIG,
    watch: false,
    reporters: [],
    provide: { a2aRun: PLACEHOLDER },
  });
  try {
    return listingOf(await vitest.collect());
  } finally {
    await vitest.close();
    process.exitCode = exitCode;
  }
}

/** The checks and load errors of a vitest collection (vitest.collect()) of the suites. */
export function listingOf(collected: Awaited<ReturnType<Vitest['collect']>>): Listing {
  const checks: ListedCheck[] = [];
  const errors: HarnessError[] = collected.unhandledErrors.map((e) => ({
    message: String((e as Error).message ?? e),
  }));
  for (const mod of collected.testModules) {
    const file = relative(PROJECT_ROOT, mod.moduleId).split('\\').join('/');
    for (const e of mod.errors()) errors.push({ message: e.message, file });
    for (const test of mod.children.allTests()) {
      const { id, title } = splitTestName(test.name);
      const plan = test.meta().a2aPlan;
      checks.push(
        plan === undefined ? { requirementId: id, title, file } : { requirementId: id, title, file, plan },
      );
    }
  }
  return { checks, errors };
}
