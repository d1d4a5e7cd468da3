// The a2a-conformance command line (commander): run, serve, list, explain. Exit codes: 0 no gating
// requirement failed, 1 one did, 2 the run could not be done (unreachable, bad flags or config, harness error).
import { Command, CommanderError, Option } from 'commander';
import { formatLedgerVersion } from '../../requirements/index.ts';
import { ConfigError } from '../options.ts';
import { TOOL } from '../runner/run-conformance.ts';
import { addFleetCommand } from './fleet-command.ts';
import { explainCommand, listCommand } from './info-commands.ts';
import { addClientCommand } from './client-command.ts';
import { addReceiverCommand } from './receiver-command.ts';
import { runCommand } from './run-command.ts';
import { serveCommand } from './serve-command.ts';
import { collect, type CliIo, type SetCode } from './shared.ts';

function addRunCommand(program: Command, io: CliIo, setCode: SetCode): void {
  program
    .command('run')
    .description('certify a target (without --target: the bundled reference server on a free port)')
    .option(
      '--target <base_url>',
      'base URL of the service, e.g. https://agents.example.com (env A2A_TARGET)',
    )
    .option('--agent-id <id>', 'agent to certify (env A2A_AGENT_ID)')
    .option('--api-key <key>', 'API key sent as x-api-key (env A2A_API_KEY)')
    .option(
      '--bearer <token>',
      'token sent as Authorization: Bearer (env A2A_BEARER); given with --api-key, used only to check that both header forms are accepted',
    )
    .option(
      '--out <dir>',
      'directory for report.json, junit.xml, report.html, summary.md and badge.svg (env A2A_OUT; default ./reports)',
    )
    .addOption(
      new Option('--level <level>', 'requirements to run and grade (env A2A_LEVEL; default all)').choices([
        'must',
        'should',
        'all',
      ]),
    )
    .option(
      '--only <glob>',
      'requirement ids or sections to run, e.g. "2.1/*" or 4.4; repeatable (env A2A_ONLY, comma-separated)',
      collect,
    )
    .option(
      '--webhook-listen <host:port>',
      'address of the webhook capture receiver (env A2A_WEBHOOK_LISTEN; default 127.0.0.1:0)',
    )
    .option(
      '--webhook-public-url <url>',
      'URL the target must use to reach the receiver (env A2A_WEBHOOK_PUBLIC_URL)',
    )
    .option('--timeout-ms <n>', 'budget of one request in ms (env A2A_TIMEOUT_MS; default 10000)')
    .option(
      '--check-timeout-ms <n>',
      'budget of one check in ms (env A2A_CHECK_TIMEOUT_MS; default max(30000, 3 x timeout))',
    )
    .option('--budget-ms <n>', 'budget of the whole run in ms (env A2A_BUDGET_MS; default 600000)')
    .option('--seed <n>', 'fast-check seed (env A2A_SEED; default random, recorded in the report)')
    .option('--runs <n>', 'fast-check runs per property (env A2A_RUNS; default 400)')
    .option(
      '--rate <n/unit>',
      "pace of requests, e.g. 60/m or 2/s, or off (env A2A_RATE; default the card's limits.requestsPerMinute)",
    )
    .option('--concurrency <n>', 'requests in flight at once (env A2A_CONCURRENCY; default 32)')
    .addOption(
      new Option(
        '--profile <profile>',
        'agent turns to spend (env A2A_PROFILE; default standard against --target, full for the bundled server)',
      ).choices(['smoke', 'standard', 'full']),
    )
    .option('--max-turns <n>', 'cap on agent turns, requests that create a task (env A2A_MAX_TURNS)')
    .option(
      '--max-wait <duration>',
      'longest wait a check may plan, e.g. 6m for a 5-minute system timeout (env A2A_MAX_WAIT)',
    )
    .option(
      '--baseline <file>',
      'expected failures: an earlier report.json or {"expectedFailures": [ids]}; a new failure or a listed one that now passes exits 1 (env A2A_BASELINE)',
    )
    .addOption(
      new Option(
        '--evidence <mode>',
        'wire evidence kept in the reports: all, failing (only of checks that did not pass) or none (env A2A_EVIDENCE; default failing with --target, all for the bundled server)',
      ).choices(['all', 'failing', 'none']),
    )
    .option('--config <file>', 'JSON file with any of the options above (camelCase keys)')
    .addOption(
      new Option('--quiet', 'print only the findings, the verdict and the exit line').conflicts('verbose'),
    )
    .option('--verbose', 'print every check as it ends, and every finding in full')
    .action(async (flags: Record<string, unknown>) => setCode(await runCommand(flags, io)));
}

export function buildProgram(io: CliIo, setCode: SetCode): Command {
  const program = new Command('a2a-conformance')
    .description('Conformance harness and reference server for the Agent-to-Agent JSON-RPC service')
    .version(`${TOOL.version}, ${formatLedgerVersion(TOOL.ledger)}`, '-V, --version')
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
    .action(async (flags: Record<string, unknown>) => setCode(await listCommand(flags, io)));
  program
    .command('explain')
    .description('show a requirement, its spec text, the rulings it cites and its checks')
    .argument('<requirement-id>', 'e.g. 2.2/response-id-equals-request-id')
    .action(async (id: string) => setCode(await explainCommand(id, io)));
  addFleetCommand(program, io, setCode);
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
      io.err(`error: ${e.message}\n`);
      return 2;
    }
    io.err(`harness error: ${(e as Error).stack ?? String(e)}\n`);
    return 2;
  }
}
