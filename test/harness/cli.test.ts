// The CLI as a user runs it (node bin/a2a-conformance.js): help, version, list, explain, bad flags
// (exit 2) and option precedence flags > env > config file, observed through the probed target.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { formatLedgerVersion, LEDGER_VERSION } from '../../requirements/index.ts';
import { runCli } from '../support/cli-run.ts';
import { closedPort } from './fixtures/jsonrpc-fixture.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = join(ROOT, 'bin/a2a-conformance.js');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI with a clean A2A_* environment plus `env`. */
function cli(args: string[], env: Record<string, string> = {}): Promise<Ran> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('A2A_')));
  return new Promise((resolve) => {
    execFile(
      'node',
      [BIN, ...args],
      { cwd: ROOT, env: { ...clean, ...env }, timeout: 60_000 },
      (err, stdout, stderr) => {
        const code = err === null ? 0 : typeof err.code === 'number' ? err.code : -1;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** The same CLI in-process (no tsx start-up per case). */
const inProcess = (args: string[]): Promise<Ran> => runCli(args);

describe.concurrent('a2a-conformance CLI', () => {
  it('prints help with every run option', async () => {
    const r = await cli(['run', '--help']);
    expect(r.code).toBe(0);
    for (const flag of [
      '--target',
      '--agent-id',
      '--api-key',
      '--bearer',
      '--out',
      '--level',
      '--only',
      '--webhook-listen',
      '--webhook-public-url',
      '--timeout-ms',
      '--seed',
      '--runs',
      '--baseline',
      '--evidence',
      '--config',
    ]) {
      expect(r.stdout).toContain(flag);
    }
  });

  it('prints the package version and the ledger version', async () => {
    const r = await cli(['--version']);
    expect(r).toMatchObject({ code: 0 });
    expect(r.stdout.trim()).toBe(`${VERSION}, ${formatLedgerVersion(LEDGER_VERSION)}`);
  });

  it('prints the version after a command too', async () => {
    for (const args of [
      ['run', '--version'],
      ['fleet', 'run', '-V'],
    ]) {
      const r = await inProcess(args);
      expect(`${args.join(' ')}: ${r.code} ${r.stdout.trim()}`).toBe(
        `${args.join(' ')}: 0 ${VERSION}, ${formatLedgerVersion(LEDGER_VERSION)}`,
      );
    }
  });

  // An API key is random base64url: one in 4,096 begins with `-V`. Read as the program's --version,
  // the run printed the version and exited 0 with no report: a green CI job that certified nothing.
  it.each([['-V'], ['-Vq3x'], ['-h'], ['--version']])(
    'takes %j after a value option as its value, not as the program option',
    async (key) => {
      const r = await inProcess(['run', '--api-key', key, '--only', 'no-such-section/*']);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/--only no-such-section\/\* matches no requirement/);
      expect(r.stdout).not.toContain(VERSION);
    },
  );

  it('exits 2 on an unknown flag, as a process', async () => {
    const r = await cli(['run', '--bogus']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown option '--bogus'/);
  });

  it.each([
    [['run', '--bogus'], /unknown option '--bogus'/],
    [['run', '--level', 'strict'], /Allowed choices are must, should, all/],
    [['run', '--timeout-ms', 'soon'], /timeoutMs must be an integer/],
    [['run', '--target', 'http://127.0.0.1:1'], /needs --agent-id/],
    [['run', '--only', 'no-such-section/*'], /--only no-such-section\/\* matches no requirement/],
    // A typo beside a good glob is refused with the nearest ids, never dropped in silence.
    [
      ['run', '--only', '4.3/*,4.4/cancel-completed-task'],
      /--only 4.4\/cancel-completed-task matches no requirement; did you mean 4.4\/cancel-completed-task-code, /,
    ],
    [['run', '--only', '4.44'], /--only 4.44 matches no requirement; did you mean 4.4, /],
    [
      ['list', '--only', '4.3/*,4.4/cancle*'],
      /--only 4.4\/cancle\* matches no requirement; did you mean 4.4\/cancel-/,
    ],
    [
      ['run', '--target', 'https://agents.example/gw?tenant=7', '--agent-id', 'a', '--api-key', 'k'],
      /--target \(A2A_TARGET\) is a base URL the harness adds paths to, so it cannot carry a query string/,
    ],
    [
      ['run', '--target', 'https://user:pw-1@agents.example/gw?x', '--agent-id', 'a', '--api-key', 'k'],
      /cannot carry a query string \(\?\.\.\.\): got "https:\/\/\[redacted\]@agents\.example\/gw\?x"/,
    ],
    [
      ['run', '--target', 'https://agents.example/gw#top', '--agent-id', 'a', '--api-key', 'k'],
      /--target \(A2A_TARGET\) .* cannot carry a fragment/,
    ],
    [['frobnicate'], /unknown command/],
  ])('exits 2 with a clear message for %j', async (args, message) => {
    const r = await inProcess(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });

  it('lists requirements with their checks', async () => {
    const r = await inProcess(['list', '--only', '2.2/response-id-equals-request-id']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('2.2/response-id-equals-request-id  MUST');
    expect(r.stdout).toContain('check: a success response echoes the string id');
    // A cold declaration cache collects every suite file first: tens of seconds on a loaded runner.
  }, 90_000);

  it('lists them as one JSON document with --json, and nothing else on stdout', async () => {
    const r = await inProcess(['list', '--json', '--only', '2.2/response-id-equals-request-id']);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as {
      requirements: Array<{
        id: string;
        level: string;
        role: string;
        checks: Array<{ title: string; file: string }>;
      }>;
      total: number;
      covered: number;
    };
    expect(doc.total).toBe(1);
    expect(doc.covered).toBe(1);
    expect(doc.requirements[0]).toMatchObject({
      id: '2.2/response-id-equals-request-id',
      level: 'MUST',
      role: 'service',
    });
    expect(doc.requirements[0]!.checks.map((c) => c.title)).toContain(
      'a success response echoes the string id',
    );
  }, 90_000);

  it('says why a check is filed in another section than its requirement, in list --json and explain', async () => {
    const r = await inProcess(['list', '--json', '--only', '6/no-delivery-without-config']);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as {
      requirements: Array<{ checks: Array<{ file: string; crossSection?: string }> }>;
    };
    const [check] = doc.requirements[0]!.checks;
    expect(check).toMatchObject({
      file: 'suites/02-11-webhook-config/no-config.test.ts',
      crossSection: 'must run before any file sets an agent-level configuration',
    });
    // A check in its own section's folder says nothing of the kind.
    const own = await inProcess(['list', '--json', '--only', '2.2/response-id-equals-request-id']);
    expect(JSON.stringify(JSON.parse(own.stdout))).not.toContain('crossSection');
    const explained = await inProcess(['explain', '6/no-delivery-without-config']);
    expect(explained.stdout).toContain(
      '(suites/02-11-webhook-config/no-config.test.ts: must run before any file sets an agent-level configuration)',
    );
  }, 90_000);

  it('explains a requirement with its rulings and checks', async () => {
    const r = await inProcess(['explain', '2.2/response-id-equals-request-id']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('C-13 Id types');
    expect(r.stdout).toContain('checks (2)');
    const bad = await inProcess(['explain', 'nope/nothing']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("unknown requirement id 'nope/nothing'");
    const typo = await inProcess(['explain', 'cancel-race']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain(
      "unknown requirement id 'cancel-race'; did you mean 4.4/cancel-race-consistent, ",
    );
  }, 90_000);

  it('explains a requirement down to its reference-server code, mutants and legal variants', async () => {
    const r = await inProcess(['explain', '4.4/cancel-completed-task-code']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/reference server \(\d+\):\n {2}reference-server\/methods\/tasks-cancel\.ts\n/);
    expect(r.stdout).toContain(
      'mutants (2), each must make the harness fail or warn here:\n  4-4-cancel-completed-task-code--answers-32002  (mutants/variants/cancel.ts)',
    );
    const legal = r.stdout.slice(r.stdout.indexOf('legal variants ('));
    expect(legal).toContain('\n  cancel-finished-task-answers-32000  (mutants/legal/ruled-choices.ts)');
    // It loads every mutant and legal variant module: as long as the other explains on a loaded runner.
  }, 90_000);

  it("refuses a bad serve --port with the reference server's own port rule", async () => {
    for (const port of ['abc', '70000', '']) {
      const r = await inProcess(['serve', '--port', port]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`port: must be an integer from 0 to 65535 (got ${JSON.stringify(port)})`);
    }
  });

  it('takes flags over env over the config file', async () => {
    const [fromFile, fromEnv, fromFlag] = await Promise.all([closedPort(), closedPort(), closedPort()]);
    const dir = mkdtempSync(join(tmpdir(), 'a2a-cli-'));
    const config = join(dir, 'config.json');
    writeFileSync(
      config,
      JSON.stringify({ target: `http://127.0.0.1:${fromFile}`, agentId: 'a', apiKey: 'k', out: dir }),
    );
    const env = { A2A_TARGET: `http://127.0.0.1:${fromEnv}` };
    const runs = await Promise.all([
      cli(['run', '--config', config]),
      cli(['run', '--config', config], env),
      cli(['run', '--config', config, '--target', `http://127.0.0.1:${fromFlag}`], env),
    ]);
    expect(runs.map((r) => r.code)).toEqual([2, 2, 2]);
    expect(runs[0]!.stdout).toContain(`127.0.0.1:${fromFile} agent a`);
    expect(runs[1]!.stdout).toContain(`127.0.0.1:${fromEnv} agent a`);
    expect(runs[2]!.stdout).toContain(`127.0.0.1:${fromFlag} agent a`);
    expect(runs[2]!.stdout).toContain('run could not be done: target unreachable');
  });
});
