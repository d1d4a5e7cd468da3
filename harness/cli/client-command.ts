// `a2a-conformance client [--scenario <name>]… -- <command> [args…]`: certifies an A2A client by
// running the user's driver once per scenario against a scripted scenario server (C-76); same
// reports and exit codes as `run`.
import type { Command } from 'commander';
import { runClient } from '../runs.ts';
import { interruptible } from './interrupts.ts';
import { isScenario, SCENARIO_TASKS, SCENARIOS, type Scenario } from '../client/scenarios.ts';
import { ConfigError } from '../options.ts';
import { addGradingOptions, collect, consoleFor, gradingFlags, positiveInt } from './shared.ts';
import type { CliIo, SetCode } from './shared.ts';

function scenariosOf(names: readonly string[]): Scenario[] | undefined {
  const list = names
    .flatMap((n) => n.split(','))
    .map((n) => n.trim())
    .filter((n) => n !== '');
  const unknown = list.filter((n) => !isScenario(n));
  if (unknown.length > 0)
    throw new ConfigError(`unknown scenario(s) ${unknown.join(', ')} (scenarios: ${SCENARIOS.join(', ')})`);
  return list.length === 0 ? undefined : (list as Scenario[]);
}

export async function clientCommand(
  command: string[],
  flags: Record<string, unknown>,
  io: CliIo,
): Promise<number> {
  if (command.length === 0)
    throw new ConfigError('client needs the driver command after --, e.g. client -- node driver.mjs');
  const scenarios = scenariosOf((flags.scenario as string[] | undefined) ?? []);
  const scenarioTimeoutMs = positiveInt(flags.scenarioTimeoutMs, '--scenario-timeout-ms');
  const reporter = consoleFor(flags, io, []);
  const result = await interruptible(io, (signal) =>
    runClient({
      signal,
      command,
      ...(scenarios === undefined ? {} : { scenarios }),
      ...(scenarioTimeoutMs === undefined ? {} : { scenarioTimeoutMs }),
      ...gradingFlags(flags),
      log: (line) => reporter.line(line),
    }),
  );
  reporter.summary(result);
  return result.exitCode;
}

export function addClientCommand(program: Command, io: CliIo, setCode: SetCode): void {
  const scenarioHelp = SCENARIOS.map((s) => `  ${s.padEnd(11)} ${SCENARIO_TASKS[s]}`).join('\n');
  const command = program
    .command('client')
    .description('certify an A2A client: run its driver once per scenario against a scripted scenario server')
    .argument('<command...>', 'the driver and its arguments, after --')
    .option(
      '--scenario <name>',
      `a scenario to run (default all): ${SCENARIOS.join(', ')}; repeatable`,
      collect,
    )
    .option(
      '--scenario-timeout-ms <n>',
      'budget of one driver run; then its process group is killed (default 30000)',
    );
  addGradingOptions(command, '4.2/*')
    .addHelpText(
      'after',
      `\nThe driver gets A2A_TARGET, A2A_AGENT_ID, A2A_API_KEY, A2A_SCENARIO (and A2A_FILE for file) and, per scenario:\n${scenarioHelp}\nIt prints on stdout and exits 0.`,
    )
    .action(async (command: string[], flags: Record<string, unknown>) =>
      setCode(await clientCommand(command, flags, io)),
    );
}
