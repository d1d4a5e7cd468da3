// The run's event stream (reporters/event-stream.ts, `run --events`): every line validates against
// schemas/run-event.schema.json, `start` comes first and `end` last, a requirement's verdict is written
// the moment its last check ends (before the end), the end revises what it changed, and secrets never
// reach a line. Through the CLI: `--events -` keeps stdout for the stream alone.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runArgv, runCli } from '../support/cli-run.ts';
import { EventStream } from '../../reporters/event-stream.ts';
import { validate } from '../../schemas/registry.ts';
import { startFixture, type Fixture } from '../harness/fixtures/jsonrpc-fixture.ts';
import { check, fixtureRun, startAndPlan } from './fixtures.ts';

type Line = Record<string, unknown> & { event: string };

function parsed(text: string): Line[] {
  return text
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as Line);
}

function expectValid(lines: Line[]): void {
  for (const line of lines)
    expect(validate('run-event', line), JSON.stringify(line)).toEqual({ valid: true });
}

const [start, plan] = startAndPlan(
  [
    ['2.2/response-id-equals-request-id', 'MUST', 'a', 1_000],
    ['2.2/response-id-equals-request-id', 'MUST', 'b', 1_000],
    ['2.1/id-required', 'SHOULD', 'c', 2_000],
  ],
  12,
);

function stream(secrets: string[] = []): { s: EventStream; out: () => Line[] } {
  let text = '';
  const s = new EventStream({ write: (l) => void (text += l), secrets, now: () => 1_700_000_000_000 });
  return { s, out: () => parsed(text) };
}

describe('the event stream', () => {
  it("writes a verdict when a requirement's last check ends, and every line is a RunEvent", () => {
    const { s, out } = stream();
    s.line('a2a-conformance: http://127.0.0.1:8080 agent agent-1');
    s.progress(start);
    s.progress(plan);
    const failed = check('2.2/response-id-equals-request-id', 'fail', {
      title: 'a',
      field: 'id',
      expected: 'r1',
      actual: 'x',
    });
    s.progress({ kind: 'check', file: 'f.test.ts', check: failed, requests: 3 });
    // One of its two checks ended: not decided yet.
    expect(out().filter((l) => l.event === 'verdict')).toEqual([]);
    s.progress({
      kind: 'check',
      file: 'f.test.ts',
      check: { ...check('2.2/response-id-equals-request-id', 'pass'), title: 'b' },
    });
    const verdicts = out().filter((l) => l.event === 'verdict');
    expect(verdicts).toHaveLength(1);
    expect(verdicts[0]).toMatchObject({
      id: '2.2/response-id-equals-request-id',
      level: 'MUST',
      verdict: 'fail',
      checks: 2,
      finding: 'a: id: expected "r1", actual "x"',
    });
    s.progress({
      kind: 'check',
      file: 'g.test.ts',
      check: { ...check('2.1/id-required', 'error', { message: 'harness error: boom' }), title: 'c' },
    });
    s.status();
    const lines = out();
    // `start` first, even before a console line that came earlier.
    expect(lines.map((l) => l.event)).toEqual([
      'start',
      'log',
      'plan',
      'verdict',
      'fault',
      'verdict',
      'status',
    ]);
    expect(lines.at(-1)).toMatchObject({
      checksDone: 3,
      checksTotal: 3,
      requests: 3,
      mustDecided: 1,
      mustTotal: 1,
    });
    expectValid(lines);
  });

  it('ends with a revised verdict for each requirement the end decided or changed, then `end`', () => {
    const { s, out } = stream();
    s.progress(start);
    s.progress(plan);
    s.end(fixtureRun());
    const lines = out();
    expect(lines.at(-1)).toMatchObject({ event: 'end', exitCode: 1, compliance: 'not-compliant' });
    const revised = lines.filter((l) => l.event === 'verdict');
    expect(revised.length).toBe(fixtureRun().requirements.length);
    expect(revised.every((l) => l.revised === true)).toBe(true);
    expectValid(lines);
    // Nothing after the end.
    s.line('late');
    expect(out()).toHaveLength(lines.length);
  });

  it('starts from the result when the run ended before it began', () => {
    const { s, out } = stream();
    s.line('error before the probe');
    s.end(fixtureRun());
    const lines = out();
    expect(lines[0]!.event).toBe('start');
    expect(lines[1]).toMatchObject({ event: 'log', text: 'error before the probe' });
    expectValid(lines);
  });

  it("redacts the run's secrets in every value", () => {
    const { s, out } = stream(['sekret-key-123']);
    s.progress(start);
    s.line('sending x-api-key sekret-key-123');
    expect(JSON.stringify(out())).not.toContain('sekret-key-123');
  });
});

describe('run --events through the CLI', () => {
  let fx: Fixture;
  const dir = mkdtempSync(join(tmpdir(), 'a2a-events-'));
  let target: string[];

  beforeAll(async () => {
    fx = await startFixture({ wrongId: 'not-your-id' });
    target = runArgv(
      fx.baseUrl,
      fx.agentId,
      fx.apiKey,
      '--only',
      '2.2/response-id-equals-request-id,2.2/response-jsonrpc-version',
      '--seed',
      '3',
      '--runs',
      '2',
    );
  });
  afterAll(async () => {
    await fx.close();
  });

  it('--events - writes only the stream on stdout, the console on stderr; verdicts come before the end', async () => {
    const r = await runCli([...target, '--out', join(dir, 'stdout'), '--events', '-']);
    expect(r.code).toBe(1);
    const lines = parsed(r.stdout);
    expectValid(lines);
    expect(lines[0]!.event).toBe('start');
    expect(lines.at(-1)).toMatchObject({ event: 'end', exitCode: 1 });
    const live = lines.findIndex((l) => l.event === 'verdict' && l.revised !== true);
    expect(live).toBeGreaterThan(0);
    expect(live).toBeLessThan(lines.length - 1);
    expect(
      lines.find((l) => l.id === '2.2/response-id-equals-request-id' && l.event === 'verdict'),
    ).toMatchObject({
      verdict: 'fail',
    });
    expect(r.stderr).toContain('exit 1:');
    expect(JSON.stringify(lines)).not.toContain(fx.apiKey);
  });

  it('--events <file> writes the same stream into the file and leaves the console on stdout', async () => {
    const file = join(dir, 'events.ndjson');
    const r = await runCli([...target, '--out', join(dir, 'file'), '--events', file, '--quiet']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/exit 1:/);
    const lines = parsed(readFileSync(file, 'utf8'));
    expectValid(lines);
    expect(lines.at(-1)!.event).toBe('end');
  });

  it('refuses a path it cannot write before the first request (exit 2)', async () => {
    const r = await runCli([...target, '--events', join(dir, 'no-such-dir', 'e.ndjson')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--events .*cannot write it/);
    // The run never began: no console line about the target, no report.
    expect(r.stdout).toBe('');
  });
});
