// Certifies one agent of a fleet in a process of its own (`a2a-conformance run`), so that an agent
// that hangs, refuses or crashes never stops the others: the process is killed by its group id at
// the agent's deadline. The credential travels in the child's environment (A2A_API_KEY/A2A_BEARER),
// never on its command line and never in a file.
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REPORT_FILES } from '../../reporters/index.ts';
import { withoutUserinfo } from '../../core/redaction.ts';
import { shellQuote } from '../reproduce.ts';
import { figuresOf, LOG_FILE, OPTIONS_FILE, readReportDocument, type ReportFigures } from './agent-report.ts';
import type { FleetAgentPlan } from './fleet-file.ts';

const CLI = fileURLToPath(new URL('../../bin/a2a-conformance.js', import.meta.url));
/** After SIGTERM, the time a killed run gets before SIGKILL. */
const TERM_GRACE_MS = 5_000;

/** Process groups of the runs under way, so that a fleet run that is stopped stops them too. */
const RUNNING = new Set<number>();

/** SIGKILL to every run under way (by process group): its runs were started detached. */
export function killRunningAgents(): void {
  for (const pgid of RUNNING) {
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  RUNNING.clear();
}

/**
 * Passes an interrupt on to every run under way (its main process, not its workers): each ends early,
 * keeps what it decided and writes its reports, as `run` does on Ctrl+C.
 */
export function interruptRunningAgents(signal: 'SIGINT' | 'SIGTERM'): void {
  for (const pid of RUNNING) {
    try {
      process.kill(pid, signal);
    } catch {
      // Already gone.
    }
  }
}

export interface AgentRunInput {
  plan: FleetAgentPlan;
  /** Absolute directory of the agent's reports. */
  dir: string;
  /** options.json as the fleet writes it (see optionsText()). */
  optionsText: string;
  /** `--rate` from the host's share, when its rate is split. */
  rate?: string;
  env: NodeJS.ProcessEnv;
}

export type AgentRunResult =
  ({ ran: true; wallMs: number } & ReportFigures) | { ran: false; wallMs: number; exitReason: string };

export function optionsText(plan: FleetAgentPlan): string {
  return `${JSON.stringify(plan.options, null, 2)}\n`;
}

/** The command that re-runs an agent's certification by hand (`dir` as the user would type it). */
export function commandFor(plan: FleetAgentPlan, dir: string): string {
  const cred =
    plan.apiKeyEnv !== undefined ? `A2A_API_KEY="$${plan.apiKeyEnv}"` : `A2A_BEARER="$${plan.bearerEnv}"`;
  const both = plan.apiKeyEnv !== undefined && plan.bearerEnv !== undefined;
  const parts = [cred, ...(both ? [`A2A_BEARER="$${plan.bearerEnv}"`] : [])];
  const secretHeaders = Object.entries(plan.secretHeadersEnv ?? {});
  if (secretHeaders.length > 0)
    parts.push(`A2A_SECRET_HEADERS=${secretHeaders.map(([n, v]) => `"${n}: $${v}"`).join("$'\\n'")}`);
  parts.push('npx a2a-conformance run');
  parts.push(
    `--config ${shellQuote(`${dir}/${OPTIONS_FILE}`)}`,
    `--target ${shellQuote(withoutUserinfo(plan.target))}`,
  );
  parts.push(`--agent-id ${shellQuote(plan.agentId)}`, `--out ${shellQuote(dir)}`);
  return parts.join(' ');
}

/** The child's environment: no A2A_* of the fleet's own (the fleet file says everything), the credential. */
function childEnv(plan: FleetAgentPlan, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv | string {
  const out: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(env)) if (!/^(A2A_|VITEST)/.test(k)) out[k] = v;
  out.NO_COLOR = '1';
  for (const [name, variable] of [
    ['A2A_API_KEY', plan.apiKeyEnv],
    ['A2A_BEARER', plan.bearerEnv],
  ] as const) {
    if (variable === undefined) continue;
    const value = env[variable];
    if (value === undefined || value === '')
      return `environment variable ${variable} (its credential) is not set`;
    out[name] = value;
  }
  // Secret headers travel like the credential: in the child's environment, one `Name: value` a line.
  const lines: string[] = [];
  for (const [header, variable] of Object.entries(plan.secretHeadersEnv ?? {})) {
    const value = env[variable];
    if (value === undefined || value === '')
      return `environment variable ${variable} (the value of header ${header}) is not set`;
    lines.push(`${header}: ${value}`);
  }
  if (lines.length > 0) out.A2A_SECRET_HEADERS = lines.join('\n');
  return out;
}

export async function runAgent(input: AgentRunInput): Promise<AgentRunResult> {
  const { plan, dir } = input;
  const started = performance.now();
  const env = childEnv(plan, input.env);
  if (typeof env === 'string') return { ran: false, wallMs: 0, exitReason: `not run: ${env}` };
  mkdirSync(dir, { recursive: true });
  // An earlier run's reports must never pass for this one's.
  for (const file of [...Object.keys(REPORT_FILES), LOG_FILE]) rmSync(join(dir, file), { force: true });
  writeFileSync(join(dir, OPTIONS_FILE), input.optionsText);
  const args = [CLI, 'run', '--config', join(dir, OPTIONS_FILE), '--target', plan.target];
  args.push('--agent-id', plan.agentId, '--out', dir, '--quiet');
  if (input.rate !== undefined) args.push('--rate', input.rate);
  const exit = await spawnKilledAt(args, env, join(dir, LOG_FILE), plan.killAfterMs);
  const wallMs = Math.round(performance.now() - started);
  if (exit.killed) {
    return { ran: false, wallMs, exitReason: `not run: killed after ${plan.killAfterMs} ms (killAfterMs)` };
  }
  const report = readReportDocument(dir);
  if (report?.compliance === undefined) {
    const how = exit.signal !== null ? `ended by ${exit.signal}` : `exited ${exit.code}`;
    return {
      ran: false,
      wallMs,
      exitReason: `not run: the run ${how} without a report.json (see ${LOG_FILE})`,
    };
  }
  return { ran: true, wallMs, ...figuresOf(report) };
}

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  killed: boolean;
}

