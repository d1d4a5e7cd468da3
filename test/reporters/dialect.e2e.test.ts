// One short `run` (the CLI in process, six requirements) against an agent built on the official
// @a2a-js/sdk 0.3 (bench/servers/sdk-peer.ts, in its own process): the run names the A2A v0.3
// dialect in its first lines, and the console summary, summary.md, report.json and report.html lead
// with it and group the failures under the differences that explain them.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChild, type Child } from '../../bench/lib/child.ts';
import { runArgv, runCli } from '../support/cli-run.ts';
import { validate } from '../../schemas/registry.ts';

const ONLY = [
  '1/message-returns-task',
  '2.4/reply-part-shape',
  '2.12/set-configured',
  '2.14/card-agent-id',
  '2.14/card-agent-name',
  '7/task-not-found-code',
];

interface Report {
  dialect?: { id: string; differences: { id: string; requirements: number }[] };
  rootCauses?: { kind: string; key: string; requirements: { id: string }[] }[];
  exitCode: number;
}

describe('run against an @a2a-js/sdk 0.3 agent (A2A v0.3 JSON-RPC)', () => {
  const out = mkdtempSync(join(tmpdir(), 'a2a-dialect-'));
  let peer: Child<{ url: string; apiKey: string }>;
  /** What the run printed, stdout and stderr as written. */
  let printed = '';
  let code = -1;
  let report: Report;

  beforeAll(async () => {
    peer = await startChild<{ url: string; apiKey: string }>('sdk-peer');
    const url = new URL(peer.info.url);
    const argv = runArgv(url.origin, 'peer', peer.info.apiKey, '--only', ONLY.join(','), '--out', out);
    ({ code, output: printed } = await runCli(argv));
    report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
  }, 120_000);

  afterAll(async () => {
    await peer?.stop();
  });

  it('says so in its first lines, before any suite runs', () => {
    const lines = printed.split('\n');
    expect(lines[0]).toMatch(
      /^a2a-conformance .*: http:\/\/127\.0\.0\.1:\d+ agent peer, 6 requirement\(s\)$/,
    );
    expect(lines[1]).toMatch(
      /^dialect: the agent may speak the official A2A v0\.3 JSON-RPC, not this spec's: `agent\/getAuthenticatedExtendedCard` is served \(HTTP 200, -32004 /,
    );
    expect(code).toBe(1);
  });

  it('leads the console summary with the dialect and groups every failure under a difference', () => {
    const summary = printed.slice(printed.indexOf('\ntarget: ') + 1);
    const lines = summary.split('\n');
    expect(lines[0]).toMatch(/^target: /);
    const dialect = lines.findIndex((l) => l.startsWith('DIALECT '));
    expect(dialect).toBeGreaterThan(0);
    expect(dialect).toBeLessThan(3);
    expect(lines[dialect]).toBe(
      "DIALECT this agent speaks the official A2A v0.3 JSON-RPC, not this spec's: 6 of 6 finding(s) follow from 4 difference(s)",
    );
    expect(summary).toContain('6 finding(s), each under its root cause above');
  });

  it('records the dialect and the root causes in report.json, valid against its schema', () => {
    expect(validate('report', report)).toEqual({ valid: true });
    expect(report.dialect?.id).toBe('a2a-v0.3');
    const explained = (report.rootCauses ?? []).flatMap((c) => c.requirements.map((r) => r.id));
    expect(explained.sort()).toEqual([...ONLY].sort());
    expect(report.rootCauses?.every((c) => c.kind === 'dialect')).toBe(true);
    expect(report.rootCauses?.map((c) => c.key)).toEqual(
      expect.arrayContaining([
        'dialect extended-card-method',
        'dialect kind-discriminator',
        'dialect push-not-supported-code',
        'dialect task-not-found-code',
      ]),
    );
  });

  it('names it at the top of summary.md and of report.html', () => {
    const md = readFileSync(join(out, 'summary.md'), 'utf8').split('\n');
    const dialect = md.findIndex((l) =>
      l.startsWith("> **Dialect: this agent speaks the official A2A v0.3 JSON-RPC, not this spec's.**"),
    );
    expect(dialect).toBeGreaterThan(0);
    expect(dialect).toBeLessThan(8);
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(html).toContain(
      '"dialect":{"headline":"this agent speaks the official A2A v0.3 JSON-RPC, not this spec\'s"',
    );
  });
});
