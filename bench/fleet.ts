// Fleet certification on one machine (run on demand, never by npm test):
//   npx tsx bench/fleet.ts [--agents 12] [--parallel 1,2,4,8] [--throughput 40@6000,1500@60]
//                          [--skip curve,shards,throughput] [--keep]   (--keep: leave the reports in /tmp)
// 1. curve: the same fleet (reference-server agents, half behind a 40 ms latency proxy, three mutants)
//    certified with each --parallel: wall time, CPU time and peak memory of all the runs together;
// 2. shards: that fleet as 3 shards run one after another, then merged, against the unsharded run:
//    every agent's exit code, level, score and failing requirements must be the same;
// 3. throughput: one whole-ledger certification (default profile) behind a proxy adding 40 ms to each
//    request and T ms to each agent turn, of an agent whose card allows R requests a minute (T@R),
//    measured; agents per hour estimated from it (see printThroughput).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, totalmem, tmpdir } from 'node:os';
import { join } from 'node:path';
import { runFleetShard } from '../harness/fleet/fleet-run.ts';
import { mergeFleet } from '../harness/fleet/merge.ts';
import { childrenOf, tree } from '../reliability/hostile/process-rss.ts';
import type { FleetAgentOutcome, FleetShard } from '../schemas/generated/types.ts';
import { startFleetTargets, type FleetTargets } from './fleet-targets.ts';
import { list, listOf, positiveInt, scriptCommand } from '../scripts/args.ts';
import { environment } from './lib/report.ts';
import { round } from './lib/stats.ts';

const MB = 2 ** 20;
const TICKS_PER_S = 100; // USER_HZ of /proc/<pid>/stat on Linux

/** CPU seconds of this process's waited-for children (the agent runs and their workers). */
function childCpuS(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[13]) + Number(fields[14])) / TICKS_PER_S; // cutime, cstime
}

function rssOf(pid: number): number {
  try {
    const m = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m === null ? 0 : Number(m[1]) * 1024;
  } catch {
    return 0;
  }
}

/** Peak resident memory of every process this one started, all together and per direct child. */
class ChildrenRss {
  allPeak = 0;
  onePeak = 0;
  private readonly timer = setInterval(() => this.sample(), 100);

