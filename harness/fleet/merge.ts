// `fleet merge`: one fleet report from any number of shard directories (each holding shard.json and
// the agents' report directories). Shards of different fleets, a shard given twice and an agent in
// two shards are refused; shards of the fleet that are missing are named and make the exit code 2.
import { existsSync, readFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import type { RunResult } from '../../core/types.ts';
import type {
  FleetAgentOutcome,
  FleetReport,
  FleetRequirementFailures,
  FleetShard,
  FleetSummary,
} from '../../schemas/generated/types.ts';
import { validate } from '../../schemas/registry.ts';
import { ConfigError } from '../options.ts';
import { TOOL } from '../runner/tool.ts';
import { trimEvidence } from '../runner/trim-evidence.ts';
import { readReportDocument } from './agent-report.ts';
import { diffFleets } from './changes.ts';
import { fleetExit, SHARD_FILE } from './fleet-run.ts';

export const FLEET_SCHEMA_ID = 'https://a2a-conformance.dev/schemas/fleet-report.schema.json';

export interface MergeInput {
  dirs: readonly string[];
  out: string;
  previous?: string;
}

export interface Merged {
  report: FleetReport;
  /** Each agent's report.json, read once, handed to the renderers that need requirement detail. */
  results: Map<string, RunResult>;
}

function readValid<T>(file: string, schema: 'fleet-shard' | 'fleet-report', what: string): T {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new ConfigError(`cannot read ${what} ${file}: ${(e as Error).message}`);
  }
  const checked = validate(schema, parsed);
  if (!checked.valid) {
    const first = checked.errors.slice(0, 5).map((i) => `${i.path || '(root)'}: ${i.message}`);
    throw new ConfigError(`${file} is not a valid ${what}: ${first.join('; ')}`);
  }
  return parsed as T;
}

function posix(path: string): string {
  return path.split(sep).join('/');
}

interface ReadShard {
  dir: string;
  shard: FleetShard;
}

function readShards(dirs: readonly string[]): ReadShard[] {
  if (dirs.length === 0) throw new ConfigError('fleet merge needs at least one shard directory');
  const shards = dirs.map((dir) => {
    if (!existsSync(join(dir, SHARD_FILE))) {
      throw new ConfigError(
        `${dir} is not a shard directory: it has no ${SHARD_FILE} (written by fleet run --out)`,
      );
    }
    return { dir, shard: readValid<FleetShard>(join(dir, SHARD_FILE), 'fleet-shard', 'shard.json') };
  });
  const first = shards[0]!;
  const seen = new Map<number, string>();
  for (const { dir, shard } of shards) {
    if (shard.fleet.digest !== first.shard.fleet.digest || shard.shard.count !== first.shard.shard.count) {
      throw new ConfigError(
        `${dir} and ${first.dir} are shards of different fleets (fleet file or shard count differ): run every shard from the same fleet file and --shard i/n`,
      );
    }
    const other = seen.get(shard.shard.index);
    if (other !== undefined) {
      throw new ConfigError(
        `shard ${shard.shard.index}/${shard.shard.count} is given twice: ${other} and ${dir}`,
      );
    }
    seen.set(shard.shard.index, dir);
  }
  return shards;
}

/**
 * What the fleet's reports read of an agent's run: verdicts and findings (`--evidence none`). The wire
 * evidence (most of a report.json) and the card stay in the agent's own reports, so a large fleet
 * merges in little memory.
 */
function withoutEvidence(result: RunResult): RunResult {
  return { ...trimEvidence(result, 'none'), card: null };
}

function failuresOf(results: Map<string, RunResult>): FleetRequirementFailures[] {
  const byId = new Map<string, FleetRequirementFailures>();
  for (const [name, result] of results) {
    for (const r of result.requirements) {
      if (r.verdict !== 'fail' && r.verdict !== 'warn') continue;
      const entry = byId.get(r.id) ?? { id: r.id, level: r.level, agents: [] };
      entry.agents.push(name);
      byId.set(r.id, entry);
    }
  }
  return [...byId.values()]
    .map((e) => ({ ...e, agents: e.agents.sort() }))
    .sort((a, b) => b.agents.length - a.agents.length || a.id.localeCompare(b.id));
}

function summaryOf(agents: readonly FleetAgentOutcome[], missing: number): FleetSummary {
  const byLevel = { 'fully-compliant': 0, 'must-compliant': 0, unverified: 0, 'not-compliant': 0, none: 0 };
  for (const a of agents) byLevel[a.level ?? 'none'] += 1;
  return {
    agents: agents.length,
    passed: agents.filter((a) => a.status === 'passed').length,
    failed: agents.filter((a) => a.status === 'failed').length,
    notRun: agents.filter((a) => a.status === 'not-run').length,
    byLevel,
    ...fleetExit(agents, missing),
  };
}

export function mergeFleet(input: MergeInput): Merged {
  const out = resolve(input.out);
  const shards = readShards(input.dirs);
  const owner = new Map<string, string>();
  const agents: FleetAgentOutcome[] = [];
  const results = new Map<string, RunResult>();
  for (const { dir, shard } of shards) {
    for (const a of shard.agents) {
      const other = owner.get(a.name);
      if (other !== undefined)
        throw new ConfigError(`agent "${a.name}" is in two shard directories: ${other} and ${dir}`);
      owner.set(a.name, dir);
      const reportDir = resolve(dir, a.reportDir);
      agents.push({ ...a, reportDir: posix(relative(out, reportDir)) || '.' });
      const result = a.level === null ? undefined : readReportDocument(reportDir);
      if (result !== undefined) results.set(a.name, withoutEvidence(result));
    }
  }
  agents.sort((a, b) => a.name.localeCompare(b.name));
  const { count } = shards[0]!.shard.shard;
  const present = new Set(shards.map((s) => s.shard.shard.index));
  const missingShards = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !present.has(i));
  const report: FleetReport = {
    $schema: FLEET_SCHEMA_ID,
    tool: { name: TOOL.name, version: TOOL.version },
    generatedAt: new Date().toISOString(),
    fleet: shards[0]!.shard.fleet,
    shards: shards
      .map(({ dir, shard }) => ({
        dir: posix(relative(out, resolve(dir))) || '.',
        index: shard.shard.index,
        count: shard.shard.count,
        agents: shard.agents.length,
        exitCode: shard.exitCode,
        durationMs: shard.durationMs,
      }))
      .sort((a, b) => a.index - b.index),
    missingShards,
    summary: summaryOf(agents, missingShards.length),
    agents,
    requirements: failuresOf(results),
  };
  if (input.previous !== undefined) {
    const previous = readValid<FleetReport>(input.previous, 'fleet-report', 'fleet.json');
    report.changes = diffFleets(previous, input.previous, agents);
  }
  return { report, results };
}
