// `a2a-conformance run`: merges flags, A2A_* variables and the --config file (in that precedence),
// runs the conformance suites and prints progress and a compact summary.
import { readConfigFile, readEnv, resolveOptions, type RawOptions } from '../options.ts';
import { runResolved } from '../runner/run-conformance.ts';
import type { CliIo } from './program.ts';
import { formatSummary } from './summary.ts';

const FLAG_KEYS = [
  'target',
  'agentId',
  'apiKey',
  'bearer',
  'out',
  'level',
  'only',
  'webhookListen',
  'webhookPublicUrl',
  'timeoutMs',
  'checkTimeoutMs',
  'budgetMs',
  'seed',
  'runs',
  'baseline',
] as const;

/** Only the flags actually given: commander leaves the others undefined (no defaults declared). */
export function flagLayer(flags: Record<string, unknown>): RawOptions {
  const layer: RawOptions = {};
  for (const key of FLAG_KEYS) if (flags[key] !== undefined) layer[key] = flags[key];
  return layer;
}

export async function runCommand(flags: Record<string, unknown>, io: CliIo): Promise<number> {
  const file = typeof flags.config === 'string' ? readConfigFile(flags.config) : {};
  const opts = resolveOptions({ flag: flagLayer(flags), env: readEnv(io.env), file });
  const result = await runResolved(opts, [], (line) => io.out(`${line}\n`));
  io.out(`${formatSummary(result)}\n`);
  return result.exitCode;
}
