// Root causes and dialect detection (harness/analysis) on realistic run results, and how the console,
// summary.md, report.html and report.json lead with them: an A2A v0.3 agent is named in the first
// lines with the differences seen, each finding grouped under the difference that explains it; a
// target of this spec is never taken for another dialect; a shared rate-limit answer is one cause.
import { describe, expect, it } from 'vitest';
import { probeAnswer } from '../../harness/analysis/dialect.ts';
import { analyseRun } from '../../harness/analysis/root-causes.ts';
import type { RunResult } from '../../core/types.ts';
import { palette } from '../../reporters/console/ansi.ts';
import { formatRunSummary } from '../../reporters/console/console-summary.ts';
import { htmlData } from '../../reporters/html/html-data.ts';
import { reportDocument } from '../../reporters/json-report.ts';
import { renderMarkdown } from '../../reporters/markdown.ts';
import { anchorOf } from '../../reporters/sections.ts';
import { validate } from '../../schemas/registry.ts';
import { rateLimitedRequirements, V03_PROBE, v03Requirements } from './dialect-fixtures.ts';
import { check, exchange, fixtureRequirements, fixtureRun, requirement } from './fixtures.ts';

function v03Run(): RunResult {
  const { requirements } = v03Requirements();
  return fixtureRun(requirements, {
    card: null,
    reachability: {
      reachable: true,
      authenticated: true,
      status: 200,
      message: 'no extended card (error code -32601); capabilities unknown',
      durationMs: 4,
    },
    ...analyseRun(requirements, V03_PROBE),
  });
}

