// Reads a fleet file (schemas/fleet-file.schema.json): the agents of a platform to certify, each with
// its target (spec 4: `{base_url}/api/v1/a2a/{agent_id}`), the environment variable holding its
// credential (spec 5) and its run options. Every problem is a ConfigError naming the agent and field.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import type { FleetAgent, FleetFile, FleetHost, FleetRunOptions } from '../../schemas/generated/types.ts';
import { validate } from '../../schemas/registry.ts';
import { ConfigError, DEFAULTS, ENV_VARS, resolveOptions, type RawOptions } from '../options.ts';
import { loadBaseline } from '../runner/baseline.ts';

/** One agent of the fleet file ready to run: options merged (defaults, then its own) and paths made absolute. */
export interface FleetAgentPlan extends FleetAgent {
  /** `https://agents.example.com`: agents of one origin share its pacing. */
  origin: string;
  /** The run options as a `run --config` file holds them (no target, agent id, out or credential). */
  options: FleetRunOptions;
  /** Killed by PID after this long (wall clock). */
  killAfterMs: number;
}

export interface Fleet {
  /** The fleet file as given on the command line. */
  file: string;
  /** sha256 of its bytes: shards of one fleet carry the same digest. */
  digest: string;
  agents: FleetAgentPlan[];
  /** Pacing per origin. */
  hosts: Record<string, FleetHost>;
}

/** Beyond a run's own budget, the time its process gets to write its reports before it is killed. */
export const KILL_MARGIN_MS = 60_000;

export function originOf(url: string): string {
  return new URL(url).origin;
}

export function loadFleet(path: string): Fleet {
  let bytes: Buffer;
  let parsed: unknown;
  try {
    bytes = readFileSync(path);
    parsed = JSON.parse(bytes.toString('utf8'));
  } catch (e) {
    throw new ConfigError(`cannot read fleet file ${path}: ${(e as Error).message}`);
  }
  const checked = validate('fleet-file', parsed);
  if (!checked.valid) {
    const lines = checked.errors.map((i) => `  ${i.path === '' ? '(root)' : i.path}: ${i.message}`);
    throw new ConfigError(`fleet file ${path} is not valid:\n${lines.join('\n')}`);
  }
  const fleet = parsed as FleetFile;
  checkNames(fleet.agents, path);
  const base = dirname(resolve(path));
  const hosts: Record<string, FleetHost> = {};
  for (const [key, host] of Object.entries(fleet.hosts ?? {})) hosts[originOf(key)] = host;
  return {
    file: path,
    digest: createHash('sha256').update(bytes).digest('hex'),
    agents: fleet.agents.map((a) => planAgent(a, fleet, base)),
    hosts,
  };
}

function checkNames(agents: readonly FleetAgent[], path: string): void {
  // Names are directory names: two that differ only in case would share one on some file systems.
  const seen = new Map<string, string>();
  for (const a of agents) {
    const key = a.name.toLowerCase();
    const other = seen.get(key);
    if (other !== undefined) {
      throw new ConfigError(`fleet file ${path}: agent name "${a.name}" is used twice (also "${other}")`);
    }
    seen.set(key, a.name);
  }
}

function planAgent(agent: FleetAgent, fleet: FleetFile, base: string): FleetAgentPlan {
  const where = `agent "${agent.name}"`;
  if (agent.apiKeyEnv === undefined && agent.bearerEnv === undefined) {
    throw new ConfigError(
      `${where}: name the environment variable of its credential (apiKeyEnv or bearerEnv)`,
    );
  }
  const options: FleetRunOptions = { ...fleet.defaults, ...agent.options };
  const unsupported = Object.keys(options).filter((k) => !(k in ENV_VARS));
  if (unsupported.length > 0) {
    throw new ConfigError(
      `${where}: option(s) ${unsupported.join(', ')} are not supported by this version's run`,
    );
  }
  for (const key of ['baseline', 'caCert', 'clientCert', 'clientKey'] as const) {
    const path = options[key];
    if (path !== undefined && !isAbsolute(path)) options[key] = resolve(base, path);
  }
  try {
    // Read now, before any agent runs: a bad baseline is found before the fleet's work, not after it.
    if (options.baseline !== undefined) loadBaseline(options.baseline);
    // The run's own checks, with a placeholder credential: the real one is read when the agent runs.
    resolveOptions({
      flag: { target: agent.target, agentId: agent.agentId, apiKey: 'placeholder' },
      env: {},
      file: options as RawOptions,
    });
  } catch (e) {
    throw new ConfigError(`${where}: ${(e as Error).message}`);
  }
  const budgetMs = options.budgetMs ?? DEFAULTS.budgetMs;
  const plan: FleetAgentPlan = {
    name: agent.name,
    target: agent.target.replace(/\/+$/, ''),
    agentId: agent.agentId,
    origin: originOf(agent.target),
    options,
    killAfterMs: agent.killAfterMs ?? fleet.killAfterMs ?? budgetMs + KILL_MARGIN_MS,
  };
  if (agent.apiKeyEnv !== undefined) plan.apiKeyEnv = agent.apiKeyEnv;
  if (agent.bearerEnv !== undefined) plan.bearerEnv = agent.bearerEnv;
  if (agent.secretHeadersEnv !== undefined) plan.secretHeadersEnv = agent.secretHeadersEnv;
  return plan;
}
