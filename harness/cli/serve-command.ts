// `a2a-conformance serve`: runs the bundled reference server (delegates to reference-server/cli.ts).
// Loaded dynamically: the harness never imports the server's code.
import { ConfigError } from '../options.ts';
import type { CliIo } from './shared.ts';

/** The flags of `serve` that runServe reads (reference-server/cli.ts ServeOptions), each a string here. */
const SERVE_FLAGS = ['host', 'port', 'agentId', 'apiKey', 'config', 'store'] as const;
type ServeFlags = Partial<Record<(typeof SERVE_FLAGS)[number], string>>;

interface ServeModule {
  runServe(options: ServeFlags): Promise<unknown>;
}

/** Exit "code" telling main.ts not to exit: the server owns the process from here. */
export const KEEP_RUNNING = -1;

const SERVE_MODULE = '../../reference-server/cli.ts';

export async function serveCommand(flags: Record<string, unknown>, _io: CliIo): Promise<number> {
  // runServe validates every value, as it does the A2A_* variables' (one rule each, e.g. the port an
  // integer from 0 to 65535).
  const options: ServeFlags = {};
  for (const name of SERVE_FLAGS) {
    const value = flags[name];
    if (typeof value === 'string') options[name] = value;
  }
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
