// Runs the reference server directly (`npx tsx reference-server/main.ts [--port N] [--host H]
// [--agent-id ID] [--api-key KEY] [--config FILE]`); the product CLI uses runServe() instead.
import { parseArgs } from 'node:util';
import { ConfigError } from '../schemas/config-error.ts';
import { runServe } from './cli.ts';

const { values } = parseArgs({
  options: {
    host: { type: 'string' },
    port: { type: 'string' },
    'agent-id': { type: 'string' },
    'api-key': { type: 'string' },
    config: { type: 'string' },
  },
});

try {
  await runServe({
    host: values.host,
    port: values.port,
    agentId: values['agent-id'],
    apiKey: values['api-key'],
    config: values.config,
  });
} catch (error) {
  process.stderr.write(
    `${error instanceof ConfigError ? error.message : String((error as Error)?.stack ?? error)}\n`,
  );
  process.exit(2);
}
