// Pacing of a shard: how many agents are certified at once, how many of one host (agents behind one
// origin share its rate limit, spec 8 and C-04), the request pace each run gets when a host's rate is
// split among its agents, and which runs may not overlap (one fixed webhook receiver port).
import { availableParallelism, totalmem } from 'node:os';
import type { FleetHost } from '../../schemas/generated/types.ts';
import { ENV_VARS } from '../options.ts';
import type { FleetAgentPlan } from './fleet-file.ts';

/** Whether `run` paces its requests (`--rate`); until it does, a host's agents run one at a time. */
export const RUN_HAS_RATE = 'rate' in ENV_VARS;

/**
 * Peak resident memory of one certification (the CLI and its vitest worker: about 200 MB each at
 * their peaks, see BENCHMARKS.md "Fleet"), rounded up: the default parallelism never asks for more
 * than the machine's memory.
 */
const MEMORY_PER_RUN = 512 * 1024 * 1024;
/**
 * Runs per core: a certification of a remote agent mostly waits on the network and on the agent's
 * LLM, but each costs 3 to 5 CPU-seconds of its own (tsx, vitest start, schema compiles).
 */
const RUNS_PER_CORE = 2;

export interface Pacing {
  parallel: number;
  /** Limit per key (`host <origin>`, `webhook <host:port>`) of runs at once. */
  caps: Map<string, number>;
  /** Keys each agent holds while it runs. */
  keys: Map<string, string[]>;
  /** `--rate` per agent name, when its host's rate is split. */
  rates: Map<string, string>;
  /** Why the plan is what it is, for the log. */
  notes: string[];
}

const MINUTES: Record<string, number> = { s: 1 / 60, m: 1, h: 60 };

/** `120/m`, `2/s`, `3600/h` (the form of `run --rate`) -> requests per minute; `off` -> Infinity. */
export function perMinute(text: string): number {
  const m = /^\s*(\d+)\s*\/\s*(s|m|h)\s*$/.exec(text);
  return m === null ? Infinity : Number(m[1]) / MINUTES[m[2]!]!;
}

/** A host's rate split among `k` runs at once, in whole requests per minute (at least 1). */
export function splitRate(text: string, k: number): string {
  return `${Math.max(1, Math.floor(perMinute(text) / Math.max(1, k)))}/m`;
}

export function defaultParallel(agents: number, hostRoom: number): number {
  const byCores = RUNS_PER_CORE * availableParallelism();
  const byMemory = Math.floor(totalmem() / MEMORY_PER_RUN);
  return Math.max(1, Math.min(agents, hostRoom, byCores, byMemory));
}

function byOrigin(agents: readonly FleetAgentPlan[]): Map<string, FleetAgentPlan[]> {
  const groups = new Map<string, FleetAgentPlan[]>();
  for (const a of agents) groups.set(a.origin, [...(groups.get(a.origin) ?? []), a]);
  return groups;
}

/** A fixed webhook receiver port can be bound by one run at a time. */
function webhookKey(a: FleetAgentPlan): string | undefined {
  const listen = a.options.webhookListen;
  return listen === undefined || /:0$/.test(listen) ? undefined : `webhook ${listen}`;
}

export function planPacing(
  agents: readonly FleetAgentPlan[],
  hosts: Readonly<Record<string, FleetHost>>,
  requested: number | undefined,
  runHasRate = RUN_HAS_RATE,
): Pacing {
  const caps = new Map<string, number>();
  const notes: string[] = [];
  const groups = byOrigin(agents);
  for (const [origin, group] of groups) {
    const host = hosts[origin] ?? {};
    let cap = host.maxAgents ?? (runHasRate ? group.length : 1);
    if (host.rate !== undefined && !runHasRate) {
      cap = 1;
      notes.push(`${origin}: this run has no --rate, so its agents run one at a time`);
    } else if (host.maxAgents === undefined && !runHasRate && group.length > 1) {
      notes.push(`${origin}: ${group.length} agents run one at a time (set hosts.maxAgents to overlap them)`);
    }
    caps.set(`host ${origin}`, Math.min(cap, group.length));
  }
  const hostRoom = [...caps.values()].reduce((a, b) => a + b, 0);
  const parallel = requested ?? defaultParallel(agents.length, hostRoom);
  const rates = new Map<string, string>();
  for (const [origin, group] of groups) {
    const rate = hosts[origin]?.rate;
    if (rate === undefined || !runHasRate) continue;
    const k = Math.min(caps.get(`host ${origin}`)!, parallel);
    caps.set(`host ${origin}`, k);
    const share = splitRate(rate, k);
    for (const a of group) {
      const own = a.options.rate;
      rates.set(a.name, own !== undefined && perMinute(own) < perMinute(share) ? own : share);
    }
    notes.push(`${origin}: ${rate} shared by up to ${k} agent(s) at once, ${share} each`);
  }
  const keys = new Map<string, string[]>();
  for (const a of agents) {
    const webhook = webhookKey(a);
    if (webhook !== undefined) caps.set(webhook, 1);
    keys.set(a.name, [`host ${a.origin}`, ...(webhook === undefined ? [] : [webhook])]);
  }
  return { parallel, caps, keys, rates, notes };
}
