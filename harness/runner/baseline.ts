// --baseline: the failures a run expects (an earlier report.json, or {"expectedFailures": [ids]}).
// A run fails (exit 1) on a failure the baseline does not list and on a listed failure that now
// passes, so a baseline never goes stale; listed failures that still fail are excused.
import { readFileSync } from 'node:fs';
import { hasRequirement, LEDGER_VERSION } from '../../requirements/index.ts';
import { ConfigError } from '../options.ts';
import type { BaselineDiff, LevelSelection, RequirementResult, Verdict } from '../../core/types.ts';
import { decideExit, gatingLevels, type ExitDecision } from '../../core/verdict.ts';

export interface Baseline {
  file: string;
  format: BaselineDiff['format'];
  /** Verdicts of a report baseline; listed ids count as `fail` in an expected-failures file. */
  verdicts: Map<string, Verdict>;
  expectedFailures: Set<string>;
  /** The ledger hash a report baseline names (tool.ledger), null for an older report. */
  ledger?: string | null;
}

// Badness: a move up this scale is a regression.
const RANK: Record<Verdict, number> = {
  pass: 0,
  'not-applicable': 0,
  info: 1,
  'not-exercised': 1,
  warn: 2,
  error: 3,
  fail: 4,
};

/** Verdicts that mean the target was seen breaking a gating-able requirement. */
const FAILED: readonly Verdict[] = ['fail', 'warn'];

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new ConfigError(`cannot read baseline ${file}: ${(e as Error).message}`);
  }
}

function fromExpectedFailures(file: string, list: unknown[]): Baseline {
  const ids = list.map((entry) =>
    typeof entry === 'object' && entry !== null ? (entry as { id?: unknown }).id : entry,
  );
  const bad = ids.filter((id) => typeof id !== 'string' || !hasRequirement(id));
  if (bad.length > 0) {
    throw new ConfigError(
      `baseline ${file}: expectedFailures must list ledger requirement ids (or {"id", "reason"}); unknown: ${bad
        .map((b) => JSON.stringify(b))
        .join(', ')}`,
    );
  }
  const expected = new Set(ids as string[]);
  return {
    file,
    format: 'expected-failures',
    verdicts: new Map([...expected].map((id) => [id, 'fail' as Verdict])),
    expectedFailures: expected,
  };
}

export function loadBaseline(file: string): Baseline {
  const parsed = readJson(file) as { requirements?: unknown; expectedFailures?: unknown } | null;
  if (parsed !== null && Array.isArray(parsed.expectedFailures)) {
    return fromExpectedFailures(file, parsed.expectedFailures);
  }
  if (parsed === null || !Array.isArray(parsed.requirements)) {
    throw new ConfigError(
      `baseline ${file} is neither a report.json (requirements array) nor {"expectedFailures": [ids]}`,
    );
  }
  const verdicts = new Map<string, Verdict>();
  for (const r of parsed.requirements as Partial<RequirementResult>[]) {
    if (typeof r.id === 'string' && typeof r.verdict === 'string' && r.verdict in RANK)
      verdicts.set(r.id, r.verdict);
  }
  const expected = [...verdicts].filter(([, v]) => FAILED.includes(v)).map(([id]) => id);
  const hash = (parsed as { tool?: { ledger?: { hash?: unknown } } }).tool?.ledger?.hash;
  const ledger = typeof hash === 'string' ? hash : null;
  return { file, format: 'report', verdicts, expectedFailures: new Set(expected), ledger };
}

export function diffBaseline(
  baseline: Baseline,
  now: readonly RequirementResult[],
  selection: LevelSelection,
): BaselineDiff {
  const gating = gatingLevels(selection);
  const diff: BaselineDiff = {
    file: baseline.file,
    format: baseline.format,
    expectedFailures: [...baseline.expectedFailures],
    newFailures: [],
    nowPassing: [],
    stillFailing: [],
    regressions: [],
    improvements: [],
  };
  if (baseline.ledger !== undefined)
    diff.ledger = { baseline: baseline.ledger, current: LEDGER_VERSION.hash };
  for (const r of now) {
    const expected = baseline.expectedFailures.has(r.id);
    const failed = FAILED.includes(r.verdict);
    if (expected && failed) diff.stillFailing.push(r.id);
    if (expected && r.verdict === 'pass') diff.nowPassing.push(r.id);
    if (!expected && failed && gating.has(r.level)) diff.newFailures.push({ id: r.id, verdict: r.verdict });
    const was = baseline.verdicts.get(r.id);
    if (was === undefined || RANK[was] === RANK[r.verdict]) continue;
    const entry = { id: r.id, before: was, after: r.verdict };
    if (RANK[r.verdict] > RANK[was]) diff.regressions.push(entry);
    else diff.improvements.push(entry);
  }
  return diff;
}

function listIds(ids: readonly string[]): string {
  return ids.length > 5 ? `${ids.slice(0, 5).join(', ')} and ${ids.length - 5} more` : ids.join(', ');
}

/**
 * decideExit() with the baseline's expected failures excused. A run that could not be done still
 * exits 2; a new failure or a listed failure that now passes exits 1.
 */
export function decideExitWithBaseline(
  requirements: readonly RequirementResult[],
  selection: LevelSelection,
  couldNotRun: string | null,
  diff: BaselineDiff,
  exitOptions: { failOnUnverified?: boolean } = {},
): ExitDecision {
  if (couldNotRun !== null) return decideExit(requirements, selection, couldNotRun);
  const excused = new Set(diff.stillFailing);
  const rest = decideExit(
    requirements.filter((r) => !excused.has(r.id)),
    selection,
    null,
    exitOptions,
  );
  const reasons: string[] = [];
  if (diff.newFailures.length > 0) {
    const ids = diff.newFailures.map((f) => f.id);
    reasons.push(`${ids.length} new failure(s) not in baseline ${diff.file}: ${listIds(ids)}`);
  }
  if (diff.nowPassing.length > 0) {
    reasons.push(
      `${diff.nowPassing.length} expected failure(s) of baseline ${diff.file} now pass (remove them): ${listIds(diff.nowPassing)}`,
    );
  }
  if (reasons.length > 0) return { exitCode: 1, exitReason: reasons.join('; ') };
  if (rest.exitCode !== 0) return rest;
  return {
    exitCode: 0,
    exitReason: `no new failure; ${diff.stillFailing.length} expected failure(s) of baseline ${diff.file} still fail`,
  };
}
