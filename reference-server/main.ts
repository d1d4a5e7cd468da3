// Runs the reference server directly (`npx tsx reference-server/main.ts [--port N] [--host H]
// [--agent-id ID] [--api-key KEY] [--config FILE]`); the product CLI uses runServe() instead.
import { Command } from 'commander';
import { ConfigError } from '../schemas/config-error.ts';
import { runServe, type ServeOptions } from './cli.ts';

// Commander, as the product CLI's `serve` (harness/cli/program.ts): --help, and a usage error exits 2.
const values = new Command('npx tsx reference-server/main.ts')
  .description(
    'Run the reference server (flags win over A2A_HOST, A2A_PORT, A2A_AGENT_ID, A2A_API_KEY, A2A_CONFIG).',
  )
  .option('--host <host>', 'interface to listen on')
  .option('--port <n>', 'port to listen on (0: any free port)')
  .option('--agent-id <id>', 'id of the one agent')
  .option('--api-key <key>', "the agent's credential (default: a generated one)")
  .option('--config <file>', 'a JSON config file of the server and its agents')
  .exitOverride((e) => process.exit(e.exitCode === 0 ? 0 : 2))
  .parse()
  .opts<Omit<ServeOptions, 'port'> & { port?: string }>();

try {
  await runServe(values);
} catch (error) {
  process.stderr.write(
    `${error instanceof ConfigError ? error.message : String((error as Error)?.stack ?? error)}\n`,
  );
  process.exit(2);
}
