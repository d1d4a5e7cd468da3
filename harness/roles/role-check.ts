// One check of the `receiver` and `client` modes: a function that records assertions (the suites'
// CheckRecorder) and the wire exchanges it saw, turned into the same CheckResult the suites produce,
// so every reporter, baseline and exit code works unchanged. Spec 6.4 and 6.5 (receiver), 2 to 7 (client).
import { performance } from 'node:perf_hooks';
import { CheckRecorder } from '../check/recorder.ts';
import type { Exchange } from '../../core/evidence.ts';
import { curlFor } from '../reproduce.ts';
import type { CheckResult } from '../../core/types.ts';

export type RoleCheckFn = (rec: CheckRecorder, evidence: Exchange[]) => void | Promise<void>;

export interface RoleCheckSpec {
  requirementId: string;
  title: string;
  /** The command that reproduces this check (the mode's own command line). */
  reproduce: string;
  fn: RoleCheckFn;
}

/** Runs one role check; an exception is a harness error of that check, never a failure of the target. */
export async function runRoleCheck(spec: RoleCheckSpec): Promise<CheckResult> {
  const rec = new CheckRecorder();
  const exchanges: Exchange[] = [];
  const started = performance.now();
  let thrown: unknown;
  try {
    await spec.fn(rec, exchanges);
  } catch (e) {
    thrown = e;
  }
  const outcome = rec.finish(thrown);
  const curl = curlFor(exchanges[0]);
  return {
    requirementId: spec.requirementId,
    title: spec.title,
    ...outcome,
    assertions: rec.assertions,
    notes: rec.notes,
    evidence: { exchanges, streams: [], deliveries: [] },
    durationMs: Math.round(performance.now() - started),
    reproduce: curl === undefined ? { command: spec.reproduce } : { command: spec.reproduce, curl },
  };
}
