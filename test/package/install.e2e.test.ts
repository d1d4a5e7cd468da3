// The package as a user gets it: `npm pack` (prepack builds the JavaScript entry points and the
// declarations, postpack removes them) in a copy of the package's files, then `npm install <tarball>`
// into an empty directory (--prefer-offline: the cache `npm ci` filled serves it), then the CLI
// (`npx a2a-conformance run --only '1/*'`, --version, explain, serve), the API from a plain .mjs
// file with no loader, and a TypeScript consumer type-checked against the shipped declarations.
// One test: each step needs the one before, and together they take one to two minutes. And
// `npm pack --dry-run --json` prints only npm's JSON on stdout (the build's own lines go to stderr).
import { execFile, spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../schemas/error-codes.ts';
import { validate } from '../../schemas/registry.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PKG = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  version: string;
  files: string[];
};
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');
const work = mkdtempSync(join(tmpdir(), 'a2a-package-'));

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** The environment of a user's shell: no A2A_* option, none of the npm script variables of `npm test`. */
function userEnv(): NodeJS.ProcessEnv {
  const keep = Object.entries(process.env).filter(
    ([k]) => !k.startsWith('A2A_') && !k.startsWith('npm_lifecycle_') && !k.startsWith('npm_package_'),
  );
  return { ...Object.fromEntries(keep), CI: 'true', NO_COLOR: '1' };
}

function sh(command: string, args: string[], cwd: string, timeout = 240_000): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd, env: userEnv(), timeout, maxBuffer: 64 << 20 }, (err, stdout, stderr) => {
      const code = err === null ? 0 : typeof err.code === 'number' ? err.code : 1;
      resolve({ code, stdout, stderr });
    });
  });
}

const shown = (r: Ran): string => `exit ${r.code}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`;

/** A copy of what `npm pack` reads, so that the build it runs never touches the work tree. */
function copyPackageSources(name = 'source'): string {
  const dir = join(work, name);
  mkdirSync(dir);
  const entries = [
    ...PKG.files,
    'package.json',
    'README.md',
    'tsconfig.build.json',
    'scripts/build-package.mjs',
  ];
  for (const entry of entries) {
    const from = join(ROOT, entry);
    if (existsSync(from)) cpSync(from, join(dir, entry), { recursive: true });
  }
  // typescript, for the prepack build.
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return dir;
}

/**
 * `serve` from the installed package: reads its first lines (base URL, agent, API key), sends one
 * JSON-RPC request, then stops the server by its PID.
 */