  private sample(): void {
    let all = 0;
    for (const child of childrenOf(process.pid)) {
      const one = tree(child).reduce((sum, pid) => sum + rssOf(pid), 0);
      this.onePeak = Math.max(this.onePeak, one);
      all += one;
    }
    this.allPeak = Math.max(this.allPeak, all);
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

interface Measured {
  wallS: number;
  cpuS: number;
  allMb: number;
  oneMb: number;
  shard: FleetShard;
}

async function measure(run: () => Promise<FleetShard>): Promise<Measured> {
  const rss = new ChildrenRss();
  const cpu0 = childCpuS();
  const t0 = performance.now();
  const shard = await run();
  const wallS = (performance.now() - t0) / 1000;
  rss.stop();
  return { wallS, cpuS: childCpuS() - cpu0, allMb: rss.allPeak / MB, oneMb: rss.onePeak / MB, shard };
}

function verdictsOf(agents: readonly FleetAgentOutcome[]): Map<string, string> {
  return new Map(
    agents.map((a) => [a.name, JSON.stringify([a.exitCode, a.level, a.score, [...a.failing].sort()])]),
  );
}

async function curve(targets: FleetTargets, dir: string, parallels: number[], log: (l: string) => void) {
  const env = { ...process.env, ...targets.env };
  const rows: Array<Measured & { parallel: number; out: string }> = [];
  for (const parallel of parallels) {
    const out = join(dir, `p${parallel}`);
    const m = await measure(() =>
      runFleetShard({ fleetFile: targets.fleetFile, shard: { index: 1, count: 1 }, parallel, out, env }),
    );
    rows.push({ ...m, parallel, out });
    log(`  --parallel ${parallel}: ${round(m.wallS)} s, exit ${m.shard.exitCode}`);
    for (const a of m.shard.agents.filter((x) => x.exitCode === 2)) log(`    ${a.name}: ${a.exitReason}`);
  }
  return rows;
}

function printCurve(rows: Awaited<ReturnType<typeof curve>>, print: (l: string) => void): void {
  const agents = rows[0]?.shard.agents.length ?? 0;
  print(`\n### Wall time and memory against --parallel (${agents} agents)\n`);
  print('| --parallel | wall s | agents/min | CPU s | peak RSS, all runs | peak RSS, one run | exit |');
  print('|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    print(
      `| ${r.parallel} | ${round(r.wallS)} | ${round((60 * agents) / r.wallS)} | ${round(r.cpuS)} | ${Math.round(r.allMb)} MB | ${Math.round(r.oneMb)} MB | ${r.shard.exitCode} |`,
    );
  }
}

async function shards(
  targets: FleetTargets,
  dir: string,
  parallel: number,
  unsharded: FleetShard,
  print: (l: string) => void,
) {
  const env = { ...process.env, ...targets.env };
  const dirs = [1, 2, 3].map((i) => join(dir, `shard-${i}`));
  const t0 = performance.now();
  for (let i = 1; i <= 3; i += 1) {
    await runFleetShard({
      fleetFile: targets.fleetFile,
      shard: { index: i, count: 3 },
      parallel,
      out: dirs[i - 1]!,
      env,
    });
  }
  const shardedS = (performance.now() - t0) / 1000;
  const m0 = performance.now();
  const { report } = mergeFleet({ dirs, out: join(dir, 'fleet') });
  const mergeMs = performance.now() - m0;
  const a = verdictsOf(unsharded.agents);
  const b = verdictsOf(report.agents);
  const differ = [...new Set([...a.keys(), ...b.keys()])].filter((n) => a.get(n) !== b.get(n));
  print(`\n### 3 shards one after another, merged, against one unsharded run (--parallel ${parallel})\n`);
  print('| run | agents | wall s | same verdicts as unsharded |');
  print('|---|---:|---:|---|');
  print(
    `| 3 shards + merge (merge ${Math.round(mergeMs)} ms) | ${report.agents.length} | ${round(shardedS)} | ${differ.length === 0 ? 'yes, every agent' : `no: ${differ.join(', ')}`} |`,
  );
  for (const n of differ) print(`- ${n}: unsharded ${a.get(n)}, sharded ${b.get(n)}`);
  return differ.length === 0;
}

interface Single {
  turnMs: number;
  rpm: number;
  wallS: number;
  cpuS: number;
  oneMb: number;
  requests: number | null;
  turns: number | null;
  exitCode: number;
  failing: string[];
}

async function throughput(dir: string, turnMs: number, rpm: number): Promise<Single> {
  const targets = await startFleetTargets({
    dir: mkdtempSync(join(dir, 'single-')),
    healthy: 1,
    direct: 0,
    latencyMs: 40,
    turnLatencyMs: turnMs,
    requestsPerMinute: rpm,
    mutants: false,
    broken: false,
    only: [],
    defaults: { timeoutMs: 10_000 + turnMs * 2, budgetMs: 3_600_000 },
  });
  try {
    const out = join(dir, `turn-${turnMs}-${rpm}`);
    const env = { ...process.env, ...targets.env };
    const m = await measure(() =>
      runFleetShard({ fleetFile: targets.fleetFile, shard: { index: 1, count: 1 }, out, env }),
    );
    const a = m.shard.agents[0]!;
    const report = JSON.parse(readFileSync(join(out, a.reportDir, 'report.json'), 'utf8')) as {
      traffic?: { requests?: number; agentTurns?: number };
    };
    return {
      turnMs,
      rpm,
      wallS: m.wallS,
      cpuS: m.cpuS,
      oneMb: m.oneMb,
      requests: report.traffic?.requests ?? null,
      turns: report.traffic?.agentTurns ?? null,
      exitCode: a.exitCode,
      failing: a.failing,
    };
  } finally {
    await targets.close();
  }
}

/**
 * Agents per hour on this machine from one measured certification: runs overlap until either the
 * cores or the memory are used up, so the rate is min(cores x 3600 / CPU s per run, runs that fit
 * in 80% of the memory x 3600 / wall s per run). Waiting (turns, pacing) costs wall time, not CPU.
 */
function printThroughput(rows: Single[], print: (l: string) => void): void {
  const cores = availableParallelism();
  const gib = Math.round(totalmem() / 2 ** 30);
  print(
    `\n### One whole-ledger certification (default profile), agents per hour on ${cores} cores, ${gib} GiB\n`,
  );
  print(
    '| per turn | card rate | wall s | CPU s | peak RSS | requests | agent turns | exit | runs at once | agents/hour |',
  );
  print('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    const byCpu = (cores * 3600) / r.cpuS;
    const fit = Math.max(1, Math.floor((0.8 * totalmem()) / (r.oneMb * MB)));
    const perHour = Math.floor(Math.min(byCpu, (fit * 3600) / r.wallS));
    const atOnce = Math.min(fit, Math.ceil((r.wallS * perHour) / 3600));
    print(
      `| ${r.turnMs} ms | ${r.rpm}/min | ${round(r.wallS)} | ${round(r.cpuS)} | ${Math.round(r.oneMb)} MB | ${r.requests ?? 'n/a'} | ${r.turns ?? 'n/a'} | ${r.exitCode} | ${atOnce} | ${perHour} |`,
    );
  }
  for (const r of rows.filter((x) => x.failing.length > 0)) {
    print(`\nAt ${r.turnMs} ms per turn and ${r.rpm}/min, the healthy agent failed: ${r.failing.join(', ')}`);
  }
}

const positiveInts = (value: string): number[] => list(value).map(positiveInt);

async function main(): Promise<void> {
  const values = scriptCommand('npx tsx bench/fleet.ts', 'Measure fleet certification on one machine.')
    .option('--agents <n>', 'agents of the fleet (three of them mutants)', positiveInt, 12)
    .option(
      '--parallel <list>',
      'the --parallel values of the curve, comma-separated',
      positiveInts,
      [1, 2, 4, 8],
    )
    .option('--throughput <list>', 'T@R pairs: T ms per agent turn, R requests a minute', list, [
      '40@6000',
      '1500@60',
    ])
    .option(
      '--skip <parts>',
      'parts to skip, comma-separated: curve, shards, throughput',
      listOf(['curve', 'shards', 'throughput']),
      [],
    )
    .option('--keep', 'leave the reports in /tmp')
    .parse()
    .opts<{ agents: number; parallel: number[]; throughput: string[]; skip: string[]; keep?: boolean }>();
  const skip = new Set(values.skip);
  const print = (line: string): void => void process.stdout.write(`${line}\n`);
  const log = (line: string): void => void process.stderr.write(`${line}\n`);
  const dir = mkdtempSync(join(tmpdir(), 'a2a-bench-fleet-'));
  print('## Fleet certification benchmark\n');
  for (const [k, v] of Object.entries(environment())) print(`- ${k}: ${v}`);
  let ok = true;
  try {
    if (!skip.has('curve') || !skip.has('shards')) {
      const healthy = Math.max(1, values.agents - 3);
      const targets = await startFleetTargets({ dir, healthy, broken: false });
      try {
        const parallels = values.parallel;
        const rows = await curve(targets, dir, skip.has('curve') ? [Math.max(...parallels)] : parallels, log);
        if (!skip.has('curve')) printCurve(rows, print);
        const last = rows.at(-1)!;
        if (!skip.has('shards')) ok = await shards(targets, dir, last.parallel, last.shard, print);
      } finally {
        await targets.close();
      }
    }
    if (!skip.has('throughput')) {
      const rows: Single[] = [];
      for (const pair of values.throughput) {
        const [ms, rpm] = pair.split('@').map(Number) as [number, number];
        log(`  one certification at ${ms} ms per turn, ${rpm} requests a minute...`);
        rows.push(await throughput(dir, ms, rpm));
      }
      printThroughput(rows, print);
    }
  } finally {
    if (values.keep === true) log(`reports kept in ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
  process.exitCode = ok ? 0 : 1;
}

await main();
