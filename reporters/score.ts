// Compliance level and score of a run, computed once here and shown by every reporter (console,
// report.json, JUnit, HTML, Markdown, badge). Only requirements the run selected count, and
// not-exercised and error always count against the target, never as passes.
import { normalise } from '../core/describe.ts';
import type { Level } from '../requirements/types.ts';
import type { LevelSelection, RequirementResult, RunResult, Verdict } from '../core/types.ts';
import type {
  ReportCompliance,
  ReportLevelTally,
  ReportUnverifiedGroup,
} from '../schemas/generated/types.ts';

/**
 * From best to worst. `unverified` sits between `not compliant` (a MUST requirement was seen
 * violated) and `MUST-compliant`: no MUST requirement failed, but some could not be verified (not
 * exercised, or a harness error), so the run neither shows a violation nor earns the claim.
 */
export type ComplianceLevel = ReportCompliance['level'];

export const COMPLIANCE_LABELS: Readonly<Record<ComplianceLevel, string>> = Object.freeze({
  'fully-compliant': 'fully compliant',
  'must-compliant': 'MUST-compliant',
  unverified: 'unverified',
  'not-compliant': 'not compliant',
});

/** The levels a compliance claim speaks about; MAY and INFO are observations and never count. */
export const SCORED_LEVELS = ['MUST', 'SHOULD'] as const satisfies readonly Level[];
export type ScoredLevel = (typeof SCORED_LEVELS)[number];

/** One level's requirements by outcome (report.json `compliance.byLevel`). */
export type LevelTally = ReportLevelTally;

/** MUST requirements left unverified for one reason (`unverified` level: why it is not higher). */
export type UnverifiedGroup = ReportUnverifiedGroup;

/**
 * report.json's `compliance`. This version always lists the unverified groups (report.json of older
 * versions may lack them).
 */
export type Compliance = ReportCompliance & Required<Pick<ReportCompliance, 'unverified'>>;

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

type Scored = Pick<RequirementResult, 'level' | 'verdict'> &
  Partial<Pick<RequirementResult, 'id' | 'message' | 'checks'>>;

/** Why a requirement is not-exercised or error: its first such check's message, or its own. */
function whyUnverified(r: Scored): string {
  const check = r.checks?.find((c) => c.status === r.verdict && c.message !== '');
  return (check?.message ?? r.message ?? 'no reason recorded').split('\n')[0]!.trim();
}

/**
 * Reasons many checks give in their own words: grouped under one wording, so a reader sees "12 need
 * the directive contract" rather than twelve sentences. Anything else groups by its own text.
 */
const COMMON_REASONS: readonly { test: RegExp; why: string }[] = [
  {
    test: /directive contract/i,
    why: 'the agent does not honour the a2a:directive contract (docs/directives.md), which brings about the precondition',
  },
  {
    test: /^rate limited\b/i,
    why: 'rate limited: the agent kept answering 429 / -32012 after every wait it asked for',
  },
  {
    test: /^rate budget spent\b/i,
    why: "the run's budget left no room for the rate limit's waits (--budget-ms, --rate or --profile smoke)",
  },
  { test: /^turn budget spent\b/i, why: "the run's agent turns were spent (--max-turns)" },
  { test: /--max-wait\b/i, why: 'the wait it needs is longer than the run allows (--max-wait)' },
  { test: /^not run: /i, why: 'the run could not be done' },
];

export function unverifiedGroups(requirements: readonly Scored[]): UnverifiedGroup[] {
  const groups = new Map<string, UnverifiedGroup & { common?: string }>();
  requirements.forEach((r, i) => {
    if (r.level !== 'MUST' || (r.verdict !== 'not-exercised' && r.verdict !== 'error')) return;
    const why = whyUnverified(r);
    const common = COMMON_REASONS.find((c) => c.test.test(why))?.why;
    const key = `${r.verdict}\u0000${common ?? normalise(why)}`;
    const group = groups.get(key) ?? {
      why,
      verdict: r.verdict,
      requirements: [],
      ...(common ? { common } : {}),
    };
    group.requirements.push(r.id ?? `#${i}`);
    groups.set(key, group);
  });
  // A group of one keeps its own words (more precise); a larger one takes the common wording.
  return [...groups.values()]
    .map(({ common, ...g }) =>
      common !== undefined && g.requirements.length > 1 ? { ...g, why: common } : g,
    )
    .sort((a, b) => b.requirements.length - a.requirements.length);
}