async function serveOnce(cwd: string): Promise<unknown> {
  const bin = join(cwd, 'node_modules/a2a-conformance/bin/a2a-conformance.js');
  const child = spawn(process.execPath, [bin, 'serve', '--host', '127.0.0.1', '--port', '0'], {
    cwd,
    env: userEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    const lines = await new Promise<string[]>((resolve, reject) => {
      let text = '';
      child.stdout.on('data', (chunk: Buffer) => {
        text += chunk.toString('utf8');
        const got = text.split('\n');
        if (got.length > 3) resolve(got.slice(0, 3));
      });
      child.once('exit', (code) => reject(new Error(`serve exited ${code} before its first lines: ${text}`)));
    });
    const [baseUrl, agent, key] = [
      lines[0]!,
      lines[1]!.replace(/^agent /, ''),
      lines[2]!.replace(/^api-key /, ''),
    ];
    const answer = await fetch(`${baseUrl}/api/v1/a2a/${agent}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 'r1',
        method: 'tasks/get',
        params: { taskId: 'no-such-task' },
      }),
    });
    return await answer.json();
  } finally {
    child.kill();
    await exited;
  }
}

const API_CHECK = `
import { runConformance, TOOL } from 'a2a-conformance';
import { startReferenceServer } from 'a2a-conformance/reference-server';

const key = 'k'.repeat(32);
const server = await startReferenceServer({ host: '127.0.0.1', port: 0, agents: [{ id: 'a', apiKeys: [key] }] });
try {
  const result = await runConformance({
    target: server.baseUrl, agentId: 'a', apiKey: key, only: '1/json-rpc-over-http', out: 'api-reports', runs: 5,
  });
  const verdicts = result.requirements.map((r) => [r.id, r.verdict]);
  console.log(JSON.stringify({ exitCode: result.exitCode, verdicts, ledger: TOOL.ledger }));
} finally {
  await server.close();
}
`;

const TS_CONSUMER = `
import { runConformance, type RunResult, type Verdict } from 'a2a-conformance';
import { startReferenceServer, type ReferenceServer } from 'a2a-conformance/reference-server';

const server: ReferenceServer = await startReferenceServer({ port: 0 });
const result: RunResult = await runConformance({ target: server.baseUrl, agentId: 'a', apiKey: 'k', out: null });
const code: 0 | 1 | 2 | 130 | 143 = result.exitCode;
const first: Verdict | undefined = result.requirements[0]?.verdict;
export { code, first };
`;

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the packed package', () => {
  it('installs from its tarball and certifies from the CLI, the API in plain Node, and TypeScript', async () => {
    // Pack: built entry points and declarations in, the project's own tests and tools out.
    const source = copyPackageSources();
    const packed = await sh('npm', ['pack', '--pack-destination', work], source);
    expect(packed.code, shown(packed)).toBe(0);
    const tarball = join(work, `a2a-conformance-${PKG.version}.tgz`);
    const listing = await sh('tar', ['tzf', tarball], work);
    const files = listing.stdout.split('\n').filter((f) => f !== '');
    const top = new Set(files.map((f) => f.split('/')[1]));
    for (const gone of ['test', 'bench', 'reliability', 'mutants', 'scripts', '.ci'])
      expect(top).not.toContain(gone);
    for (const needed of [
      'bin/a2a-conformance.js',
      'harness/index.js',
      'harness/index.ts',
      'types/harness/index.d.ts',
      'reference-server/index.js',
      'types/reference-server/index.d.ts',
      'suites/vitest.config.ts',
      'spec/a2a-jsonrpc-service.md',
      'CLARIFICATIONS.md',
      'schemas/report.schema.json',
      'reporters/html/page.js',
    ]) {
      expect(files).toContain(`package/${needed}`);
    }
    // postpack leaves the sources as they were.
    expect(existsSync(join(source, 'harness/index.js'))).toBe(false);
    expect(existsSync(join(source, 'types'))).toBe(false);

    // Install into an empty project.
    const user = join(work, 'user');
    mkdirSync(user);
    writeFileSync(
      join(user, 'package.json'),
      '{ "name": "user-project", "private": true, "type": "module" }\n',
    );
    const installed = await sh(
      'npm',
      ['install', tarball, '--prefer-offline', '--no-audit', '--no-fund'],
      user,
    );
    expect(installed.code, shown(installed)).toBe(0);

    // The CLI, as the README shows it. The ledger is the one packed (the work tree may change meanwhile).
    const run = await sh(
      'npx',
      ['a2a-conformance', 'run', '--only', '1/*', '--out', 'reports', '--runs', '5'],
      user,
    );
    expect(run.code, shown(run)).toBe(0);
    const report = JSON.parse(readFileSync(join(user, 'reports/report.json'), 'utf8')) as {
      tool: { ledger: { hash: string; requirements: number } };
      requirements: { id: string; verdict: string }[];
    };
    expect(validate('report', report)).toEqual({ valid: true });
    const ledger = report.tool.ledger;
    expect(ledger.hash).toMatch(/^[0-9a-f]{12}$/);
    const version = await sh('npx', ['a2a-conformance', '--version'], user);
    expect(version.stdout.trim(), shown(version)).toBe(
      `${PKG.version}, ledger ${ledger.hash} (${ledger.requirements} requirements)`,
    );
    expect(report.requirements.length).toBeGreaterThan(0);
    expect(report.requirements.filter((r) => r.verdict !== 'pass')).toEqual([]);

    // explain reads the spec, CLARIFICATIONS.md and the suites from the package.
    const explained = await sh(
      'npx',
      ['a2a-conformance', 'explain', '2.2/response-id-equals-request-id'],
      user,
    );
    expect(explained.code, shown(explained)).toBe(0);
    expect(explained.stdout).toMatch(/line \d+: .*Equals the request `id`/);
    expect(explained.stdout).toMatch(/C-13 Id types/);
    expect(explained.stdout).toMatch(/checks \([1-9]\d*\):/);

    // serve: the reference server from the package answers JSON-RPC.
    expect(await serveOnce(user)).toMatchObject({
      jsonrpc: '2.0',
      id: 'r1',
      error: { code: ERROR_CODES.TASK_NOT_FOUND },
    });

    // The API from plain Node: no tsx, no loader; the reporters write every file from JavaScript.
    writeFileSync(join(user, 'api.mjs'), API_CHECK);
    const api = await sh(process.execPath, ['api.mjs'], user);
    expect(api.code, shown(api)).toBe(0);
    const apiHtml = readFileSync(join(user, 'api-reports/report.html'), 'utf8');
    expect(apiHtml).toContain('1/json-rpc-over-http');
    expect(
      validate('report', JSON.parse(readFileSync(join(user, 'api-reports/report.json'), 'utf8'))),
    ).toEqual({
      valid: true,
    });
    expect(JSON.parse(api.stdout.trim().split('\n').at(-1)!)).toEqual({
      exitCode: 0,
      verdicts: [['1/json-rpc-over-http', 'pass']],
      ledger,
    });

    // TypeScript: the declarations type-check in strict mode and no shipped .ts source is read.
    writeFileSync(join(user, 'consumer.mts'), TS_CONSUMER);
    const tsconfig = {
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        noEmit: true,
        skipLibCheck: false,
        types: ['node'],
        typeRoots: [join(ROOT, 'node_modules/@types')],
      },
      files: ['consumer.mts'],
    };
    writeFileSync(join(user, 'tsconfig.json'), JSON.stringify(tsconfig));
    const tsc = await sh(process.execPath, [TSC, '-p', '.', '--listFiles'], user);
    expect(tsc.code, shown(tsc)).toBe(0);
    const read = tsc.stdout.split('\n').filter((f) => f.includes('node_modules/a2a-conformance/'));
    expect(read.length).toBeGreaterThan(0);
    expect(read.filter((f) => !f.endsWith('.d.ts'))).toEqual([]);
  }, 600_000);
});

describe('npm pack --json', () => {
  it('prints only JSON on stdout, with the built entry points in the listing', async () => {
    const source = copyPackageSources('source-dry-run');
    const packed = await sh('npm', ['pack', '--dry-run', '--json'], source);
    expect(packed.code, shown(packed)).toBe(0);
    const listing = JSON.parse(packed.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
    expect(listing.map((p) => p.filename)).toEqual([`a2a-conformance-${PKG.version}.tgz`]);
    const paths = listing[0]!.files.map((f) => f.path);
    expect(paths).toContain('harness/index.js');
    expect(paths).toContain('types/harness/index.d.ts');
    // prepack built them and said so, on stderr; postpack removed them again.
    expect(packed.stderr).toMatch(/built \d+ file\(s\) beside the sources/);
    expect(packed.stderr).toMatch(/removed \d+ built file\(s\)/);
    expect(existsSync(join(source, 'harness/index.js'))).toBe(false);
  }, 300_000);
});
