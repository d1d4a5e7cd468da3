// `a2a-conformance serve`: runs the bundled reference server (delegates to reference-server/cli.ts).
// Loaded dynamically: the harness never imports the server's code.
import { ConfigError } from '../options.ts';
import type { CliIo } from './shared.ts';

interface ServeModule {
  runServe(options: {
    host?: string;
    port?: number | string;
    agentId?: string;
    apiKey?: string;
    config?: string;
    store?: string;
  }): Promise<unknown>;
}

/** Exit "code" telling main.ts not to exit: the server owns the process from here. */
export const KEEP_RUNNING = -1;

const SERVE_MODULE = '../../reference-server/cli.ts';

export async function serveCommand(flags: Record<string, unknown>, _io: CliIo): Promise<number> {
  const options: Parameters<ServeModule['runServe']>[0] = {};
  if (typeof flags.host === 'string') options.host = flags.host;
  // runServe validates the port, as it does A2A_PORT's (one rule: an integer from 0 to 65535).
  if (typeof flags.port === 'string') options.port = flags.port;
  if (typeof flags.agentId === 'string') options.agentId = flags.agentId;
  if (typeof flags.apiKey === 'string') options.apiKey = flags.apiKey;
  if (typeof flags.config === 'string') options.config = flags.config;
  if (typeof flags.store === 'string') options.store = flags.store;
  const mod = (await import(SERVE_MODULE)) as ServeModule;
  try {
    await mod.runServe(options);
  } catch (e) {
    // A bad server config or a port in use: the server could not start (exit 2), not a harness bug.
    throw new ConfigError(`serve: ${(e as Error).message}`);
  }
  // The listening server keeps the process alive until it is stopped (SIGINT / SIGTERM).
  return KEEP_RUNNING;
}