describe('dialect detection', () => {
  it('names A2A v0.3 from the probe and the differences, and explains each finding by one difference', () => {
    const { requirements, explainedBy } = v03Requirements();
    const { dialect, rootCauses } = analyseRun(requirements, V03_PROBE);
    expect(dialect).toMatchObject({
      id: 'a2a-v0.3',
      name: 'the official A2A v0.3 JSON-RPC',
      findings: 8,
      explained: 7,
    });
    expect(dialect!.differences.map((d) => d.id).sort()).toEqual(
      [...new Set(Object.values(explainedBy))].concat('no-final').sort(),
    );
    expect(dialect!.evidence[0]).toContain(
      '`agent/getAuthenticatedExtendedCard` is served (HTTP 200, -32004',
    );
    const byCause = Object.fromEntries(
      rootCauses.flatMap((c) => c.requirements.map((r) => [r.id, c.key.replace(/^dialect /, '')])),
    );
    expect(byCause).toMatchObject(explainedBy);
    expect(byCause['2.3/role-required']).toBeUndefined();
    // The largest difference leads, with what the spec asks and one exchange that shows it.
    expect(rootCauses[0]).toMatchObject({
      kind: 'dialect',
      key: 'dialect extended-card-method',
      expected: expect.stringContaining('`agent/authenticatedExtendedCard` returns the extended card'),
      example: expect.stringContaining('agent/authenticatedExtendedCard {} -> HTTP 200 {"code":-32601'),
    });
    expect(rootCauses[0]!.requirements.map((r) => r.id)).toEqual([
      '2.14/card-agent-id',
      '2.14/card-agent-name',
      '8/limits-reported',
    ]);
  });

  it('names A2A v1.0 when GetExtendedAgentCard is served and the slash-named methods are unknown', () => {
    const unknown = (id: string, method: string) => {
      const ex = exchange(
        `x-${id}`,
        { method, params: {} },
        { error: { code: -32601, message: `Method not found: ${method}` } },
      );
      const c = check(id, 'fail', {
        expected: 'a result',
        actual: undefined,
        evidence: { exchanges: [ex], streams: [], deliveries: [] },
      });
      return requirement(id, 'fail', [c]);
    };
    const requirements = [
      unknown('4.1/send-result-final-true', 'message/send'),
      unknown('4.3/get-current-state', 'tasks/get'),
      unknown('2.14/card-agent-id', 'agent/authenticatedExtendedCard'),
    ];
    const probe = [
      {
        dialect: 'a2a-v0.3' as const,
        method: 'agent/getAuthenticatedExtendedCard',
        served: false,
        code: -32601,
      },
      {
        dialect: 'a2a-v1.0' as const,
        method: 'GetExtendedAgentCard',
        served: true,
        status: 200,
        code: -32007,
      },
    ];
    const { dialect, rootCauses } = analyseRun(requirements, probe);
    expect(dialect).toMatchObject({ id: 'a2a-v1.0', name: 'the official A2A v1.0 JSON-RPC', explained: 3 });
    expect(rootCauses).toHaveLength(1);
    expect(rootCauses[0]).toMatchObject({
      key: 'dialect pascal-case-methods',
      cause: expect.stringContaining('GetTask'),
    });
  });

  it('names it from the exchanges alone when no probe answered (a report of an older run)', () => {
    expect(analyseRun(v03Requirements().requirements).dialect?.id).toBe('a2a-v0.3');
  });

  it('never takes a target of this spec for another dialect: one odd code is a root cause, not a dialect', () => {
    const unknown = (id: string, n: number) => {
      const r = v03Requirements().requirements.find((x) => x.id === '4.3/get-unknown-task-32000')!;
      const ex = exchange(
        `u-${n}`,
        { method: 'tasks/get', params: { taskId: `gone-${n}` } },
        {
          error: { code: -32001, message: `Task gone-${n} not found` },
        },
      );
      return {
        ...r,
        id,
        checks: [
          { ...r.checks[0]!, requirementId: id, evidence: { exchanges: [ex], streams: [], deliveries: [] } },
        ],
      };
    };
    const requirements = [
      unknown('4.3/get-unknown-task-32000', 1),
      unknown('7/task-not-found-code', 2),
      unknown('7/task-not-found-data', 3),
    ];
    const { dialect, rootCauses } = analyseRun(requirements);
    expect(dialect).toBeUndefined();
    expect(rootCauses).toEqual([
      expect.objectContaining({
        kind: 'error-code',
        cause: 'tasks/get answered -32001 "Task gone-1 not found"',
        expected: 'in this spec -32001 means "Task already completed"',
      }),
    ]);
    expect(rootCauses[0]!.requirements).toHaveLength(3);
  });

  it('never names a dialect from the legal errors of this spec (a card call refused, cancel of a completed task)', () => {
    const ex = [
      exchange(
        'a',
        { method: 'agent/authenticatedExtendedCard', params: { includeMetrics: 'yes' } },
        {
          error: { code: -32602, message: 'Invalid params' },
        },
      ),
      exchange(
        'b',
        { method: 'message/send', params: {} },
        { result: { id: 't-1', status: { state: 'completed' } } },
      ),
      exchange(
        'c',
        { method: 'tasks/cancel', params: { taskId: 't-1' } },
        {
          error: { code: -32001, message: 'Task already completed' },
        },
      ),
    ];
    const requirements = fixtureRequirements();
    requirements[0]!.checks[0]!.evidence.exchanges.push(...ex);
    expect(
      analyseRun(requirements, [
        { dialect: 'a2a-v0.3', method: 'agent/getAuthenticatedExtendedCard', served: false },
      ]).dialect,
    ).toBeUndefined();
  });

  it('leaves findings that share nothing as they are, and the bundled fixture run has no dialect', () => {
    const { dialect, rootCauses } = analyseRun(fixtureRequirements());
    expect(dialect).toBeUndefined();
    expect(rootCauses).toEqual([]);
  });

  it('groups findings that all met a rate-limit answer under one cause with its HTTP status', () => {
    const { rootCauses } = analyseRun(rateLimitedRequirements());
    expect(rootCauses).toHaveLength(1);
    expect(rootCauses[0]).toMatchObject({
      kind: 'error-code',
      cause: 'message/send answered -32012 "Rate limit exceeded" on HTTP 429',
      expected: 'in this spec -32012 means "Rate limit exceeded"',
    });
    expect(rootCauses[0]!.requirements.map((r) => r.verdict)).toEqual(['fail', 'fail', 'fail', 'fail']);
  });

  it('groups unanswered requests, and a field missing from several answers, each under one cause', () => {
    const timedOut = (id: string) => {
      const ex = { ...exchange(`t-${id}`, { method: 'message/send', params: {} }, {}), response: undefined };
      ex.error = { kind: 'timeout' as const, message: 'no answer within 10000 ms' };
      return requirement(id, 'error', [
        check(id, 'error', {
          message: 'harness error: no answer',
          evidence: { exchanges: [ex], streams: [], deliveries: [] },
        }),
      ]);
    };
    const noDetails = (id: string) =>
      requirement(id, 'fail', [
        check(id, 'fail', {
          assertions: [
            { label: 'error.data.details', expected: 'a non-empty string', actual: undefined, pass: false },
          ],
        }),
      ]);
    const requirements = [
      timedOut('4.1/send-result-final-true'),
      timedOut('4.2/stream-event-task'),
      timedOut('4.9/context-id-continues'),
      noDetails('2.3/role-required'),
      noDetails('2.3/message-id-required'),
      noDetails('2.3/parts-required'),
    ];
    const causes = analyseRun(requirements).rootCauses;
    expect(causes.map((c) => [c.kind, c.cause, c.requirements.length])).toEqual([
      ['no-answer', 'message/send got no complete answer (timeout)', 3],
      ['missing-field', '`error.data.details` missing or not as specified', 3],
    ]);
    expect(causes[0]!.requirements.every((r) => r.verdict === 'error')).toBe(true);
  });

  it('reads a probe answer: a method-not-found or invalid-params answer does not show the method served', () => {
    const answer = (response: unknown) =>
      probeAnswer(
        'a2a-v1.0',
        'GetExtendedAgentCard',
        exchange('p', { method: 'GetExtendedAgentCard' }, response),
      );
    expect(answer({ result: { name: 'card' } }).served).toBe(true);
    expect(answer({ error: { code: -32007, message: 'Extended card not configured' } }).served).toBe(true);
    expect(answer({ error: { code: -32601, message: 'Method not found' } }).served).toBe(false);
    expect(answer({ error: { code: -32602, message: 'Invalid method parameters.' } }).served).toBe(false);
  });
});

