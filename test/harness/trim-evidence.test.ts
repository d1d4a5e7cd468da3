// --evidence (harness/runner/trim-evidence.ts, harness/options.ts): what each mode keeps of a run
// result, that the trimmed report still conforms to schemas/report.schema.json and report.html says
// what was left out, and how the option resolves (flag, A2A_EVIDENCE, config key, defaults).
import { describe, expect, it } from 'vitest';
import { ConfigError, readEnv, resolveOptions, type RawOptions } from '../../harness/options.ts';
import { trimEvidence } from '../../harness/runner/trim-evidence.ts';
import type { CheckResult, RunResult } from '../../core/types.ts';
import { renderHtml } from '../../reporters/html/html-report.ts';
import { reportDocument } from '../../reporters/json-report.ts';
import { validate } from '../../schemas/registry.ts';
import { fixtureRun } from '../reporters/fixtures.ts';

const checksOf = (r: RunResult): CheckResult[] => r.requirements.flatMap((q) => q.checks);
const wire = (c: CheckResult): number =>
  c.evidence.exchanges.length + c.evidence.streams.length + c.evidence.deliveries.length;

describe('trimEvidence', () => {
  const run = fixtureRun();
  const before = checksOf(run);

  it('keeps everything with all', () => {
    expect(trimEvidence(run, 'all')).toBe(run);
  });

  it('failing: a passing check keeps its verdict only; a check that did not pass keeps everything', () => {
    const trimmed = trimEvidence(run, 'failing');
    const after = checksOf(trimmed);
    expect(before.filter((c) => c.status === 'pass' && wire(c) > 0).length).toBeGreaterThan(1);
    after.forEach((c, i) => {
      const was = before[i]!;
      if (was.status !== 'pass') {
        expect(c).toEqual(was);
        return;
      }
      expect(c).toMatchObject({ status: 'pass', title: was.title, message: was.message, assertions: [] });
      expect(wire(c)).toBe(0);
      expect(c.reproduce).toEqual({ command: was.reproduce.command });
      expect(c.evidenceOmitted).toEqual({
        evidence: 'failing',
        exchanges: was.evidence.exchanges.length,
        streams: was.evidence.streams.length,
        deliveries: was.evidence.deliveries.length,
        assertions: was.assertions.length,
      });
    });
    expect(trimmed.requirements.map((r) => r.verdict)).toEqual(run.requirements.map((r) => r.verdict));
    // The input is left as it was.
    expect(checksOf(run)).toEqual(before);
  });

  it('none: no check keeps wire evidence or a curl line; expected vs actual of a failure stays', () => {
    const after = checksOf(trimEvidence(run, 'none'));
    for (const c of after) {
      expect(wire(c)).toBe(0);
      expect(c.reproduce.curl).toBeUndefined();
      expect(c.evidenceOmitted?.evidence).toBe('none');
    }
    const failed = after.find((c) => c.requirementId === '2.2/response-id-equals-request-id')!;
    expect(failed).toMatchObject({ status: 'fail', expected: 'r1', actual: 'not-your-id' });
    expect(failed.assertions.length).toBe(1);
    expect(failed.evidenceOmitted).toMatchObject({ exchanges: 1, assertions: 0 });
  });

  it('trimmed again (a fleet merge trims the reports it reads), a check keeps the first counts', () => {
    const once = checksOf(trimEvidence(run, 'failing'));
    const twice = checksOf(trimEvidence(trimEvidence(run, 'failing'), 'none'));
    twice.forEach((c, i) => {
      const was = before[i]!;
      expect(wire(c)).toBe(0);
      if (was.status === 'pass') {
        expect(c.evidenceOmitted).toEqual({ ...once[i]!.evidenceOmitted, evidence: 'none' });
        return;
      }
      expect(c.assertions).toEqual(was.assertions);
      expect(c.evidenceOmitted).toMatchObject({ evidence: 'none', exchanges: was.evidence.exchanges.length });
    });
    expect(checksOf(trimEvidence(trimEvidence(run, 'none'), 'failing'))).toEqual(
      checksOf(trimEvidence(run, 'none')),
    );
  });

  it('writes a report that conforms to the schema, and report.html says what was not kept', () => {
    for (const mode of ['failing', 'none'] as const) {
      const trimmed = trimEvidence({ ...run, options: { ...run.options, evidence: mode } }, mode);
      expect(validate('report', reportDocument(trimmed))).toEqual({ valid: true });
      expect(renderHtml(trimmed)).toContain(`wire evidence not kept (--evidence ${mode}): 1 exchange(s)`);
    }
    const broken = reportDocument(trimEvidence(run, 'failing')) as unknown as {
      requirements: { checks: { evidenceOmitted?: { evidence: string } }[] }[];
    };
    broken.requirements[0]!.checks[0]!.evidenceOmitted!.evidence = 'some';
    expect(validate('report', broken).valid).toBe(false);
  });
});

describe('--evidence resolution', () => {
  const none: RawOptions = {};
  const target = { target: 'http://127.0.0.1:1', agentId: 'a', apiKey: 'k' };
  const resolve = (flag: RawOptions, env: RawOptions = none, file: RawOptions = none) =>
    resolveOptions({ flag, env, file }).evidence;

  it('defaults to failing against a target and to all for the bundled server', () => {
    expect(resolve(target)).toBe('failing');
    expect(resolve(none)).toBe('all');
  });

  it('takes the flag over A2A_EVIDENCE over the config key', () => {
    expect(resolve(target, none, { evidence: 'none' })).toBe('none');
    expect(resolve(target, readEnv({ A2A_EVIDENCE: 'all' }), { evidence: 'none' })).toBe('all');
    expect(resolve({ ...target, evidence: 'failing' }, readEnv({ A2A_EVIDENCE: 'all' }))).toBe('failing');
  });

  it('refuses another mode with a clear error', () => {
    expect(() => resolve({ evidence: 'some' })).toThrow(ConfigError);
    expect(() => resolve({ evidence: 'some' })).toThrow(/evidence must be one of all, failing, none/);
  });
});
