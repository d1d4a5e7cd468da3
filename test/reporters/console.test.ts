// The console reporter: live progress (sections, marks, counts, elapsed time), the summary table by
// section and level, each finding with expected vs actual and its reproduce command; quiet and
// verbose modes; colour only on a TTY without NO_COLOR; secrets never printed.
import { describe, expect, it } from 'vitest';
import { useColour } from '../../reporters/console/ansi.ts';
import { ConsoleReporter, type ConsoleOptions } from '../../reporters/console/console-reporter.ts';
import { formatSummary } from '../../harness/index.ts';
import { check, fixtureRun, startAndPlan } from './fixtures.ts';

const ESC = '\u001b[';

function reporter(options: Partial<ConsoleOptions> = {}) {
  let out = '';
  let t = 0;
  const r = new ConsoleReporter({ write: (s) => void (out += s), now: () => t, ...options });
  return { r, out: () => out, advance: (ms: number) => void (t += ms) };
}

describe('colour', () => {
  it('is used only on a TTY, without NO_COLOR, and not on a dumb terminal', () => {
    expect(useColour(false, {})).toBe(false);
    expect(useColour(true, {})).toBe(true);
    expect(useColour(true, { NO_COLOR: '1' })).toBe(false);
    expect(useColour(true, { NO_COLOR: '' })).toBe(true);
    expect(useColour(true, { TERM: 'dumb' })).toBe(false);
  });

  it('colours the summary only when enabled', () => {
    const plain = reporter();
    plain.r.summary(fixtureRun());
    expect(plain.out()).not.toContain(ESC);
    const coloured = reporter({ colour: true });
    coloured.r.summary(fixtureRun());
    expect(coloured.out()).toContain(`${ESC}31mFAIL `);
  });
});

describe('formatSummary (the API)', () => {
  it('is the summary the CLI prints, without colour, in the mode asked', () => {
    const run = fixtureRun();
    const cli = reporter();
    cli.r.summary(run);
    const text = formatSummary(run);
    expect(text).not.toContain(ESC);
    expect(cli.out()).toContain(text);
    expect(text).toContain(`exit ${run.exitCode}: ${run.exitReason}`);
    expect(formatSummary(run, 'quiet').length).toBeLessThan(text.length);
  });
});

describe('progress', () => {
  const file = 'suites/02-01-envelopes/envelope.test.ts';

  it('prints each suite file with its sections, marks, counts, running totals and elapsed time', () => {
    const { r, out, advance } = reporter();
    r.progress({ kind: 'check', file, check: check('2.1/jsonrpc-required', 'pass') });
    r.progress({ kind: 'check', file, check: check('2.2/response-id-equals-request-id', 'fail') });
    advance(1500);
    r.progress({ kind: 'file', file, statuses: ['pass', 'fail'], suiteErrors: 0 });
    expect(out()).toBe(`[   1.5s] 2.1 2.2    ${file} .F  1 pass, 1 fail | total 2: 1 pass, 1 fail\n`);
  });

  it('prints every check in verbose mode, and nothing in quiet mode', () => {
    const verbose = reporter({ mode: 'verbose' });
    verbose.r.progress({ kind: 'check', file, check: check('2.1/jsonrpc-required', 'pass') });
    expect(verbose.out()).toContain('PASS           2.1/jsonrpc-required  jsonrpc-required check (12 ms)');
    const quiet = reporter({ mode: 'quiet' });
    quiet.r.line('a2a-conformance 0.1.0: http://127.0.0.1:1 agent a');
    quiet.r.progress({ kind: 'check', file, check: check('2.1/jsonrpc-required', 'pass') });
    quiet.r.progress({ kind: 'file', file, statuses: ['pass'], suiteErrors: 0 });
    expect(quiet.out()).toBe('');
  });

  it('flags a suite file that failed to load', () => {
    const { r, out } = reporter();
    r.progress({ kind: 'file', file, statuses: [], suiteErrors: 1 });
    expect(out()).toContain('(suite error)');
  });
});

