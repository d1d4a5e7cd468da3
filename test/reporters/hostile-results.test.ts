// No step after the checks can lose a run: root-cause analysis, dialect detection and every reporter
// (report.json, junit.xml, report.html, summary.md, badge.svg, console.txt, report.har, the console)
// are fed hostile and degenerate results: exchanges with no response, no request, no method, no body;
// odd JSON; thousands of failures; an empty run; huge strings and characters XML cannot hold. Each
// must render; a file that cannot be written is named and every other one is still written.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLValidator } from 'fast-xml-parser';
import { afterAll, describe, expect, it } from 'vitest';
import type { Exchange } from '../../core/evidence.ts';
import type { CheckResult, RequirementResult, RunResult } from '../../core/types.ts';
import { consoleFor } from '../../harness/cli/shared.ts';
import { analyseRun, analyseRunSafely } from '../../harness/analysis/root-causes.ts';
import { exchangeLine } from '../../harness/analysis/findings.ts';
import { palette } from '../../reporters/console/ansi.ts';
import { ConsoleReporter } from '../../reporters/console/console-reporter.ts';
import { formatRunSummary } from '../../reporters/console/console-summary.ts';
import { REPORT_FILES, writeReports } from '../../reporters/index.ts';
import { REQUIREMENTS } from '../../requirements/index.ts';
import { validate } from '../../schemas/registry.ts';
import { check, exchange, fixtureRun, requirement } from './fixtures.ts';
import { REPORT_FILE_NAMES } from '../support/report-files.ts';

