// Outputs are checked before the first request (harness/output-dir.ts): --out naming a file, a path
// under a file, a report file that is a directory, a baseline that cannot be read. Each mode (run,
// receiver, client, fleet run, fleet merge) exits 2 naming the fix, and a counting loopback target
// proves no request reached it.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkOutputDir, checkOutputFile, describeWriteError } from '../../harness/output-dir.ts';
import { ConfigError } from '../../harness/options.ts';
import { runArgv, runCli } from '../support/cli-run.ts';

const dir = mkdtempSync(join(tmpdir(), 'a2a-output-dir-'));
const aFile = join(dir, 'a-file');
writeFileSync(aFile, 'not a directory');

let server: Server;
let url = '';
let requests = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    requests += 1;
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"jsonrpc":"2.0","id":null,"result":{}}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

const cli = (args: string[]) => runCli(args, { env: { FLEET_KEY: 'fleet-key-123' } });
/** `run` against the counting target, writing to `out`. */
const runTo = (out: string) => cli(runArgv(url, 'a', 'key-123', '--out', out));

describe('checkOutputDir', () => {
  it('creates a missing directory and accepts it', () => {
    const made = join(dir, 'new/deeper');
    expect(checkOutputDir(made, '--out', ['report.json'])).toBe(made);
    expect(existsSync(made)).toBe(true);
  });

  it('refuses a file, a path under a file, and a report file that is a directory', () => {
    expect(() => checkOutputDir(aFile, '--out')).toThrow(ConfigError);
    expect(() => checkOutputDir(aFile, '--out')).toThrow(
      /--out .*a-file is a file, not a directory: give --out a directory/,
    );
    expect(() => checkOutputDir(join(aFile, 'sub'), '--out')).toThrow(
      /--out .*a-file\/sub cannot be made: .*a-file is a file, not a directory/,
    );
    const taken = join(dir, 'taken');
    mkdirSync(join(taken, 'report.json'), { recursive: true });
    expect(() => checkOutputDir(taken, '--out', ['report.json'])).toThrow(
      /report\.json there is a directory, so the report cannot be written/,
    );
  });

  it('checks an option that names one file: its directory made, a directory or a path under a file refused', () => {
    const file = join(dir, 'events/run.ndjson');
    expect(checkOutputFile(file, '--events')).toBe(file);
    expect(existsSync(join(dir, 'events'))).toBe(true);
    expect(() => checkOutputFile(dir, '--events')).toThrow(
      /--events .* is a directory: give --events a file/,
    );
    expect(() => checkOutputFile(join(aFile, 'run.ndjson'), '--events')).toThrow(
      /--events .*a-file\/run\.ndjson cannot be made: .*a-file is a file, not a directory$/,
    );
  });

  it('names the reason of a failed write and the fix', () => {
    const ro = Object.assign(new Error('EROFS: read-only file system'), { code: 'EROFS' });
    expect(describeWriteError(ro, '--out', '/mnt/ro/reports')).toBe(
      '--out /mnt/ro/reports cannot be written (read-only file system): give --out a directory you can write, e.g. --out ./reports',
    );
    const denied = Object.assign(new Error('EACCES'), { code: 'EACCES' });
    expect(describeWriteError(denied, '--out', 'r')).toMatch(/\(permission denied\)/);
    expect(describeWriteError(new Error('odd'), '--out', 'r')).toMatch(/\(odd\)/);
  });
});

describe('every mode checks its outputs before the first request', () => {
  it('run --out <file>: exit 2 naming the fix, no request sent', async () => {
    const before = requests;
    const r = await runTo(aFile);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/error: --out .*a-file is a file, not a directory: give --out a directory/);
    expect(r.stderr).not.toMatch(/harness error|\n\s+at /);
    expect(requests).toBe(before);
  });

  it('run --out under a file: exit 2, no request sent', async () => {
    const before = requests;
    const r = await runTo(join(aFile, 'x'));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/cannot be made: .*a-file is a file/);
    expect(requests).toBe(before);
  });

  it('receiver --out <file> and --baseline missing: exit 2, no delivery sent', async () => {
    const before = requests;
    const r = await cli(['receiver', '--url', url, '--out', aFile]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--out .*is a file, not a directory/);
    const b = await cli([
      'receiver',
      '--url',
      url,
      '--out',
      join(dir, 'rcv'),
      '--baseline',
      join(dir, 'nope.json'),
    ]);
    expect(b.code).toBe(2);
    expect(b.stderr).toMatch(/cannot read baseline .*nope\.json/);
    expect(requests).toBe(before);
  });

  it('client --out <file>: exit 2, the driver never runs', async () => {
    const mark = join(dir, 'driver-ran');
    const driver = `require('fs').writeFileSync(${JSON.stringify(mark)}, 'x')`;
    const r = await cli(['client', '--out', aFile, '--', process.execPath, '-e', driver]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--out .*is a file, not a directory/);
    expect(existsSync(mark)).toBe(false);
  });

  it('fleet run and fleet merge --out <file>: exit 2, no agent run', async () => {
    const fleet = join(dir, 'fleet.json');
    writeFileSync(
      fleet,
      JSON.stringify({ agents: [{ name: 'one', target: url, agentId: 'a', apiKeyEnv: 'FLEET_KEY' }] }),
    );
    const before = requests;
    const r = await cli(['fleet', 'run', '--fleet', fleet, '--out', aFile]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--out .*is a file, not a directory/);
    // An agent's own directory that cannot be made is found before any agent runs, too.
    const shard = join(dir, 'shard');
    mkdirSync(shard, { recursive: true });
    writeFileSync(join(shard, 'one'), 'a file where the agent directory goes');
    const under = await cli(['fleet', 'run', '--fleet', fleet, '--out', shard]);
    expect(under.code).toBe(2);
    expect(under.stderr).toMatch(/one is a file, not a directory/);
    expect(requests).toBe(before);
    const m = await cli(['fleet', 'merge', shard, '--out', aFile]);
    expect(m.code).toBe(2);
    expect(m.stderr).toMatch(/--out .*is a file, not a directory/);
  });
});
