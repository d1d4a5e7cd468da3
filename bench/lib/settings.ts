// The knobs of one benchmark run, from the command line (`npm run bench -- --duration 5`) or BENCH_*
// variables. Defaults keep a full run under 5 minutes on 2 cores.
import { parseArgs } from 'node:util';

export interface BenchSettings {
  /** Seconds of measured load per server and round. */
  durationS: number;
  /** Seconds of unmeasured load before each measurement (JIT, sockets, caches). */
  warmupS: number;
  /** Back-to-back rounds of floor / reference / peer; the median round is reported. */
  rounds: number;
  /** Concurrent HTTP connections of the load generator. */
  connections: number;
  /** Scenarios to run (default: all). */
  only: string[];
  /** Write V8 CPU profiles of the reference server to bench/results/profiles/. */
  cpuProf: boolean;
}

export const SCENARIOS = ['send', 'streams', 'webhooks', 'memory', 'certify'] as const;

export function readSettings(argv = process.argv.slice(2), env = process.env): BenchSettings {
  const { values } = parseArgs({
    args: argv,
    options: {
      duration: { type: 'string' },
      warmup: { type: 'string' },
      rounds: { type: 'string' },
      connections: { type: 'string' },
      only: { type: 'string' },
      'cpu-prof': { type: 'boolean' },
    },
  });
  const num = (flag: string | undefined, name: string, fallback: number): number => {
    const raw = flag ?? env[name];
    const value = raw === undefined ? fallback : Number(raw);
    if (!Number.isFinite(value) || value <= 0) throw new Error(`${name}: not a positive number (${raw})`);
    return value;
  };
  const only = (values.only ?? env.BENCH_ONLY ?? SCENARIOS.join(',')).split(',').filter(Boolean);
  for (const name of only) {
    if (!(SCENARIOS as readonly string[]).includes(name)) throw new Error(`unknown scenario ${name}`);
  }
  return {
    durationS: num(values.duration, 'BENCH_DURATION_S', 3),
    warmupS: num(values.warmup, 'BENCH_WARMUP_S', 1),
    rounds: Math.round(num(values.rounds, 'BENCH_ROUNDS', 3)),
    connections: Math.round(num(values.connections, 'BENCH_CONNECTIONS', 10)),
    only,
    cpuProf: values['cpu-prof'] ?? env.BENCH_CPU_PROF === '1',
  };
}
