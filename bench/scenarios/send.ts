// message/send throughput and latency (spec 4.1): the reference server against the floor (the cost
// of HTTP + JSON alone) and against the @a2a-js/sdk peer, back to back in rounds so the three see
// the same machine conditions; each measurement follows its own warm-up.
import { runLoad, type LoadResult } from '../lib/load.ts';
import type { BenchSettings } from '../lib/settings.ts';
import { median, ratio, round } from '../lib/stats.ts';
import { floorTarget, peerTarget, referenceTarget, type Target } from '../lib/targets.ts';

export interface SendRow {
  server: Target['name'];
  rps: number;
  /** Server CPU time (user + system) per answered request: steadier than req/s on a busy machine. */
  cpuUsPerRequest: number;
  p50Ms: number;
  p99Ms: number;
  ok: number;
  non2xx: number;
  errors: number;
  rounds: Measured[];
}

export interface SendResult {
  connections: number;
  durationS: number;
  rows: SendRow[];
  ratios: { throughputVsFloor: number; throughputVsPeer: number; p99VsFloor: number; cpuVsFloor: number };
}

export async function benchSend(settings: BenchSettings, log: (line: string) => void): Promise<SendResult> {
  const targets: Target[] = [];
  try {
    targets.push(await floorTarget(), await referenceTarget(settings.cpuProf), await peerTarget());
    for (const target of targets) await target.probe();
    const rounds = new Map<Target['name'], Measured[]>(targets.map((t) => [t.name, []]));
    for (let round = 1; round <= settings.rounds; round += 1) {
      for (const target of targets) {
        const load = {
          url: target.url,
          headers: target.headers,
          body: target.body,
          connections: settings.connections,
        };
        await runLoad({ ...load, durationS: settings.warmupS });
        const before = await target.child.ask<NodeJS.CpuUsage>({ type: 'cpu' });
        const loaded = await runLoad({ ...load, durationS: settings.durationS });
        const after = await target.child.ask<NodeJS.CpuUsage>({ type: 'cpu' });
        const cpuUs = after.user - before.user + (after.system - before.system);
        const result = { ...loaded, cpuUsPerRequest: cpuUs / Math.max(1, loaded.ok) };
        rounds.get(target.name)?.push(result);
        log(
          `  send round ${round} ${target.name}: ${Math.round(result.rps)} req/s, p99 ${round2(result.p99Ms)} ms, ${Math.round(result.cpuUsPerRequest)} µs CPU/req`,
        );
      }
      // The answers must still be right after the load (no degraded mode hidden behind 200s).
      for (const target of targets) await target.probe();
    }
    const rows = targets.map((t) => summarise(t.name, rounds.get(t.name) ?? []));
    const [floor, reference, peer] = rows as [SendRow, SendRow, SendRow];
    return {
      connections: settings.connections,
      durationS: settings.durationS,
      rows,
      ratios: {
        throughputVsFloor: ratio(reference.rps, floor.rps),
        throughputVsPeer: ratio(reference.rps, peer.rps),
        p99VsFloor: ratio(reference.p99Ms, floor.p99Ms),
        cpuVsFloor: ratio(reference.cpuUsPerRequest, floor.cpuUsPerRequest),
      },
    };
  } finally {
    await Promise.all(targets.map((t) => t.child.stop()));
  }
}

function round2(value: number): number {
  return round(value, 2);
}

type Measured = LoadResult & { cpuUsPerRequest: number };

function summarise(server: Target['name'], rounds: Measured[]): SendRow {
  return {
    server,
    rps: Math.round(median(rounds.map((r) => r.rps))),
    cpuUsPerRequest: Math.round(median(rounds.map((r) => r.cpuUsPerRequest))),
    p50Ms: round2(median(rounds.map((r) => r.p50Ms))),
    p99Ms: round2(median(rounds.map((r) => r.p99Ms))),
    ok: rounds.reduce((sum, r) => sum + r.ok, 0),
    non2xx: rounds.reduce((sum, r) => sum + r.non2xx, 0),
    errors: rounds.reduce((sum, r) => sum + r.errors, 0),
    rounds,
  };
}
