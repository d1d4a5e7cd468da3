// Runs the user's client driver once for a scenario (C-76): its own process group, the scenario's
// environment, stdout and stderr kept up to a cap, and a budget after which the whole group is killed,
// so a driver that never exits (or leaves children behind) can never hold the harness.
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import type { DriverOutcome } from './client-evidence.ts';

// Why a cap: a driver prints a few lines; a runaway one must not fill the harness's memory.
const MAX_OUTPUT_CHARS = 64 * 1024;
/** How long to wait for the pipes to close once the driver has exited. */
const DRAIN_MS = 500;

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // the group is already gone
  }
}

export function runDriver(
  command: readonly string[],
  env: Record<string, string>,
  budgetMs: number,
): Promise<DriverOutcome> {
  const started = performance.now();
  return new Promise((resolve) => {
    const outcome: DriverOutcome = {
      exitCode: null,
      signal: null,
      killed: false,
      stdout: '',
      stderr: '',
      durationMs: 0,
    };
    const child = spawn(command[0]!, command.slice(1), {
      env: { ...process.env, ...env },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const keep = (key: 'stdout' | 'stderr') => (chunk: Buffer) => {
      if (outcome[key].length < MAX_OUTPUT_CHARS)
        outcome[key] += chunk.toString('utf8').slice(0, MAX_OUTPUT_CHARS - outcome[key].length);
    };
    child.stdout.on('data', keep('stdout'));
    child.stderr.on('data', keep('stderr'));
    const budget = setTimeout(() => {
      outcome.killed = true;
      killGroup(child.pid);
    }, budgetMs);
    let settled = false;
    const finish = (): void => {
      if (settled) return;
      settled = true;
      clearTimeout(budget);
      outcome.durationMs = Math.round(performance.now() - started);
      resolve(outcome);
    };
    child.on('error', (e) => {
      outcome.spawnError = `cannot start ${command[0]}: ${e.message}`;
      finish();
    });
    child.on('exit', (code, signal) => {
      outcome.exitCode = code;
      outcome.signal = signal;
      // Children the driver left behind belong to its group: they go with it.
      killGroup(child.pid);
      const drained = setTimeout(finish, DRAIN_MS);
      child.on('close', () => {
        clearTimeout(drained);
        finish();
      });
    });
  });
}
