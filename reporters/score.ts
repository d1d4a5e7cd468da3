// Compliance level and score of a run, computed once here and shown by every reporter (console,
// report.json, JUnit, HTML, Markdown, badge). Only requirements the run selected count, and
// not-exercised and error always count against the target, never as passes.
import type { Level } from '../requirements/types.ts';
import type { LevelSelection, RequirementResult, RunResult, Verdict } from '../harness/types.ts';

export type ComplianceLevel = 'fully-compliant' | 'must-compliant' | 'not-compliant';

export const COMPLIANCE_LABELS: Readonly<Record<ComplianceLevel, string>> = Object.freeze({
  'fully-compliant': 'fully compliant',
  'must-compliant': 'MUST-compliant',
  'not-compliant': 'not compliant',
});

/** The levels a compliance claim speaks about; MAY and INFO are observations and never count. */
export const SCORED_LEVELS = ['MUST', 'SHOULD'] as const satisfies readonly Level[];
export type ScoredLevel = (typeof SCORED_LEVELS)[number];

export interface LevelTally {
  /** Requirements of the level that the run selected. */
  run: number;
  passed: number;
  /** fail (MUST) or warn (SHOULD): the target was seen breaking the requirement. */
  failed: number;
  errored: number;
  notExercised: number;
  notApplicable: number;
  /** The denominator: every selected requirement except not-applicable ones. */
  counted: number;
}

export interface Compliance {
  level: ComplianceLevel;
  label: string;
  /** 100 x passed / counted, rounded down to one decimal (never shows 100 unless all passed); null when nothing counted. */
  score: number | null;
  passed: number;
  counted: number;
  byLevel: Record<ScoredLevel, LevelTally>;
  /** --only narrowed the run: the level holds for the selected requirements only. */
  partial: boolean;
  /** Why the level is not higher (empty when fully compliant). */
  reasons: string[];
}

export function tallyLevel(
  requirements: readonly Pick<RequirementResult, 'level' | 'verdict'>[],
  level: Level,
) {
  const of = requirements.filter((r) => r.level === level);
  const count = (...verdicts: Verdict[]): number => of.filter((r) => verdicts.includes(r.verdict)).length;
  const tally: LevelTally = {
    run: of.length,
    passed: count('pass'),
    failed: count('fail', 'warn'),
    errored: count('error'),
    notExercised: count('not-exercised'),
    notApplicable: count('not-applicable'),
    counted: of.length - count('not-applicable'),
  };
  return tally;
}

function shortfall(level: ScoredLevel, t: LevelTally): string[] {
  const reasons: string[] = [];
  if (t.failed > 0) reasons.push(`${t.failed} ${level} requirement(s) failed`);
  if (t.errored > 0) reasons.push(`${t.errored} ${level} requirement(s) could not be verified (error)`);
  if (t.notExercised > 0) reasons.push(`${t.notExercised} ${level} requirement(s) not exercised`);
  return reasons;
}

/** Every selected requirement of the level passed (or is not applicable), and at least one passed. */
function levelHolds(t: LevelTally): boolean {
  return t.passed > 0 && t.passed === t.counted;
}

export function computeCompliance(
  requirements: readonly Pick<RequirementResult, 'level' | 'verdict'>[],
  options: { level: LevelSelection; only: readonly string[] },
): Compliance {
  const byLevel = { MUST: tallyLevel(requirements, 'MUST'), SHOULD: tallyLevel(requirements, 'SHOULD') };
  const passed = byLevel.MUST.passed + byLevel.SHOULD.passed;
  const counted = byLevel.MUST.counted + byLevel.SHOULD.counted;
  const reasons = [...shortfall('MUST', byLevel.MUST), ...shortfall('SHOULD', byLevel.SHOULD)];
  if (byLevel.MUST.passed === 0 && byLevel.MUST.counted === 0)
    reasons.unshift('no MUST requirement was exercised');
  if (options.level === 'must') reasons.push('SHOULD requirements were not run (--level must)');
  else if (byLevel.SHOULD.run === 0) reasons.push('no SHOULD requirement was selected');
  let level: ComplianceLevel = 'not-compliant';
  if (levelHolds(byLevel.MUST)) {
    const shouldHolds =
      options.level !== 'must' && byLevel.SHOULD.run > 0 && byLevel.SHOULD.passed === byLevel.SHOULD.counted;
    level = shouldHolds ? 'fully-compliant' : 'must-compliant';
  }
  return {
    level,
    label: COMPLIANCE_LABELS[level],
    score: counted === 0 ? null : Math.floor((1000 * passed) / counted) / 10,
    passed,
    counted,
    byLevel,
    partial: options.only.length > 0,
    reasons,
  };
}

export function complianceOf(result: Pick<RunResult, 'requirements' | 'options'>): Compliance {
  return computeCompliance(result.requirements, result.options);
}

/** `MUST-compliant, score 97.5% (partial run)`: the one-line verdict every reporter prints. */
export function verdictLine(c: Compliance): string {
  const score = c.score === null ? 'no score' : `score ${formatScore(c.score)}`;
  return `${c.label}, ${score} (${c.passed}/${c.counted} MUST and SHOULD requirements pass)${c.partial ? ', partial run (--only)' : ''}`;
}

export function formatScore(score: number | null): string {
  return score === null ? 'n/a' : `${score.toFixed(1).replace(/\.0$/, '')}%`;
}
