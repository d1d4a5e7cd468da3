// A report baseline names the ledger it was graded against (tool.ledger): the baseline outcome puts
// it beside this run's, and the console says so when they differ, since a requirement may have
// changed between the two runs.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { diffBaseline, loadBaseline } from '../../harness/runner/baseline.ts';
import { palette } from '../../reporters/console/ansi.ts';
import { formatRunSummary } from '../../reporters/console/console-summary.ts';
import { reportDocument } from '../../reporters/json-report.ts';
import { LEDGER_VERSION } from '../../requirements/index.ts';
import { validate } from '../../schemas/registry.ts';
import { fixtureRun } from '../reporters/fixtures.ts';

const dir = mkdtempSync(join(tmpdir(), 'a2a-baseline-ledger-'));

function baselineFile(name: string, content: unknown): string {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(content));
  return file;
}

function outcome(file: string) {
  const run = fixtureRun();
  const diff = diffBaseline(loadBaseline(file), run.requirements, 'all');
  return { run: { ...run, baseline: diff }, diff };
}

const ledgerLine = (text: string): string | undefined => text.split('\n').find((l) => l.includes('LEDGER'));
const requirements = [{ id: '2.2/response-id-equals-request-id', verdict: 'fail' }];

describe('the baseline ledger', () => {
  it('puts a report baseline ledger beside this run, and the console warns when they differ', () => {
    const file = baselineFile('other.json', { tool: { ledger: { hash: 'aaaaaaaaaaaa' } }, requirements });
    const { run, diff } = outcome(file);
    expect(diff.ledger).toEqual({ baseline: 'aaaaaaaaaaaa', current: LEDGER_VERSION.hash });
    expect(validate('report', reportDocument(run))).toEqual({ valid: true });
    expect(ledgerLine(formatRunSummary(run, palette(false), 'normal'))).toContain(
      `graded against ledger aaaaaaaaaaaa, this run against ledger ${LEDGER_VERSION.hash}`,
    );
  });

  it('says nothing when the ledgers match', () => {
    const file = baselineFile('same.json', { tool: { ledger: LEDGER_VERSION }, requirements });
    const { run, diff } = outcome(file);
    expect(diff.ledger).toEqual({ baseline: LEDGER_VERSION.hash, current: LEDGER_VERSION.hash });
    expect(ledgerLine(formatRunSummary(run, palette(false), 'normal'))).toBeUndefined();
  });

  it('names an older report without a ledger as such, and an expected-failures list has none', () => {
    const { run, diff } = outcome(
      baselineFile('old.json', { tool: { name: 'a2a-conformance' }, requirements }),
    );
    expect(diff.ledger).toEqual({ baseline: null, current: LEDGER_VERSION.hash });
    expect(ledgerLine(formatRunSummary(run, palette(false), 'normal'))).toContain('against an older ledger');
    const list = outcome(
      baselineFile('list.json', { expectedFailures: ['2.2/response-id-equals-request-id'] }),
    );
    expect(list.diff.ledger).toBeUndefined();
  });
});