const dir = mkdtempSync(join(tmpdir(), 'a2a-hostile-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const HUGE = 'x'.repeat(2_000_000);
// Characters XML 1.0 cannot carry, a lone surrogate, markup and a script end tag.
const NASTY = 'nul\u0000 bell\u0007 fffe\uFFFE lone\uD800 </script><b>&amp;"\'`${x}';

/** Exchanges a broken or hostile target, or a harness bug, can leave in the evidence. */
function degenerateExchanges(): Exchange[] {
  const base = exchange('ok', { jsonrpc: '2.0', id: 1, method: 'tasks/get' }, { jsonrpc: '2.0', id: 1 }, 500);
  const noResponse: Exchange = { ...base, id: 'no-response' };
  delete noResponse.response;
  const noResponseNoError: Exchange = { ...noResponse, id: 'no-response-no-error' };
  delete noResponseNoError.error;
  const noBody = { ...base, id: 'no-body', response: { ...base.response!, body: undefined } };
  const noMethod = {
    ...base,
    id: 'no-method',
    request: { ...base.request, json: undefined, body: undefined },
  };
  const noRequest = { ...base, id: 'no-request', request: undefined };
  const badUrl = { ...base, id: 'bad-url', request: { ...base.request, url: '::not a url', json: [1, 2] } };
  const oddJson = (id: string, json: unknown): Exchange => ({
    ...base,
    id,
    response: { ...base.response!, json },
  });
  const hugeError = oddJson('huge-error', { jsonrpc: '2.0', id: 1, error: { code: -32001, message: HUGE } });
  const nasty = oddJson('nasty', { jsonrpc: '2.0', id: 1, error: { code: -32603, message: NASTY } });
  const stream: Exchange = {
    ...base,
    id: 'stream',
    kind: 'stream',
    transcript: { exchangeId: 'stream' } as Exchange['transcript'],
  };
  return [
    noResponse,
    noResponseNoError,
    noBody as unknown as Exchange,
    noMethod as unknown as Exchange,
    noRequest as unknown as Exchange,
    badUrl,
    oddJson('json-null', null),
    oddJson('json-array', [{ error: { code: 'x' } }]),
    oddJson('json-number', 42),
    oddJson('error-not-object', { error: 'bad' }),
    oddJson('error-code-string', { error: { code: '-32001', message: 7 } }),
    hugeError,
    nasty,
    stream,
  ];
}

/** Failing checks over real ledger ids, each carrying every degenerate exchange, plus a degenerate check. */
function hostileRequirements(): RequirementResult[] {
  const exchanges = degenerateExchanges();
  const ids = REQUIREMENTS.filter((r) => r.role === 'service')
    .map((r) => r.id)
    .slice(0, 6);
  return ids.map((id, i) =>
    requirement(id, i % 2 === 0 ? 'fail' : 'error', [
      check(id, i % 2 === 0 ? 'fail' : 'error', {
        message: i === 0 ? HUGE : NASTY,
        expected: NASTY,
        actual: { deep: { deeper: [HUGE.slice(0, 1000), null, undefined] } },
        assertions: [
          { label: NASTY, expected: -32001, actual: undefined, pass: false },
          { label: 'result.status.state', expected: 'completed', actual: undefined, pass: false },
        ],
        evidence: {
          exchanges,
          // A stream with no events, status or text, and a delivery with no header, body or answer.
          streams: [{ exchangeId: 'stream' } as Exchange['transcript'] & object],
          deliveries: [
            {
              ...{ seq: 1, receivedAtMs: 0, bodyCompleteAtMs: 0, timestamp: '', method: 'POST', path: '/h' },
              ...{ headers: {}, text: '', bodyBytes: 0, bodyTruncated: false, response: {} },
            },
          ],
        },
        reproduce: { command: NASTY, curl: NASTY },
      }),
      check(id, 'fail', {
        message: '',
        assertions: [],
        evidence: { exchanges: [], streams: [], deliveries: [] },
      }),
    ]),
  );
}

/** Thousands of failures: every service requirement failed by ten checks, each with an exchange. */
function thousandsOfFailures(): RequirementResult[] {
  const ex = exchange(
    'e',
    { jsonrpc: '2.0', id: 1, method: 'tasks/get' },
    { jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'boom' } },
  );
  return REQUIREMENTS.filter((r) => r.role === 'service').map((r) =>
    requirement(
      r.id,
      'fail',
      Array.from({ length: 10 }, (_, i) =>
        check(r.id, 'fail', {
          title: `case ${i}`,
          evidence: { exchanges: [ex], streams: [], deliveries: [] },
        }),
      ),
    ),
  );
}

const CASES: Array<[string, () => RunResult]> = [
  ['degenerate exchanges and hostile strings', () => fixtureRun(hostileRequirements())],
  ['thousands of failures', () => fixtureRun(thousandsOfFailures())],
  ['an empty run', () => fixtureRun([], { card: null })],
  [
    'a run that could not be done, with no card, no reachability status and hostile harness errors',
    () =>
      fixtureRun([], {
        card: null,
        reachability: { reachable: false, authenticated: false, message: NASTY, durationMs: 0 },
        harnessErrors: [{ message: NASTY }, { message: HUGE, stack: NASTY }],
        exitCode: 2,
        exitReason: `run could not be done: ${NASTY}`,
      }),
  ],
];

describe.each(CASES)('%s', (name, make) => {
  const degenerate = name === CASES[0]![0];
  it('analysis explains what it can and never throws', () => {
    const result = make();
    const analysis = analyseRun(result.requirements);
    expect(Array.isArray(analysis.rootCauses)).toBe(true);
    for (const cause of analysis.rootCauses) expect(cause.example?.length ?? 0).toBeLessThanOrEqual(240);
  });

  it('every report file renders, report.json to its schema and junit.xml well-formed', () => {
    const result = { ...make() };
    Object.assign(result, analyseRun(result.requirements));
    for (const [name, render] of Object.entries(REPORT_FILES)) {
      const text = render(result);
      expect(typeof text, name).toBe('string');
      // Records the schema allows give a report.json it accepts; the degenerate ones at least parse.
      const json: unknown = name === 'report.json' ? JSON.parse(text) : undefined;
      if (json !== undefined && !degenerate) expect(validate('report', json)).toEqual({ valid: true });
      if (name === 'junit.xml' || name === 'badge.svg') expect(XMLValidator.validate(text), name).toBe(true);
    }
  });

  it('the console prints it in every mode', () => {
    const result = make();
    for (const mode of ['quiet', 'normal', 'verbose'] as const) {
      expect(formatRunSummary(result, palette(true), mode).length).toBeGreaterThan(0);
      let out = '';
      const reporter = new ConsoleReporter({
        write: (t) => void (out += t),
        mode,
        colour: false,
        secrets: [],
      });
      for (const r of result.requirements.slice(0, 3))
        for (const c of r.checks) reporter.progress({ kind: 'check', check: c } as never);
      reporter.summary(result);
      expect(out).toMatch(/exit \d/);
    }
  });
});

describe('exchangeLine', () => {
  it('reads an exchange with no request, no method, no body or no response', () => {
    const lines = degenerateExchanges().map((ex) => exchangeLine(ex));
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(240);
    expect(lines[0]).toBe('tasks/get {} -> no answer (none)');
    expect(lines[2]).toBe('tasks/get {} -> HTTP 500 (no body)');
    expect(lines[3]).toMatch(/^POST \/api\/v1\/a2a\/agent-1 \{\} -> HTTP 500/);
    expect(lines[4]).toMatch(/^\(no request\) \{\} -> HTTP 500/);
  });
});

describe('a failure after the checks loses nothing', () => {
  it('analysis that throws is named as a harness error; the verdicts stay', () => {
    const requirements = [requirement('2.1/jsonrpc-required', 'fail', null as unknown as CheckResult[])];
    const { analysis, error } = analyseRunSafely(requirements);
    expect(analysis).toEqual({ rootCauses: [] });
    expect(error).toMatch(/^root-cause analysis failed: TypeError: /);
  });

  it('a console whose stdout fails (a closed pipe) is said once on stderr, and the run goes on', () => {
    let err = '';
    const io = {
      out: () => {
        throw Object.assign(new Error('write EPIPE'), { code: 'EPIPE' });
      },
      err: (t: string) => void (err += t),
      env: {},
    };
    const console = consoleFor({}, io, []);
    console.line('a2a-conformance: a line');
    console.summary(fixtureRun());
    expect(err).toBe(
      'console output failed: Error: write EPIPE; the run goes on and the report files hold it\n',
    );
  });

  it('a report file that cannot be written is named and every other one is written', () => {
    const out = join(dir, 'one-blocked');
    mkdirSync(join(out, 'report.html'), { recursive: true });
    const written = writeReports(fixtureRun(), out);
    expect(written.failed.map((f) => f.file)).toEqual(['report.html']);
    expect(written.failed[0]!.message).toMatch(/EISDIR/);
    expect(written.files).toEqual(Object.keys(REPORT_FILES).filter((n) => n !== 'report.html'));
    expect(readdirSync(out).sort()).toEqual(REPORT_FILE_NAMES);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as RunResult;
    expect(report.harnessErrors.map((e) => e.message)).toContain(
      `writing report.html failed: ${written.failed[0]!.message}`,
    );
    expect(report.exitCode).toBe(2);
  });
});