export function computeCompliance(
  requirements: readonly Scored[],
  options: { level: LevelSelection; only: readonly string[]; insecure?: boolean },
): Compliance {
  const byLevel = { MUST: tallyLevel(requirements, 'MUST'), SHOULD: tallyLevel(requirements, 'SHOULD') };
  const passed = byLevel.MUST.passed + byLevel.SHOULD.passed;
  const counted = byLevel.MUST.counted + byLevel.SHOULD.counted;
  const reasons = [...shortfall('MUST', byLevel.MUST), ...shortfall('SHOULD', byLevel.SHOULD)];
  if (byLevel.MUST.passed === 0 && byLevel.MUST.counted === 0)
    reasons.unshift('no MUST requirement was exercised');
  if (options.level === 'must') reasons.push('SHOULD requirements were not run (--level must)');
  else if (byLevel.SHOULD.run === 0) reasons.push('no SHOULD requirement was selected');
  let level: ComplianceLevel = byLevel.MUST.failed > 0 ? 'not-compliant' : 'unverified';
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
    unverified: unverifiedGroups(requirements),
    ...(options.insecure === true ? { insecure: true } : {}),
  };
}

export function complianceOf(result: Pick<RunResult, 'requirements' | 'options'>): Compliance {
  return computeCompliance(result.requirements, result.options);
}

/** `MUST-compliant, score 97.5% (partial run)`: the one-line verdict every reporter prints. */
export function verdictLine(c: Compliance): string {
  const score = c.score === null ? 'no score' : `score ${formatScore(c.score)}`;
  const why = c.level === 'unverified' ? `: ${unverifiedLine(c)}` : '';
  const insecure = c.insecure === true ? ', TLS not verified (--insecure)' : '';
  return `${c.label}, ${score} (${c.passed}/${c.counted} MUST and SHOULD requirements pass)${c.partial ? ', partial run (--only)' : ''}${insecure}${why}`;
}

/** `no MUST requirement failed; 3 MUST requirement(s) not verified (2 not exercised, 1 error)`. */
export function unverifiedLine(c: Compliance): string {
  const t = c.byLevel.MUST;
  if (t.counted === 0) return 'no MUST requirement was exercised';
  const parts = [
    t.notExercised > 0 ? `${t.notExercised} not exercised` : '',
    t.errored > 0 ? `${t.errored} error` : '',
  ].filter((p) => p !== '');
  return `no MUST requirement failed; ${t.notExercised + t.errored} MUST requirement(s) not verified (${parts.join(', ')})`;
}

export function formatScore(score: number | null): string {
  return score === null ? 'n/a' : `${score.toFixed(1).replace(/\.0$/, '')}%`;
}

/** One line per group of unverified MUST requirements: `3 not-exercised: why (a, b and 1 more)`. */
export function unverifiedLines(c: Compliance, maxGroups = 5, maxIds = 3): string[] {
  const lines = c.unverified.slice(0, maxGroups).map((g) => {
    const ids = g.requirements.slice(0, maxIds).join(', ');
    const more = g.requirements.length > maxIds ? ` and ${g.requirements.length - maxIds} more` : '';
    return `${g.requirements.length} ${g.verdict}: ${g.why} (${ids}${more})`;
  });
  const rest = c.unverified.slice(maxGroups).reduce((n, g) => n + g.requirements.length, 0);
  if (rest > 0) lines.push(`${rest} more for ${c.unverified.length - maxGroups} other reason(s)`);
  return lines;
}
