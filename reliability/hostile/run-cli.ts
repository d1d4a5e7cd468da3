// Runs `a2a-conformance run` as a child process against a target and measures it from outside:
// exit code, wall time, peak RSS of the CLI and of its worker, and the report.json it wrote. A CLI
// still alive at the kill deadline is killed and reported, never waited for.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import type { RunResult } from '../../core/types.ts';
import { RssSampler, type TreeRss } from './process-rss.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MAIN = fileURLToPath(new URL('../../harness/cli/main.ts', import.meta.url));

export interface CliRun {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  /** True when the CLI outlived killAfterMs and was killed. */
  killed: boolean;
  wallMs: number;
  rss: TreeRss;
  out: string;
  /** The parsed report.json, when one was written. */
  report?: RunResult;
  reportError?: string;
  /** The last lines the CLI printed. */
  tail: string;
}

export interface CliRunOptions {
  target: { baseUrl: string; agentId: string; apiKey: string };
  args: string[];
  killAfterMs: number;
}

function readReport(out: string): Pick<CliRun, 'report' | 'reportError'> {
  const file = join(out, 'report.json');
  if (!existsSync(file)) return { reportError: 'no report.json' };
  try {
    return { report: JSON.parse(readFileSync(file, 'utf8')) as RunResult };
  } catch (e) {
    return { reportError: `report.json does not parse: ${(e as Error).message}` };
  }
}

export function runCli(opts: CliRunOptions): Promise<CliRun> {
  const out = mkdtempSync(join(tmpdir(), 'a2a-hostile-'));
  const { baseUrl, agentId, apiKey } = opts.target;
  const args = ['--import', 'tsx', MAIN, 'run', '--target', baseUrl, '--agent-id', agentId];
  args.push('--api-key', apiKey, '--out', out, '--quiet', ...opts.args);
  const t0 = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: '1', A2A_WEBHOOK_LISTEN: '127.0.0.1:0' },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so a kill reaches the vitest worker too.
    detached: true,
  });
  const sampler = new RssSampler(child.pid!);
  let tail = '';
  const keep = (chunk: Buffer): void => {
    tail = (tail + chunk.toString('utf8')).slice(-4000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  let killed = false;
  const killer = setTimeout(() => {
    killed = true;
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      child.kill('SIGKILL');
    }
  }, opts.killAfterMs);
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      clearTimeout(killer);
      const wallMs = Math.round(performance.now() - t0);
      const rss = sampler.stop();
      resolve({ exitCode: code, signal, killed, wallMs, rss, out, tail, ...readReport(out) });
    });
  });
}
