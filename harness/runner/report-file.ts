// Writes report.json (the RunResult, secrets redacted) and compares a run with a baseline report
// (--baseline): which requirements got worse or better. Other formats live in reporters/.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { redact } from '../io/evidence.ts';
import { ConfigError } from '../options.ts';
import type { BaselineDiff, RequirementResult, RunResult, Verdict } from '../types.ts';

export function writeReport(result: RunResult, outDir: string, secrets: readonly string[]): string {
  const dir = resolve(outDir);
  mkdirSync(dir, { recursive: true });
  const path = join(dir, 'report.json');
  writeFileSync(path, `${JSON.stringify(redact(result, secrets), null, 2)}\n`);
  return path;
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

export function loadBaseline(file: string): Map<string, Verdict> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new ConfigError(`cannot read baseline ${file}: ${(e as Error).message}`);
  }
  const reqs = (parsed as { requirements?: unknown }).requirements;
  if (!Array.isArray(reqs))
    throw new ConfigError(`baseline ${file} is not a report.json (no requirements array)`);
  const verdicts = new Map<string, Verdict>();
  for (const r of reqs as Partial<RequirementResult>[]) {
    if (typeof r.id === 'string' && typeof r.verdict === 'string' && r.verdict in RANK)
      verdicts.set(r.id, r.verdict);
  }
  return verdicts;
}

export function diffBaseline(
  file: string,
  before: Map<string, Verdict>,
  now: readonly RequirementResult[],
): BaselineDiff {
  const diff: BaselineDiff = { file, regressions: [], improvements: [] };
  for (const r of now) {
    const was = before.get(r.id);
    if (was === undefined || RANK[was] === RANK[r.verdict]) continue;
    const entry = { id: r.id, before: was, after: r.verdict };
    if (RANK[r.verdict] > RANK[was]) diff.regressions.push(entry);
    else diff.improvements.push(entry);
  }
  return diff;
}
