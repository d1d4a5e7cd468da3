// The a2a-conformance command line (commander): run, serve, list, explain. Exit codes: 0 no gating
// requirement failed, 1 one did, 2 the run could not be done (unreachable, bad flags or config, harness error).
import { Command, CommanderError, Option } from 'commander';
import { formatLedgerVersion } from '../../requirements/index.ts';
import { COMMAND_LINE_OPTIONS, flagOf, helpOf, OPTIONS, type OptionSpec } from '../option-table.ts';
import { ConfigError } from '../options.ts';
import { redactLine } from '../../core/redaction.ts';
import { TOOL } from '../runner/tool.ts';
import { addFleetCommand } from './fleet-command.ts';
import { explainCommand, listCommand } from './info-commands.ts';
import { addClientCommand } from './client-command.ts';
import { addReceiverCommand } from './receiver-command.ts';
import { runCommand } from './run-command.ts';
import { serveCommand } from './serve-command.ts';
import { collect, type CliIo, type SetCode } from './shared.ts';

/** The commander option of a row of the option table (harness/option-table.ts). */
function optionOf(row: OptionSpec): Option {
  const option = new Option(`${flagOf(row.key)}${row.arg === undefined ? '' : ` ${row.arg}`}`, helpOf(row));
  if (row.choices !== undefined) option.choices(row.choices);
  if (row.repeatable === true) option.argParser(collect);
  return option;
}

function addRunCommand(program: Command, io: CliIo, setCode: SetCode): void {
  const run = program
    .command('run')
    .description('certify a target (without --target: the bundled reference server on a free port)');
  for (const row of OPTIONS) run.addOption(optionOf(row));
  for (const o of COMMAND_LINE_OPTIONS) {
    const option = new Option(`${o.flag}${o.arg === undefined ? '' : ` ${o.arg}`}`, o.help);
    run.addOption(o.conflicts === undefined ? option : option.conflicts(o.conflicts));
  }
  run.action(async (flags: Record<string, unknown>) => setCode(await runCommand(flags, io)));
}

const VERSION_LABEL = `${TOOL.version}, ${formatLedgerVersion(TOOL.ledger)}`;

/** `<command> --version` prints the version too: the program's own options stop at the command. */
function versionEverywhere(command: Command): void {
  for (const sub of command.commands) {
    sub.version(VERSION_LABEL, '-V, --version');
    versionEverywhere(sub);
  }
}

export function buildProgram(io: CliIo, setCode: SetCode): Command {
  const program = new Command('a2a-conformance')
    .description('Conformance harness and reference server for the Agent-to-Agent JSON-RPC service')
    .version(VERSION_LABEL, '-V, --version')
    // The program's own options (--version, --help) only before the command: after it, every word
    // belongs to the command, so a value such as an API key that begins with `-V` stays a value.
    .enablePositionalOptions()
    .exitOverride()
    .configureOutput({ writeOut: io.out, writeErr: io.err })
    .showHelpAfterError('(run with --help for usage)');
  addRunCommand(program, io, setCode);
  program
    .command('serve')
    .description('run the bundled reference server')
    .option('--host <host>', 'interface to listen on')
    .option('--port <port>', 'port to listen on')
    .option('--agent-id <id>', 'id of the default agent')
    .option('--api-key <key>', 'API key of the default agent')
    .option('--config <file>', 'reference server config file (JSON)')
    .option('--store <store>', 'where state lives: memory (default) or a redis:// URL that replicas share')
    .action(async (flags: Record<string, unknown>) => setCode(await serveCommand(flags, io)));
  addReceiverCommand(program, io, setCode);
  addClientCommand(program, io, setCode);
  program
    .command('list')
    .description('list requirements and the checks that verify them')
    .option('--only <glob>', 'requirement ids or sections, repeatable', collect)
    .addOption(
      new Option('--role <role>', 'the party: service (run), receiver, client, or all (default)').choices([
        'service',
        'receiver',
        'client',
        'all',
      ]),
    )
    .addOption(new Option('--level <level>', 'levels to list').choices(['must', 'should', 'all']))
    .option('--json', 'print one JSON document: each requirement with its checks, and the counts')
    .action(async (flags: Record<string, unknown>) => setCode(await listCommand(flags, io)));
  program
    .command('explain')
    .description('show a requirement, its spec text, the rulings it cites and its checks')
    .argument('<requirement-id>', 'e.g. 2.2/response-id-equals-request-id')
    .action(async (id: string) => setCode(await explainCommand(id, io)));
  addFleetCommand(program, io, setCode);
  versionEverywhere(program);
  return program;
}

/** Parses argv and runs the command; resolves with the process exit code. */
export async function main(argv: string[], io: CliIo): Promise<number> {
  let code = 0;
  const program = buildProgram(io, (c) => {
    code = c;
  });
  try {
    if (argv.length <= 2) {
      program.outputHelp();
      return 2;
    }
    await program.parseAsync(argv);
    return code;
  } catch (e) {
    if (e instanceof CommanderError) {
      // Help and version exit 0; every usage error is "the run could not be done".
      return e.exitCode === 0 ? 0 : 2;
    }
    if (e instanceof ConfigError) {
      // A URL's user information never reaches the console (core/redaction.ts), even in an error.
      io.err(redactLine(`error: ${e.message}\n`, []));
      return 2;
    }
    io.err(redactLine(`harness error: ${(e as Error).stack ?? String(e)}\n`, []));
    return 2;
  }
}
