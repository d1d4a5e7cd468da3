// Folds check outcomes into one verdict per requirement with the ledger level, counts verdicts and
// picks the exit code. A harness error is never a pass and never a failure of the target.
import type { Level } from '../requirements/types.ts';
import type {
  CheckStatus,
  LevelSelection,
  RequirementResult,
  RunResult,
  RunSummary,
  Verdict,
  VerdictCounts,
} from './types.ts';
import { VERDICTS } from './types.ts';

const FAILED_AT: Record<Level, Verdict> = { MUST: 'fail', SHOULD: 'warn', MAY: 'info', INFO: 'info' };

export interface FoldInput {
  level: Level;
  statuses: readonly CheckStatus[];
  /** A capability the requirement needs is absent from the agent card. */
  capabilityAbsent?: boolean;
}

/**
 * Order of precedence: absent capability; no checks; any fail (graded by level); any error; any
 * pass; all not-applicable; otherwise not-exercised. A definite failure outranks a harness error
 * in another check because it stands on its own evidence; an error outranks passes because the
 * requirement was not fully verified.
 */
export function foldVerdict({ level, statuses, capabilityAbsent = false }: FoldInput): Verdict {
  if (capabilityAbsent) return 'not-applicable';
  if (statuses.length === 0) return 'not-exercised';
  if (statuses.includes('fail')) return FAILED_AT[level];
  if (statuses.includes('error')) return 'error';
  if (statuses.includes('pass')) return 'pass';
  if (statuses.every((s) => s === 'not-applicable')) return 'not-applicable';
  return 'not-exercised';
}

export function emptyCounts(): VerdictCounts {
  return Object.fromEntries(VERDICTS.map((v) => [v, 0])) as VerdictCounts;
}

export function summarize(requirements: readonly Pick<RequirementResult, 'level' | 'verdict'>[]): RunSummary {
  const byVerdict = emptyCounts();
  const byLevel: Record<Level, VerdictCounts> = {
    MUST: emptyCounts(),
    SHOULD: emptyCounts(),
    MAY: emptyCounts(),
    INFO: emptyCounts(),
  };
  for (const r of requirements) {
    byVerdict[r.verdict] += 1;
    byLevel[r.level][r.verdict] += 1;
  }
  return { total: requirements.length, byVerdict, byLevel };
}

/** Levels whose failures decide the exit code: MUST always, SHOULD with `--level should`. */
export function gatingLevels(selection: LevelSelection): ReadonlySet<Level> {
  return new Set<Level>(selection === 'should' ? ['MUST', 'SHOULD'] : ['MUST']);
}

export type ExitDecision = Pick<RunResult, 'exitCode' | 'exitReason'>;

/** The first five ids, and how many more. */
function listed(ids: readonly string[]): string {
  return `${ids.slice(0, 5).join(', ')}${ids.length > 5 ? ` and ${ids.length - 5} more` : ''}`;
}

/**
 * 2 when the run could not be done (probe failed, suites failed to load, budget spent); 1 when a
 * gating requirement failed; 2 when a gating requirement ended in a harness error (not verified);
 * with failOnUnverified, 1 when a MUST requirement was not exercised; 0 otherwise.
 */
export function decideExit(
  requirements: readonly Pick<RequirementResult, 'id' | 'level' | 'verdict'>[],
  selection: LevelSelection,
  couldNotRun: string | null,
  /** --fail-on-unverified: a MUST requirement not exercised exits 1 instead of 0. */
  { failOnUnverified = false }: { failOnUnverified?: boolean } = {},
): ExitDecision {
  if (couldNotRun !== null) return { exitCode: 2, exitReason: `run could not be done: ${couldNotRun}` };
  const gating = gatingLevels(selection);
  const failed = requirements.filter(
    (r) => gating.has(r.level) && (r.verdict === 'fail' || r.verdict === 'warn'),
  );
  if (failed.length > 0) {
    return {
      exitCode: 1,
      exitReason: `${failed.length} requirement(s) failed: ${listed(failed.map((r) => r.id))}`,
    };
  }
  const errored = requirements.filter((r) => gating.has(r.level) && r.verdict === 'error');
  if (errored.length > 0) {
    return {
      exitCode: 2,
      exitReason: `${errored.length} requirement(s) could not be verified (harness error): ${errored
        .slice(0, 5)
        .map((r) => r.id)
        .join(', ')}`,
    };
  }
  const unexercised = requirements.filter((r) => r.level === 'MUST' && r.verdict === 'not-exercised');
  if (failOnUnverified && unexercised.length > 0) {
    return {
      exitCode: 1,
      exitReason: `${unexercised.length} MUST requirement(s) not exercised (--fail-on-unverified): ${listed(unexercised.map((r) => r.id))}`,
    };
  }
  return { exitCode: 0, exitReason: 'no gating requirement failed' };
}
