// `run` flags of the reporters, in process: --quiet and --verbose exclude each other, --quiet prints
// only the verdict and exit lines, colour only on a TTY without NO_COLOR, reports are written even
// for a run that could not be done; and --baseline decides the exit code through the whole runner.
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort, startFixture, type Fixture } from '../harness/fixtures/jsonrpc-fixture.ts';
import { runArgv, runCli } from '../support/cli-run.ts';
import { REPORT_FILE_NAMES } from '../support/report-files.ts';

const cli = (args: string[], env: NodeJS.ProcessEnv = {}, isTTY = false) => runCli(args, { env, isTTY });

const dir = mkdtempSync(join(tmpdir(), 'a2a-cli-run-'));

describe('console flags', () => {
  let unreachable: string[];
  beforeAll(async () => {
    unreachable = runArgv(`http://127.0.0.1:${await closedPort()}`, 'a', 'key-123456');
  });

  it('refuses --quiet with --verbose (exit 2)', async () => {
    const r = await cli(['run', '--quiet', '--verbose']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/option '--quiet' cannot be used with option '--verbose'/);
  });

  it('prints only the verdict and the exit line with --quiet, and still writes every report', async () => {
    const out = join(dir, 'quiet');
    const r = await cli([...unreachable, '--only', '2.2', '--quiet', '--out', out]);
    expect(r.code).toBe(2);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    // Nothing failed and nothing was verified: unverified, never a pass, and exit 2.
    expect(lines[0]).toMatch(
      /^unverified, score 0% .*: no MUST requirement failed; \d+ MUST requirement\(s\) not verified \(\d+ error\)$/,
    );
    expect(lines[1]).toMatch(/^exit 2: run could not be done: target unreachable/);
    for (const f of REPORT_FILE_NAMES) {
      expect(existsSync(join(out, f)), f).toBe(true);
    }
  });

  it('colours only on a TTY, and never with NO_COLOR', async () => {
    const args = [...unreachable, '--only', '2.2', '--quiet', '--out', join(dir, 'colour')];
    expect((await cli(args, {}, true)).stdout).toContain('\u001b[');
    expect((await cli(args, { NO_COLOR: '1' }, true)).stdout).not.toContain('\u001b[');
    expect((await cli(args, {}, false)).stdout).not.toContain('\u001b[');
  });
});

describe('--baseline through the runner (a fixture that does not echo the request id)', () => {
  const FAILING = '2.2/response-id-equals-request-id';
  const PASSING = '2.2/response-jsonrpc-version';
  let fx: Fixture;
  let target: string[];

  beforeAll(async () => {
    fx = await startFixture({ wrongId: 'not-your-id' });
    target = runArgv(fx.baseUrl, fx.agentId, fx.apiKey, '--only', `${FAILING},${PASSING}`);
    target.push('--seed', '3', '--runs', '2', '--quiet');
  });
  afterAll(async () => {
    await fx.close();
  });

  function baseline(name: string, ids: string[]): string {
    const path = join(dir, name);
    writeFileSync(path, JSON.stringify({ expectedFailures: ids }));
    return path;
  }

  it('exits 1 without a baseline (the MUST failure gates)', async () => {
    const r = await cli([...target, '--out', join(dir, 'b0')]);
    expect(r.code).toBe(1);
  }, 60_000);

  it('exits 0 when the failure is an expected one', async () => {
    const r = await cli([...target, '--out', join(dir, 'b1'), '--baseline', baseline('b1.json', [FAILING])]);
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toContain('exit 0: no new failure; 1 expected failure(s) of baseline');
  }, 60_000);

  it('exits 1 when a baseline entry now passes, so that it is removed', async () => {
    const r = await cli([
      ...target,
      '--out',
      join(dir, 'b2'),
      '--baseline',
      baseline('b2.json', [FAILING, PASSING]),
    ]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      /exit 1: 1 expected failure\(s\) of baseline .* now pass \(remove them\): 2\.2\/response-jsonrpc-version/,
    );
  }, 60_000);
});