describe('reports lead with the dialect and the root causes', () => {
  const run = v03Run();

  it('console: the dialect and the causes come right after the target line, before the tables', () => {
    const text = formatRunSummary(run, palette(false), 'normal');
    const lines = text.split('\n');
    expect(lines[1]).toBe(
      "DIALECT this agent speaks the official A2A v0.3 JSON-RPC, not this spec's: 7 of 8 finding(s) follow from 5 difference(s)",
    );
    expect(lines[2]).toContain('`agent/getAuthenticatedExtendedCard` is served');
    expect(lines[3]).toBe('Root causes (7 of 8 findings)');
    expect(lines[4]).toMatch(
      /^ {2}1\. 3 finding\(s\): dialect: `agent\/authenticatedExtendedCard` is unknown to it/,
    );
    expect(lines[5]).toBe('     2.14/card-agent-id, 2.14/card-agent-name, 8/limits-reported');
    expect(text.indexOf('Root causes')).toBeLessThan(text.indexOf('Summary by section'));
    // Findings under a cause are not repeated in full; the one no cause explains is.
    expect(text).toContain('Other findings (1; 7 more under the root causes above)');
    expect(text).toContain('FAIL  2.3/role-required (MUST)');
    expect(text).not.toContain('FAIL  2.14/card-agent-id (MUST)');
    expect(formatRunSummary(run, palette(false), 'verbose')).toContain('FAIL  2.14/card-agent-id (MUST)');
    expect(formatRunSummary(run, palette(false), 'quiet').split('\n')[0]).toMatch(
      /^DIALECT this agent speaks/,
    );
  });

  it('summary.md: the dialect under the heading, then a table of causes linked into report.html', () => {
    const md = renderMarkdown(run);
    const lines = md.split('\n');
    const dialect = lines.findIndex((l) =>
      l.startsWith("> **Dialect: this agent speaks the official A2A v0.3 JSON-RPC, not this spec's.**"),
    );
    expect(dialect).toBeGreaterThan(0);
    expect(dialect).toBeLessThan(
      lines.indexOf('| Level | pass | fail | warn | info | not-applicable | not-exercised | error |'),
    );
    expect(md).toContain('### Root causes (7 of 8 findings)');
    expect(md).toContain(`[2.14/card-agent-id](report.html#${anchorOf('2.14/card-agent-id')})`);
    const row = lines.find((l) => l.includes('[2.14/card-agent-id]') && l.startsWith('| FAIL'))!;
    expect(row).toContain('| root cause 1: ');
    // The finding no cause explains comes first among the failures.
    const failures = lines.filter((l) => l.startsWith('| FAIL'));
    expect(failures[0]).toContain('[2.3/role-required]');
  });

  it('report.html and report.json carry them; the report still conforms to its schema', () => {
    const data = htmlData(run);
    expect(data.dialect?.headline).toBe("this agent speaks the official A2A v0.3 JSON-RPC, not this spec's");
    expect(data.rootCauses.map((c) => c.requirements.length)).toEqual(
      run.rootCauses!.map((c) => c.requirements.length),
    );
    const doc = JSON.parse(JSON.stringify(reportDocument(run))) as Record<string, unknown>;
    expect(validate('report', doc)).toEqual({ valid: true });
    expect((doc.dialect as { id: string }).id).toBe('a2a-v0.3');
  });

  it('reads a report without them (older versions): no dialect line, no causes', () => {
    const plain = fixtureRun();
    expect(formatRunSummary(plain, palette(false), 'normal')).not.toContain('Root causes');
    expect(renderMarkdown(plain)).not.toContain('Dialect');
    expect(htmlData(plain).rootCauses).toEqual([]);
  });
});
