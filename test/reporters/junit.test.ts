// junit.xml: valid XML (fast-xml-parser's validator), one testsuite per spec section and one
// testcase per requirement, and the documented verdict mapping: fail -> failure, error -> error,
// not-applicable / not-exercised -> skipped, warn / info -> passing with a system-out note.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { renderJunit } from '../../reporters/junit.ts';
import { check, fixtureRequirements, fixtureRun, requirement } from './fixtures.ts';

interface Case {
  name: string;
  classname: string;
  time: string;
  failure?: { '#text': string; message: string; type: string };
  error?: { '#text': string; message: string; type: string };
  skipped?: { message: string };
  'system-out'?: string;
}
interface Suite {
  name: string;
  tests: string;
  failures: string;
  errors: string;
  skipped: string;
  timestamp: string;
  hostname: string;
  properties: { property: { name: string; value: string }[] | { name: string; value: string } };
  testcase: Case[] | Case;
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  isArray: (name) => name === 'testsuite' || name === 'testcase',
  parseAttributeValue: false,
});

function parse(xml: string): { testsuites: Record<string, string> & { testsuite: Suite[] } } {
  expect(XMLValidator.validate(xml)).toBe(true);
  return parser.parse(xml);
}

function cases(doc: ReturnType<typeof parse>): Map<string, Case> {
  return new Map(doc.testsuites.testsuite.flatMap((s) => s.testcase as Case[]).map((c) => [c.name, c]));
}

describe('junit.xml', () => {
  const xml = renderJunit(fixtureRun());
  const doc = parse(xml);

  it('has one testsuite per spec section, in spec order, named by number and title', () => {
    const names = doc.testsuites.testsuite.map((s) => s.name);
    expect(names).toEqual([
      '1 What the service does',
      '2.1 JSON-RPC request envelope (all methods)',
      '2.2 JSON-RPC response envelope',
      '4.2 message/stream (asynchronous SSE)',
      '4.9 Multi-turn and files',
      '6.5 Delivery',
      '7 Errors',
    ]);
    const sec = doc.testsuites.testsuite[1]!;
    expect(sec).toMatchObject({
      tests: '2',
      failures: '0',
      errors: '0',
      skipped: '0',
      timestamp: '2026-01-01T00:00:00',
    });
    expect(sec.hostname).not.toBe('');
  });

  it('has one testcase per requirement, named by id', () => {
    const all = cases(doc);
    expect([...all.keys()].sort()).toEqual(
      fixtureRequirements()
        .map((r) => r.id)
        .sort(),
    );
    expect(doc.testsuites).toMatchObject({ tests: '9', failures: '1', errors: '1', skipped: '2' });
  });

  it('maps fail to <failure> with expected, actual and the reproduce command', () => {
    const c = cases(doc).get('2.2/response-id-equals-request-id')!;
    expect(c.failure?.type).toBe('MUST');
    expect(c.failure?.message).toBe(
      'response-id-equals-request-id check: id: expected "r1", actual "not-your-id"',
    );
    expect(c.failure?.['#text']).toContain('expected: "r1"');
    expect(c.failure?.['#text']).toContain(
      'reproduce: npx a2a-conformance run --only 2.2/response-id-equals-request-id',
    );
    expect(c.error).toBeUndefined();
  });

  it('maps error to <error>, never to a failure or a pass', () => {
    const c = cases(doc).get('7/method-not-found-code')!;
    expect(c.error?.type).toBe('harness-error');
    expect(c.error?.message).toContain('no answer: timeout');
    expect(c.failure).toBeUndefined();
  });

  it('maps not-applicable and not-exercised to <skipped> with the reason', () => {
    const all = cases(doc);
    expect(all.get('4.9/files-alongside-text')!.skipped?.message).toBe(
      'not-applicable: capability absent from the agent card: fileUpload',
    );
    expect(all.get('1/json-rpc-over-http')!.skipped?.message).toBe('not-exercised: no check registered');
  });

  it('gives a not-exercised requirement the reason its check recorded', () => {
    const id = '1/json-rpc-over-http';
    const r = requirement(id, 'not-exercised', [
      check(id, 'not-exercised', { message: 'the agent ignores a2a:directive' }),
    ]);
    const c = cases(parse(renderJunit(fixtureRun([r])))).get(id)!;
    expect(c.skipped?.message).toBe('not-exercised: the agent ignores a2a:directive');
  });

  it('keeps warn and info passing, with a system-out note', () => {
    const all = cases(doc);
    const warn = all.get('2.1/id-required')!;
    expect(warn.failure ?? warn.error ?? warn.skipped).toBeUndefined();
    expect(warn['system-out']).toMatch(/^WARN \(SHOULD, legal but lax\)/);
    expect(all.get('1/sync-or-streaming-calls')!['system-out']).toMatch(/^INFO \(INFO\)/);
    expect(all.get('2.1/jsonrpc-required')!['system-out']).toBeUndefined();
  });

  it('stays valid XML when evidence carries markup, control characters and lone surrogates', () => {
    const nasty = 'a]]></failure><x y="1">&amp;\u0000\u0007\u001b[31m\ud800"\'<script>';
    const r = requirement('2.2/response-id-equals-request-id', 'fail', [
      check('2.2/response-id-equals-request-id', 'fail', {
        expected: nasty,
        actual: nasty,
        message: nasty,
        title: nasty,
      }),
    ]);
    const out = renderJunit(fixtureRun([r]));
    const c = cases(parse(out)).get('2.2/response-id-equals-request-id')!;
    expect(c.failure?.['#text']).toContain('</failure><x y=');
    for (const control of ['\u0000', '\u0007', '\u001b']) expect(out).not.toContain(control);
  });

  it('applies a baseline: an expected failure is skipped, an entry that now passes fails', () => {
    const run = fixtureRun();
    run.baseline = {
      file: 'baseline.json',
      format: 'expected-failures',
      expectedFailures: ['2.2/response-id-equals-request-id', '2.1/jsonrpc-required'],
      newFailures: [],
      nowPassing: ['2.1/jsonrpc-required'],
      stillFailing: ['2.2/response-id-equals-request-id'],
      regressions: [],
      improvements: [],
    };
    const all = cases(parse(renderJunit(run)));
    expect(all.get('2.2/response-id-equals-request-id')!.skipped?.message).toMatch(
      /^expected failure \(baseline baseline.json\)/,
    );
    expect(all.get('2.1/jsonrpc-required')!.failure).toMatchObject({ type: 'baseline' });
    expect(all.get('2.1/jsonrpc-required')!.failure?.message).toContain(
      'now passes: remove it from the baseline',
    );
  });

  it('reports harness errors as errors of a suite of their own', () => {
    const run = fixtureRun(undefined, {
      harnessErrors: [{ message: 'suite failed to load: boom\nstack', file: 'suites/x.test.ts' }],
    });
    const d = parse(renderJunit(run));
    const harness = d.testsuites.testsuite.at(-1)!;
    expect(harness).toMatchObject({ name: 'harness', tests: '1', errors: '1' });
    expect((harness.testcase as Case[])[0]!.error?.message).toBe('suite failed to load: boom');
    expect(d.testsuites.errors).toBe('2');
  });
});
