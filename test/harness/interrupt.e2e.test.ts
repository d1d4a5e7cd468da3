// `run` stopped by a signal, as a terminal's Ctrl+C or a CI cancel stops it: the CLI as a child
// process against the bundled reference server at a pace of 60 requests a minute. The first SIGINT
// keeps every verdict decided so far, marks the rest not-exercised, writes every report file with
// exitCode 130 and exits 130 within 10 s; SIGTERM does the same with 143; a second signal exits at once.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../../core/types.ts';
import { REPORT_FILE_NAMES } from '../support/report-files.ts';

const CLI = fileURLToPath(new URL('../../bin/a2a-conformance.js', import.meta.url));

interface Child {
  child: ChildProcess;
  out: () => string;
  exited: Promise<number | null>;
}

function runCli(args: string[]): Child {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  for (const key of Object.keys(env)) if (key.startsWith('A2A_') || key.startsWith('VITEST')) delete env[key];
  const child = spawn(process.execPath, [CLI, 'run', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  child.stdout!.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, out: () => text, exited };
}

async function until(test: () => boolean, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!test()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function report(dir: string): RunResult {
  return JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as RunResult;
}

describe('run interrupted by a signal', () => {
  const dirs: string[] = [];
  const children: ChildProcess[] = [];
  const outDir = (): string => {
    const dir = mkdtempSync(join(tmpdir(), 'a2a-interrupt-'));
    dirs.push(dir);
    return dir;
  };
  afterAll(() => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('SIGINT in a paced run: exit 130 within 10 s, the verdicts decided kept, the rest not-exercised, every report written', async () => {
    const dir = outDir();
    const run = runCli(['--rate', '60/m', '--out', dir]);
    children.push(run.child);
    // A suite file has finished: some verdicts are decided, most of the paced run is still ahead.
    await until(() => /\| total \d+: \d+ pass/.test(run.out()), 240_000, 'the first suite file to finish');
    const sent = Date.now();
    run.child.kill('SIGINT');
    const code = await run.exited;
    const tookMs = Date.now() - sent;
    expect(code, run.out()).toBe(130);
    expect(tookMs).toBeLessThan(10_000);
    expect(run.out()).toMatch(/SIGINT: stopping/);
    expect(run.out()).toMatch(/exit 130: interrupted \(SIGINT\)/);
    expect(readdirSync(dir).sort()).toEqual(REPORT_FILE_NAMES);
    const result = report(dir);
    expect(result.exitCode).toBe(130);
    expect(result.exitReason).toMatch(
      /^interrupted \(SIGINT\): \d+ requirement\(s\) decided, \d+ not exercised$/,
    );
    const verdicts = result.requirements.map((r) => r.verdict);
    // Decided before the signal: the reference server passes them. Nothing is an error or a failure.
    expect(verdicts.filter((v) => v === 'pass').length).toBeGreaterThan(0);
    expect(verdicts.filter((v) => v === 'error' || v === 'fail')).toEqual([]);
    const open = result.requirements.filter((r) => r.verdict === 'not-exercised');
    expect(open.length).toBeGreaterThan(result.requirements.length / 2);
    for (const r of open.filter((o) => o.checks.length === 0))
      expect(r.message, r.id).toMatch(/interrupted \(SIGINT\)/);
  }, 300_000);

  it('SIGTERM before the first check: exit 143, every requirement not-exercised, every report written', async () => {
    const dir = outDir();
    const run = runCli(['--rate', '60/m', '--only', '4.3/*', '--out', dir]);
    children.push(run.child);
    await until(() => run.out().includes('requirement(s)'), 120_000, 'the run to start');
    run.child.kill('SIGTERM');
    expect(await run.exited, run.out()).toBe(143);
    expect(readdirSync(dir).sort()).toEqual(REPORT_FILE_NAMES);
    const result = report(dir);
    expect(result.exitCode).toBe(143);
    expect(result.requirements.every((r) => r.verdict === 'not-exercised' || r.verdict === 'pass')).toBe(
      true,
    );
    expect(result.exitReason).toMatch(/^interrupted \(SIGTERM\)/);
  }, 180_000);

  it('a second SIGINT exits at once, without the reports', async () => {
    const dir = outDir();
    const run = runCli(['--rate', '60/m', '--out', dir]);
    children.push(run.child);
    // The suites have started: the first SIGINT leaves the checks under way their grace.
    await until(() => /^plan: /m.test(run.out()), 240_000, 'the plan');
    run.child.kill('SIGINT');
    await until(() => run.out().includes('SIGINT: stopping'), 10_000, 'the first SIGINT to be heard');
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(130);
    expect(run.out()).toMatch(/SIGINT again: exiting at once/);
    expect(existsSync(join(dir, 'report.json'))).toBe(false);
  }, 180_000);
});
