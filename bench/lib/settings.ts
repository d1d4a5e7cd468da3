// The knobs of one benchmark run, from the command line (`npm run bench -- --duration 5`) or BENCH_*
// variables (the flag wins). Defaults keep a full run under 5 minutes on 2 cores.
import type { Command } from 'commander';
import { listOf, positiveInt, positiveNumber, scriptCommand } from '../../scripts/args.ts';

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

interface BenchFlags {
  duration?: number;
  warmup?: number;
  rounds?: number;
  connections?: number;
  only?: string[];
  cpuProf?: boolean;
}

/** Adds the options of a benchmark run to `command` (npm run bench, bench/compare-reference.ts). */
export function withBenchOptions(command: Command): Command {
  return command
    .option(
      '--duration <s>',
      'seconds of measured load per server and round (BENCH_DURATION_S; 3)',
      positiveNumber,
    )
    .option(
      '--warmup <s>',
      'seconds of unmeasured load before each measurement (BENCH_WARMUP_S; 1)',
      positiveNumber,
    )
    .option('--rounds <n>', 'back-to-back rounds, the median reported (BENCH_ROUNDS; 3)', positiveInt)
    .option(
      '--connections <n>',
      'concurrent connections of the load generator (BENCH_CONNECTIONS; 10)',
      positiveInt,
    )
    .option(
      '--only <scenarios>',
      `comma-separated, of ${SCENARIOS.join(', ')} (BENCH_ONLY; all)`,
      listOf(SCENARIOS),
    )
    .option('--cpu-prof', 'write V8 CPU profiles of the reference server (BENCH_CPU_PROF=1)');
}

/** The settings of `npm run bench` from its command line and environment. */
export function readSettings(argv = process.argv.slice(2), env = process.env): BenchSettings {
  const command = withBenchOptions(
    scriptCommand('npm run bench --', 'Benchmark the reference server on loopback.'),
  );
  return settingsOf(command.parse(argv, { from: 'user' }), env);
}

/** The settings a command built with withBenchOptions() was given, BENCH_* variables filling in. */
export function settingsOf(command: Command, env = process.env): BenchSettings {
  const flags = command.opts<BenchFlags>();
  const fromEnv = <T>(name: string, parse: (value: string) => T, fallback: T): T => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    try {
      return parse(raw);
    } catch (e) {
      return command.error(`error: ${name}=${JSON.stringify(raw)} is invalid: ${(e as Error).message}`);
    }
  };
  return {
    durationS: flags.duration ?? fromEnv('BENCH_DURATION_S', positiveNumber, 3),
    warmupS: flags.warmup ?? fromEnv('BENCH_WARMUP_S', positiveNumber, 1),
    rounds: flags.rounds ?? fromEnv('BENCH_ROUNDS', positiveInt, 3),
    connections: flags.connections ?? fromEnv('BENCH_CONNECTIONS', positiveInt, 10),
    only: flags.only ?? fromEnv('BENCH_ONLY', listOf(SCENARIOS), [...SCENARIOS]),
    cpuProf: flags.cpuProf ?? env.BENCH_CPU_PROF === '1',
  };
}