describe('summary', () => {
  it('has a table by section and by level, then each finding with its field, expected, actual, reproduce and curl', () => {
    const { r, out } = reporter();
    r.summary(fixtureRun());
    const text = out();
    expect(text).toContain('Summary by section');
    expect(text).toMatch(/ {2}2\.1 JSON-RPC request envelope \(all methods\) +1 +0 +1 +0 +0 +0 +0\n/);
    expect(text).toMatch(/ {2}all sections +3 +1 +1 +1 +1 +1 +1\n/);
    expect(text).toMatch(/By level\n {2}MUST +2 +1 +0 +0 +1 +1 +1\n/);
    expect(text).toContain('FAIL  2.2/response-id-equals-request-id (MUST)');
    expect(text).toContain('        id: expected "r1", actual "not-your-id"\n');
    expect(text).toContain('reproduce: npx a2a-conformance run --only 2.2/response-id-equals-request-id');
    expect(text).toContain("        curl: curl -sS -X POST 'http://127.0.0.1:8080/api/v1/a2a/agent-1'\n");
    expect(text).toContain('WARN  2.1/id-required (SHOULD)');
    expect(text).toContain('ERROR 7/method-not-found-code (MUST)');
    expect(text).not.toContain('INFO  1/sync-or-streaming-calls');
    expect(text).toMatch(/not compliant, score 42\.8% \(3\/7 MUST and SHOULD requirements pass\)\nexit 1: /);
  });

  it('lists fail and error in one line each in quiet mode, then the verdict and exit lines', () => {
    const { r, out } = reporter({ mode: 'quiet' });
    r.summary(fixtureRun());
    const lines = out().trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toBe(
      'FAIL 2.2/response-id-equals-request-id  response-id-equals-request-id check: id: expected "r1", actual "not-your-id"',
    );
    expect(lines[1]).toMatch(/^ERROR 7\/method-not-found-code/);
    expect(lines[3]).toMatch(/^exit 1: /);
  });

  it('puts a long comparison on three lines, under the field it read', () => {
    const run = fixtureRun();
    const failed = run.requirements.find((q) => q.id === '2.2/response-id-equals-request-id')!.checks[0]!;
    failed.field = 'result.status.message';
    failed.expected = 'x'.repeat(120);
    const { r, out } = reporter();
    r.summary(run);
    expect(out()).toContain(
      `        result.status.message\n        expected: "${'x'.repeat(120)}"\n        actual:   "not-your-id"\n`,
    );
  });

  it('lists info and not-exercised requirements, and the curl line, in verbose mode', () => {
    const { r, out } = reporter({ mode: 'verbose' });
    r.summary(fixtureRun());
    expect(out()).toContain('INFO  1/sync-or-streaming-calls (INFO)');
    expect(out()).toContain('NOT-EXERCISED 1/json-rpc-over-http (MUST)');
    expect(out()).toContain("curl: curl -sS -X POST 'http://127.0.0.1:8080/api/v1/a2a/agent-1'");
  });

  it('prints the baseline outcome', () => {
    const run = fixtureRun();
    run.baseline = {
      ...{
        file: 'b.json',
        format: 'expected-failures',
        expectedFailures: ['2.2/response-id-equals-request-id'],
      },
      ...{
        newFailures: [],
        nowPassing: [],
        stillFailing: ['2.2/response-id-equals-request-id'],
        regressions: [],
        improvements: [],
      },
    };
    const { r, out } = reporter();
    r.summary(run);
    expect(out()).toContain('FAIL  2.2/response-id-equals-request-id (MUST) (expected failure, baseline)');
    expect(out()).toContain(
      'baseline b.json: 1 expected failure(s), 1 still fail, 0 now pass, 0 new failure(s)',
    );
  });

  it('never prints a secret, whichever line carries it', () => {
    const { r, out } = reporter({ secrets: ['s3cr3t-key'] });
    r.line('target with s3cr3t-key');
    const run = fixtureRun();
    run.requirements[1]!.checks[0]!.actual = 'leaked s3cr3t-key';
    r.summary(run);
    expect(out()).not.toContain('s3cr3t-key');
    expect(out()).toContain('[redacted]');
  });
});

describe('the status line', () => {
  const [start, plan] = startAndPlan(
    [
      ['1/a', 'MUST', 'one', 10_000],
      ['1/b', 'MUST', 'two', 10_000],
      ['1/c', 'SHOULD', 'three', 20_000],
    ],
    30,
  );

  it('says checks done, requests, MUST decided and the time left once the console was silent long enough', () => {
    const { r, out, advance } = reporter({ statusEveryMs: 5_000 });
    r.progress(start);
    r.progress(plan);
    advance(4_000);
    r.tick();
    expect(out()).toBe('');
    advance(1_000);
    r.tick();
    // Nothing ended yet: the plan's estimate less the time spent.
    expect(out()).toBe('[   5.0s] status: 0/3 checks · 0 requests · MUST 0/2 decided · about 35 s left\n');
    // The run keeps a slower pace than planned: 20 s for 10 s of plan.
    r.progress({ kind: 'check', file: 'f', check: { ...check('1/a', 'pass'), title: 'one' }, requests: 12 });
    advance(15_000);
    r.tick();
    const last = out().trimEnd().split('\n').at(-1);
    // A quarter done: 3/4 of what the plan leaves (20 s) and 1/4 of the 30 s of plan left at that pace (60 s).
    expect(last).toBe('[  20.0s] status: 1/3 checks · 12 requests · MUST 1/2 decided · about 30 s left');
  });

  it('waits for silence: a progress line resets it, and quiet mode never prints one', () => {
    const { r, out, advance } = reporter({ statusEveryMs: 5_000 });
    r.progress(start);
    r.progress(plan);
    advance(4_000);
    r.progress({ kind: 'file', file: 'f', statuses: [], suiteErrors: 0 });
    advance(4_000);
    r.tick();
    expect(out()).not.toContain('status:');
    const quiet = reporter({ statusEveryMs: 5_000, mode: 'quiet' });
    quiet.advance(60_000);
    quiet.r.tick();
    expect(quiet.out()).toBe('');
  });

  it('says the run is still probing before the plan', () => {
    const { r, out, advance } = reporter({ statusEveryMs: 30_000 });
    advance(30_000);
    r.tick();
    expect(out()).toContain('status: probing the target and collecting the checks');
  });
});
