// `a2a-conformance fleet run` (certify one shard of a fleet file) and `fleet merge` (one fleet report
// from shard directories). Exit codes as `run`: 0 every agent passed its gate, 1 one failed it,
// 2 one could not be run (or a shard is missing, or the options are wrong).
import type { Command } from 'commander';
import { REPORT_FILE_LIST } from '../../core/report-files.ts';
import { FLEET_FILES, writeFleetReports } from '../../reporters/fleet/index.ts';
import { interruptRunningAgents, killRunningAgents } from '../fleet/agent-run.ts';
import { describeOutcome, runFleetShard } from '../fleet/fleet-run.ts';
import { mergeFleet } from '../fleet/merge.ts';
import { parseShard, WHOLE_FLEET } from '../fleet/shard.ts';
import { checkOutputDir } from '../output-dir.ts';
import { interruptible } from './interrupts.ts';
import { positiveInt, type CliIo, type SetCode } from './shared.ts';

export async function fleetRunCommand(flags: Record<string, unknown>, io: CliIo): Promise<number> {
  const shard = typeof flags.shard === 'string' ? parseShard(flags.shard) : WHOLE_FLEET;
  const quiet = flags.quiet === true;
  // The runs are detached (each its own process group, killed whole at its deadline), so a terminal's
  // Ctrl-C or a CI cancel would not reach them: the fleet passes the first signal on to each (they keep
  // what they decided and write their reports) and kills them at a second one or when it exits.
  process.once('exit', killRunningAgents);
  let result;
  try {
    result = await interruptible(
      io,
      (signal) =>
        runFleetShard({
          signal,
          fleetFile: flags.fleet as string,
          shard,
          ...(typeof flags.parallel === 'string'
            ? { parallel: positiveInt(flags.parallel, '--parallel')! }
            : {}),
          out: flags.out as string,
          force: flags.force === true,
          env: io.env,
          log: (line) => {
            if (!quiet) io.out(`${line}\n`);
          },
          onAgent: (o, done, total) => {
            if (!quiet || o.exitCode !== 0) io.out(`[${done}/${total}] ${describeOutcome(o)}\n`);
          },
        }),
      { onFirst: (i) => interruptRunningAgents(i.signal), onSecond: killRunningAgents },
    );
  } finally {
    process.off('exit', killRunningAgents);
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
  checkOutputDir(out, '--out', FLEET_FILES);
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
