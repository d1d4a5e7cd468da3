// `fleet run`: certifies every agent of one shard of a fleet file, `parallel` at a time within each
// host's pacing, each in a process of its own, and writes `<out>/<name>/` (its report files) and
// `<out>/shard.json`. A complete report from an earlier run of the shard is kept unless `force`.
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPORT_FILES } from '../../reporters/index.ts';
import { COMPLIANCE_LABELS, formatScore } from '../../reporters/score.ts';
import type { FleetAgentOutcome, FleetExitCode, FleetShard } from '../../schemas/generated/types.ts';
import { checkOutputDir } from '../output-dir.ts';
import { TOOL } from '../runner/tool.ts';
import { interruptedBy, interruptionOf, type Interruption } from '../../core/interrupt.ts';
import { completeReport, type ReportFigures } from './agent-report.ts';
import { commandFor, optionsText, runAgent, type AgentRunResult } from './agent-run.ts';
import { loadFleet, type Fleet, type FleetAgentPlan } from './fleet-file.ts';
import { planPacing } from './pacing.ts';
import { runKeyed } from '../pool.ts';
import { inShard, type ShardId } from './shard.ts';

export const SHARD_FILE = 'shard.json';
export const SHARD_SCHEMA_ID = 'https://a2a-conformance.dev/schemas/fleet-shard.schema.json';

/** `fleet run`'s options (a fleet file's run options are the generated FleetRunOptions). */
export interface ShardRunOptions {
  fleetFile: string;
  shard: ShardId;
  /** Agents at once; default from the machine's cores and memory and the hosts' limits. */
  parallel?: number;
  out: string;
  /** Run agents again even when their report is complete. */
  force?: boolean;
  env: NodeJS.ProcessEnv;
  log?: (line: string) => void;
  /** Called as each agent ends (`done` of `total`). */
  onAgent?: (outcome: FleetAgentOutcome, done: number, total: number) => void;
  /**
   * Aborted by SIGINT or SIGTERM (core/interrupt.ts): no agent starts after it, the runs under way are
   * told by the caller and end early, and shard.json says so (exit 130 or 143).
   */
  signal?: AbortSignal;
}

export function statusOf(exitCode: FleetExitCode): FleetAgentOutcome['status'] {
  return exitCode === 0 ? 'passed' : exitCode === 1 ? 'failed' : 'not-run';
}

/** 2 when any agent could not be run, else 1 when any failed its gate, else 0. */
export function fleetExit(
  agents: readonly Pick<FleetAgentOutcome, 'exitCode'>[],
  missing = 0,
): {
  exitCode: FleetExitCode;
  exitReason: string;
} {
  const n = (code: number): number => agents.filter((a) => a.exitCode === code).length;
  const parts = [`${n(0)} passed`, `${n(1)} failed`, `${n(2)} not run`];
  if (missing > 0) parts.push(`${missing} shard(s) missing`);
  const exitCode: FleetExitCode = n(2) > 0 || missing > 0 ? 2 : n(1) > 0 ? 1 : 0;
  const why =
    exitCode === 2
      ? 'some agents could not be run'
      : exitCode === 1
        ? 'some agents failed their gate'
        : 'every agent passed its gate';
  return { exitCode, exitReason: `${why}: ${parts.join(', ')} of ${agents.length}` };
}

function outcome(
  plan: FleetAgentPlan,
  shard: ShardId,
  outArg: string,
  reused: boolean,
  result: AgentRunResult | ({ ran: true; wallMs: number } & ReportFigures),
): FleetAgentOutcome {
  const base = {
    name: plan.name,
    target: plan.target,
    agentId: plan.agentId,
    shard: shard.index,
    reused,
    wallMs: result.wallMs,
    reportDir: plan.name,
    command: commandFor(plan, join(outArg, plan.name)),
  };
  if (!result.ran) {
    const none = { level: null, score: null, partial: false, counts: null, failing: [] };
    return { ...base, status: 'not-run', exitCode: 2, exitReason: result.exitReason, ...none };
  }
  const { exitCode, exitReason, level, score, partial, counts, failing } = result;
  return {
    ...base,
    status: statusOf(exitCode),
    exitCode,
    exitReason,
    level,
    score,
    partial,
    counts,
    failing,
  };
}

/** `billing: MUST-compliant, score 97.5%, exit 0 (41.2 s)`: one agent's line in the console. */
export function describeOutcome(a: FleetAgentOutcome): string {
  const level =
    a.level === null ? 'no report' : `${COMPLIANCE_LABELS[a.level]}, score ${formatScore(a.score)}`;
  const how = a.reused ? 'kept from an earlier run' : `${(a.wallMs / 1000).toFixed(1)} s`;
  const why = a.exitCode === 2 ? `: ${a.exitReason}` : '';
  return `${a.name}: ${level}, exit ${a.exitCode} (${how})${why}`;
}

