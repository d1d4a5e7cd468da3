// Pacing of a shard: how many agents are certified at once, how many of one host (agents behind one
// origin share its rate limit, spec 8 and C-04), the request pace each run gets when a host's rate is
// split among its agents, and which runs may not overlap (one fixed webhook receiver port).
import { availableParallelism, totalmem } from 'node:os';
import type { FleetHost } from '../../schemas/generated/types.ts';
import { rate } from '../options.ts';
import type { FleetAgentPlan } from './fleet-file.ts';

/**
 * Peak resident memory of one certification, the CLI and its vitest worker together: 550 MB for a
 * narrow run, 635 to 774 MB for a whole-ledger one (bench/fleet.ts, BENCHMARKS.md "Fleet"), rounded
 * up, so that the default parallelism never asks for more than the machine's memory.
 */
const MEMORY_PER_RUN = 800 * 1024 * 1024;
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

/** `120/m`, `2/s`, `3600/h` (the forms of `run --rate`) -> requests per minute; `off` -> Infinity. */
export function perMinute(text: string): number {
  const pace = rate(text);
  return pace === null ? Infinity : (pace.limit * 60_000) / pace.windowMs;
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

/**
 * A host without `maxAgents` lets all its agents run at once: each run paces itself by the agent's
 * own limit (its card's limits.requestsPerMinute, or its `rate` option). With a host `rate`, the runs
 * of the host at once are capped and share that rate evenly, with the runs of the other shards too
 * (a CI matrix runs them at once): rate / (runs at once x shard count). An agent keeps a lower rate
 * of its own.
 */
export function planPacing(
  agents: readonly FleetAgentPlan[],
  hosts: Readonly<Record<string, FleetHost>>,
  requested: number | undefined,
  shardCount = 1,
): Pacing {
  const caps = new Map<string, number>();
  const notes: string[] = [];
  const groups = byOrigin(agents);
  for (const [origin, group] of groups) {
    const max = hosts[origin]?.maxAgents;
    // Each shard takes its part of maxAgents (at least one), the other shards running at once.
    const perShard = max === undefined ? group.length : Math.max(1, Math.floor(max / shardCount));
    caps.set(`host ${origin}`, Math.min(perShard, group.length));
  }
  const hostRoom = [...caps.values()].reduce((a, b) => a + b, 0);
  const parallel = requested ?? defaultParallel(agents.length, hostRoom);
  const rates = new Map<string, string>();
  for (const [origin, group] of groups) {
    const hostRate = hosts[origin]?.rate;
    if (hostRate === undefined) continue;
    const k = Math.min(caps.get(`host ${origin}`)!, parallel);
    caps.set(`host ${origin}`, k);
    // The other shards of the fleet may be certifying agents of the same host at the same time.
    const share = splitRate(hostRate, k * shardCount);
    for (const a of group) {
      const own = a.options.rate;
      rates.set(a.name, own !== undefined && perMinute(own) < perMinute(share) ? own : share);
    }
    const shards = shardCount > 1 ? ` and ${shardCount} shards` : '';
    notes.push(`${origin}: ${hostRate} shared by up to ${k} agent(s) at once${shards}, ${share} each`);
  }
  const keys = new Map<string, string[]>();
  for (const a of agents) {
    const webhook = webhookKey(a);
    if (webhook !== undefined) caps.set(webhook, 1);
    keys.set(a.name, [`host ${a.origin}`, ...(webhook === undefined ? [] : [webhook])]);
  }
  return { parallel, caps, keys, rates, notes };
}
