// Before/after figures of a hot-path change: message/send against two copies of the reference
// server (BENCH_REFERENCE_ENTRY of one child each), rounds back to back. Usage:
//   git archive <commit> reference-server schemas | tar -x -C /tmp/before && ln -s "$PWD/node_modules" /tmp/before/
//   npx tsx bench/compare-reference.ts /tmp/before/reference-server/index.ts [--cpu-prof]
import { serviceBody } from './lib/bodies.ts';
import { startChild, type Child } from './lib/child.ts';
import { runLoad } from './lib/load.ts';
import { scriptCommand } from '../scripts/args.ts';
import { settingsOf, withBenchOptions } from './lib/settings.ts';
import { median, round } from './lib/stats.ts';
import { profileFlags } from './lib/targets.ts';

interface Info {
  baseUrl: string;
  apiKey: string;
}

const command = withBenchOptions(
  scriptCommand(
    'npx tsx bench/compare-reference.ts',
    'message/send of two copies of the reference server, rounds back to back.',
  ),
)
  .argument('<baseline-entry>', "the baseline copy's reference-server/index.ts")
  .parse();
const baselineEntry = command.processedArgs[0] as string;
const settings = settingsOf(command);
const start = (tag: string, entry?: string): Promise<Child<Info>> =>
  startChild<Info>('reference', {
    args: ['send'],
    nodeFlags: profileFlags(settings.cpuProf, tag),
    env: entry === undefined ? {} : { BENCH_REFERENCE_ENTRY: entry },
  });
const copies = [
  { name: 'before', child: await start('before', baselineEntry) },
  { name: 'after', child: await start('after') },
];
const figures = new Map(
  copies.map((c) => [c.name, [] as { rps: number; p50: number; p99: number; cpu: number }[]]),
);
try {
  for (let r = 1; r <= settings.rounds; r += 1) {
    for (const { name, child } of copies) {
      const load = {
        url: `${child.info.baseUrl}/api/v1/a2a/bench`,
        headers: { 'x-api-key': child.info.apiKey },
        body: serviceBody(),
        connections: settings.connections,
      };
      await runLoad({ ...load, durationS: settings.warmupS });
      const before = await child.ask<NodeJS.CpuUsage>({ type: 'cpu' });
      const result = await runLoad({ ...load, durationS: settings.durationS });
      const after = await child.ask<NodeJS.CpuUsage>({ type: 'cpu' });
      const cpu = (after.user - before.user + after.system - before.system) / Math.max(1, result.ok);
      figures.get(name)?.push({ rps: result.rps, p50: result.p50Ms, p99: result.p99Ms, cpu });
    }
  }
} finally {
  await Promise.all(copies.map((c) => c.child.stop()));
}
console.log('| copy | req/s | p50 ms | p99 ms | server CPU µs/req |');
console.log('| --- | ---: | ---: | ---: | ---: |');
for (const [name, rounds] of figures) {
  const m = (pick: (f: (typeof rounds)[number]) => number): number => median(rounds.map(pick));
  console.log(
    `| ${name} | ${Math.round(m((f) => f.rps))} | ${round(
      m((f) => f.p50),
      2,
    )} | ${round(
      m((f) => f.p99),
      2,
    )} | ${Math.round(m((f) => f.cpu))} |`,
  );
}
