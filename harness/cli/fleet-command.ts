// `a2a-conformance fleet run` (certify one shard of a fleet file) and `fleet merge` (one fleet report
// from shard directories). Exit codes as `run`: 0 every agent passed its gate, 1 one failed it,
// 2 one could not be run (or a shard is missing, or the options are wrong).
import type { Command } from 'commander';
import { REPORT_FILE_LIST } from '../../core/report-files.ts';
import { writeFleetReports } from '../../reporters/fleet/index.ts';
import { killRunningAgents } from '../fleet/agent-run.ts';
import { describeOutcome, runFleetShard } from '../fleet/fleet-run.ts';
import { mergeFleet } from '../fleet/merge.ts';
import { parseShard, WHOLE_FLEET } from '../fleet/shard.ts';
import { positiveInt, type CliIo, type SetCode } from './shared.ts';

/**
 * The runs are detached (each its own process group, killed whole at its deadline), so a terminal's
 * Ctrl-C or a CI cancel would not reach them: the fleet stops them itself. shard.json already lists
 * every agent not finished as not run.
 */
function stopRunsOnExit(): () => void {
  const stop = (signal: NodeJS.Signals): void => {
    killRunningAgents();
    process.stderr.write(`${signal}: the runs under way were stopped; shard.json lists them as not run\n`);
    process.exit(2);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  process.once('exit', killRunningAgents);
  return () => {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    process.off('exit', killRunningAgents);
  };
}

export async function fleetRunCommand(flags: Record<string, unknown>, io: CliIo): Promise<number> {
  const shard = typeof flags.shard === 'string' ? parseShard(flags.shard) : WHOLE_FLEET;
  const quiet = flags.quiet === true;
  const release = stopRunsOnExit();
  let result;
  try {
    result = await runFleetShard({
      fleetFile: flags.fleet as string,
      shard,
      ...(typeof flags.parallel === 'string' ? { parallel: positiveInt(flags.parallel, '--parallel')! } : {}),
      out: flags.out as string,
      force: flags.force === true,
      env: io.env,
      log: (line) => {
        if (!quiet) io.out(`${line}\n`);
      },
      onAgent: (o, done, total) => {
        if (!quiet || o.exitCode !== 0) io.out(`[${done}/${total}] ${describeOutcome(o)}\n`);
      },
    });
  } finally {
    release();
  }
  io.out(`shard.json: ${flags.out as string}/shard.json\nexit ${result.exitCode}: ${result.exitReason}\n`);
  return result.exitCode;
}

export async function fleetMergeCommand(
  dirs: string[],
  flags: Record<string, unknown>,
  io: CliIo,
): Promise<number> {
  const out = flags.out as string;
  const merged = mergeFleet({
    dirs,
    out,
    ...(typeof flags.previous === 'string' ? { previous: flags.previous } : {}),
  });
  const written = writeFleetReports(merged.report, merged.results, out);
  const { summary, changes, missingShards } = merged.report;
  io.out(
    `fleet: ${dirs.length} shard(s), ${summary.agents} agent(s) -> ${written.dir} (${written.files.join(', ')})\n`,
  );
  if (missingShards.length > 0) io.out(`missing shard(s): ${missingShards.join(', ')}\n`);
  if (changes !== undefined) {
    io.out(
      `since ${changes.previous}: ${changes.regressed.length} regressed, ${changes.fixed.length} fixed, ${changes.added.length} added, ${changes.removed.length} removed\n`,
    );
  }
  io.out(`exit ${summary.exitCode}: ${summary.exitReason}\n`);
  return summary.exitCode;
}

export function addFleetCommand(program: Command, io: CliIo, setCode: SetCode): void {
  const fleet = program
    .command('fleet')
    .description('certify many agents from a fleet file, sharded across machines, and merge the shards');
  fleet
    .command('run')
    .description('certify the agents of one shard of a fleet file, each in a process of its own')
    .requiredOption('--fleet <file>', 'the fleet file (schemas/fleet-file.schema.json)')
    .requiredOption(
      '--out <dir>',
      `directory for <name>/ (each agent's report files: ${REPORT_FILE_LIST}) and shard.json`,
    )
    .option(
      '--shard <i/n>',
      "certify only shard i of n (1-based; an agent's shard is sha256(name) mod n; default 1/1)",
    )
    .option(
      '--parallel <n>',
      "agents certified at once (default from the cores, the memory and the hosts' limits)",
    )
    .option('--force', 'run agents again even when their report from an earlier run is complete')
    .option('--quiet', 'print only agents that failed or could not be run, and the exit line')
    .action(async (flags: Record<string, unknown>) => setCode(await fleetRunCommand(flags, io)));
  fleet
    .command('merge')
    .description('merge shard directories into fleet.json, fleet.html, fleet.md and junit.xml')
    .argument('<dir...>', 'shard directories (each holding shard.json)')
    .requiredOption('--out <dir>', 'directory for the fleet reports')
    .option(
      '--previous <file>',
      'an earlier fleet.json: report agents regressed and fixed, requirements newly failing',
    )
    .action(async (dirs: string[], flags: Record<string, unknown>) =>
      setCode(await fleetMergeCommand(dirs, flags, io)),
    );
}
