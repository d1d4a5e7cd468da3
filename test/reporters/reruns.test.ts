// A check re-run after a transport fault in every report format: report.json (runs, intermittent,
// valid against its schema), junit.xml (Surefire's flakyFailure and rerunFailure), report.html,
// summary.md and the console. The checks are folded by the harness's own verdictOfRuns.
import { describe, expect, it } from 'vitest';
import type { CheckResult } from '../../core/types.ts';
import { verdictOfRuns, type RunFault } from '../../harness/check/reruns.ts';
import { formatSummary } from '../../reporters/console/console-summary.ts';
import { htmlData } from '../../reporters/html/html-data.ts';
import { renderJsonReport } from '../../reporters/json-report.ts';
import { trimEvidence } from '../../harness/runner/trim-evidence.ts';
import { renderJunit } from '../../reporters/junit.ts';
import { renderMarkdown } from '../../reporters/markdown.ts';
import { validate } from '../../schemas/registry.ts';
import { check, fixtureRun, requirement } from './fixtures.ts';

const FAIL_ID = '2.2/response-id-equals-request-id';
const PASS_ID = '2.1/jsonrpc-required';
const reset: RunFault = { kind: 'reset', method: 'message/send', message: 'other side closed' };

function fold(runs: Array<{ result: CheckResult; faults: RunFault[] }>): CheckResult {
  return verdictOfRuns(runs).result;
}

const failed = check(FAIL_ID, 'fail', { field: 'id', expected: 'r1', actual: 'not-your-id' });
const intermittent = fold([
  { result: failed, faults: [reset] },
  { result: check(FAIL_ID, 'pass'), faults: [] },
]);
const flaky = fold([
  { result: check(PASS_ID, 'error', { message: 'no answer from the target' }), faults: [reset] },
  { result: check(PASS_ID, 'pass'), faults: [] },
]);
const run = fixtureRun([requirement(PASS_ID, 'pass', [flaky]), requirement(FAIL_ID, 'fail', [intermittent])]);

describe('re-runs in every report format', () => {
  it('report.json: runs on the check and the intermittent flag, valid against its schema', () => {
    const doc = JSON.parse(renderJsonReport(run)) as typeof run;
    expect(validate('report', doc)).toEqual({ valid: true });
    const [pass, fail] = doc.requirements.map((r) => r.checks[0]!);
    expect(pass).toMatchObject({ status: 'pass', runs: [{ status: 'error' }, { status: 'pass' }] });
    expect(pass?.runs?.[0]?.faults).toEqual([reset]);
    expect(pass?.intermittent).toBeUndefined();
    expect(fail).toMatchObject({ status: 'fail', intermittent: true, expected: 'r1' });
    // Both runs' evidence: the failing run's is the check's own, the passing run's in its record.
    expect(fail?.runs?.map((r) => [r.status, r.decided, r.evidence === undefined])).toEqual([
      ['fail', true, true],
      ['pass', false, false],
    ]);
  });

  it('junit.xml: flakyFailure inside the passing testcase, rerunFailure beside the failure', () => {
    const xml = renderJunit(run);
    const passCase = xml.slice(
      xml.indexOf(`name="${PASS_ID}"`),
      xml.indexOf('</testcase>', xml.indexOf(`name="${PASS_ID}"`)),
    );
    expect(passCase).toContain('<flakyFailure');
    expect(passCase).toContain('reset on message/send: other side closed');
    expect(passCase).not.toContain('<failure');
    const failCase = xml.slice(
      xml.indexOf(`name="${FAIL_ID}"`),
      xml.indexOf('</testcase>', xml.indexOf(`name="${FAIL_ID}"`)),
    );
    expect(failCase).toContain('<failure');
    expect(failCase).toMatch(/<rerunFailure message="intermittent: run 1 proved the violation, run 2 passed/);
    expect(failCase).toContain('type="intermittent"');
  });

  it('report.html: the check says it is intermittent, and its runs in its notes', () => {
    const view = htmlData(run).requirements.find((r) => r.id === FAIL_ID)!.checks[0]!;
    expect(view.message).toContain('intermittent: another run of the check passed');
    expect(view.notes.join('\n')).toContain('the check ran 2 times');
  });

  it('summary.md and the console: the finding marked intermittent, the re-runs counted', () => {
    const md = renderMarkdown(run);
    expect(md).toContain('intermittent: ');
    expect(md).toContain('2 check(s) re-run from scratch after a transport fault (1 intermittent fail(s)');
    const text = formatSummary(run);
    expect(text).toContain('intermittent: run 1 proved the violation, run 2 passed');
    expect(text).toContain('2 check(s) re-run from scratch after a transport fault');
  });

  it("--evidence failing drops the runs' evidence of a passing check, keeps an intermittent fail's", () => {
    const trimmed = trimEvidence(run, 'failing');
    const [pass, fail] = trimmed.requirements.map((r) => r.checks[0]!);
    expect(pass?.runs?.map((r) => r.evidence)).toEqual([undefined, undefined]);
    expect(pass?.runs?.[0]?.faults).toEqual([reset]);
    expect(fail?.runs?.[1]?.evidence).toBeDefined();
  });

  it('says nothing of re-runs when every check ran once', () => {
    const once = fixtureRun([requirement(FAIL_ID, 'fail', [failed])]);
    expect(renderJunit(once)).not.toMatch(/flakyFailure|rerunFailure/);
    expect(renderMarkdown(once)).not.toContain('re-run');
    expect(formatSummary(once)).not.toContain('re-run');
  });
});
