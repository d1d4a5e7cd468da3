// `a2a-conformance run`: merges flags, A2A_* variables and the --config file (in that precedence),
// runs the conformance suites with the console reporter (live progress, then the summary; --quiet,
// --verbose) and writes the report files into --out.
import { RUN_OPTIONS } from '../option-table.ts';
import { secretsOf } from '../provided.ts';
import { readConfigFile, readEnv, resolveOptions, type RawOptions } from '../options.ts';
import { runAndReport } from '../runs.ts';
import { interruptible } from './interrupts.ts';
import { consoleFor, type CliIo } from './shared.ts';

/** Only the flags actually given: commander leaves the others undefined (no defaults declared). */
export function flagLayer(flags: Record<string, unknown>): RawOptions {
  const layer: RawOptions = {};
  for (const { key } of RUN_OPTIONS) if (flags[key] !== undefined) layer[key] = flags[key];
  return layer;
}

export async function runCommand(flags: Record<string, unknown>, io: CliIo): Promise<number> {
  const file = typeof flags.config === 'string' ? readConfigFile(flags.config) : {};
  const opts = resolveOptions({ flag: flagLayer(flags), env: readEnv(io.env), file }, io.env);
  // The bundled target's own credential is redacted by the runner; these are the user's.
  const secrets = secretsOf({
    auth: {
      ...(opts.apiKey === undefined ? {} : { apiKey: opts.apiKey }),
      ...(opts.bearer === undefined ? {} : { bearer: opts.bearer }),
    },
    network: opts.network,
    ...(opts.target === undefined ? {} : { baseUrl: opts.target }),
  });
  const reporter = consoleFor(flags, io, secrets);
  const result = await interruptible(io, (signal) =>
    runAndReport(
      opts,
      [],
      (line) => reporter.line(line),
      (event) => reporter.progress(event),
      signal,
    ),
  );
  reporter.summary(result);
  return result.exitCode;
}