/** One agent: its complete report kept (unless --force), or certified now. */
async function certifyAgent(
  plan: FleetAgentPlan,
  outDir: string,
  opts: ShardRunOptions,
  rate: string | undefined,
): Promise<FleetAgentOutcome> {
  const dir = join(outDir, plan.name);
  const text = optionsText(plan);
  const want = { target: plan.target, agentId: plan.agentId, optionsText: text };
  const kept = opts.force === true ? undefined : completeReport(dir, want);
  if (kept !== undefined) {
    return outcome(plan, opts.shard, opts.out, true, { ran: true, wallMs: kept.durationMs, ...kept });
  }
  const input = { plan, dir, optionsText: text, env: opts.env, ...(rate === undefined ? {} : { rate }) };
  return outcome(plan, opts.shard, opts.out, false, await runAgent(input));
}

export async function runFleetShard(opts: ShardRunOptions): Promise<FleetShard> {
  const log = opts.log ?? (() => undefined);
  const started = new Date();
  const fleet = loadFleet(opts.fleetFile);
  const agents = inShard(fleet.agents, opts.shard);
  const pacing = planPacing(agents, fleet.hosts, opts.parallel, opts.shard.count);
  // Before the first agent runs: the shard's directory and each agent's own can be written.
  const outDir = checkOutputDir(opts.out, '--out', [SHARD_FILE]);
  for (const plan of agents) checkOutputDir(join(opts.out, plan.name), '--out', Object.keys(REPORT_FILES));
  log(
    `fleet ${fleet.file}: shard ${opts.shard.index}/${opts.shard.count}, ${agents.length} of ${fleet.agents.length} agent(s), ${pacing.parallel} at a time`,
  );
  for (const note of pacing.notes) log(`  ${note}`);
  // shard.json is rewritten as each agent ends, so a shard stopped midway (a CI time limit) still
  // merges: the agents it did not reach are listed as not run.
  const outcomes = agents.map((plan) =>
    outcome(plan, opts.shard, opts.out, false, { ran: false, wallMs: 0, exitReason: NOT_REACHED }),
  );
  const write = (): FleetShard =>
    writeShard(outDir, {
      fleet,
      shard: opts.shard,
      started,
      parallel: pacing.parallel,
      outcomes,
      interrupted: interruptionOf(opts.signal),
    });
  write();
  let done = 0;
  const jobs = agents.map((plan, i) => ({
    keys: pacing.keys.get(plan.name) ?? [],
    run: async (): Promise<void> => {
      if (opts.signal?.aborted === true) return;
      outcomes[i] = await certifyAgent(plan, outDir, opts, pacing.rates.get(plan.name));
      done += 1;
      write();
      opts.onAgent?.(outcomes[i]!, done, agents.length);
    },
  }));
  await runKeyed(jobs, pacing.parallel, pacing.caps);
  return write();
}

/** An interrupted shard: its signal's exit code, and how many agents it certified. */
function interruptedShard(
  i: Interruption,
  agents: readonly FleetAgentOutcome[],
): Pick<FleetShard, 'exitCode' | 'exitReason'> {
  const done = agents.filter((a) => a.exitCode === 0 || a.exitCode === 1).length;
  return {
    exitCode: i.exitCode,
    exitReason: `${interruptedBy(i)}: ${done} of ${agents.length} agent(s) certified, the others not run`,
  };
}

const NOT_REACHED = 'not run: the shard stopped before this agent was certified';

interface ShardState {
  fleet: Fleet;
  shard: ShardId;
  started: Date;
  parallel: number;
  outcomes: FleetAgentOutcome[];
  interrupted: Interruption | undefined;
}

/** Writes shard.json whole through a temporary file, so a reader never sees half of one. */
function writeShard(outDir: string, s: ShardState): FleetShard {
  const finished = new Date();
  const shard: FleetShard = {
    $schema: SHARD_SCHEMA_ID,
    tool: { name: TOOL.name, version: TOOL.version },
    fleet: { file: s.fleet.file, digest: s.fleet.digest, agents: s.fleet.agents.length },
    shard: { ...s.shard },
    startedAt: s.started.toISOString(),
    finishedAt: finished.toISOString(),
    durationMs: finished.getTime() - s.started.getTime(),
    parallel: s.parallel,
    agents: s.outcomes,
    ...fleetExit(s.outcomes),
    ...(s.interrupted === undefined ? {} : interruptedShard(s.interrupted, s.outcomes)),
  };
  const file = join(outDir, SHARD_FILE);
  writeFileSync(`${file}.tmp`, `${JSON.stringify(shard, null, 2)}\n`);
  renameSync(`${file}.tmp`, file);
  return shard;
}