function spawnKilledAt(
  args: string[],
  env: NodeJS.ProcessEnv,
  log: string,
  killAfterMs: number,
): Promise<Exit> {
  return new Promise((resolve) => {
    const out = createWriteStream(log);
    // Its own process group, so the kill reaches its vitest worker too.
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    if (child.pid !== undefined) RUNNING.add(child.pid);
    child.stdout.pipe(out, { end: false });
    child.stderr.pipe(out, { end: false });
    let killed = false;
    const kill = (signal: NodeJS.Signals): void => {
      try {
        process.kill(-child.pid!, signal);
      } catch {
        // The group is gone already.
      }
    };
    let hard: NodeJS.Timeout | undefined;
    const soft = setTimeout(() => {
      killed = true;
      kill('SIGTERM');
      hard = setTimeout(() => kill('SIGKILL'), TERM_GRACE_MS);
    }, killAfterMs);
    let settled = false;
    const settle = (code: number | null, signal: NodeJS.Signals | null, note = ''): void => {
      if (settled) return;
      settled = true;
      if (child.pid !== undefined) RUNNING.delete(child.pid);
      clearTimeout(soft);
      clearTimeout(hard);
      // A leftover worker of the group would hold the agent's ports and memory.
      if (killed) kill('SIGKILL');
      out.end(note, () => resolve({ code, signal, killed }));
    };
    child.once('error', (error) => settle(null, null, `\nfailed to start: ${error.message}\n`));
    child.once('close', (code, signal) => settle(code, signal));
  });
}
