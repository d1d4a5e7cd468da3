// `a2a-conformance run`: merges flags, A2A_* variables and the --config file (in that precedence),
// runs the conformance suites with the console reporter (live progress and a status line, then the
// summary; --quiet, --verbose) and writes the report files into --out; --events streams the run's
// events as JSON lines (into a file, or onto stdout with the console on stderr).
import { RUN_OPTIONS } from '../option-table.ts';
import { readConfigFile, readEnv, resolveOptions, type RawOptions } from '../options.ts';
import { runAndReport, userSecrets } from '../runs.ts';
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
  // `--events -` takes stdout for the stream alone: the console moves to stderr.
  const consoleIo = opts.events === '-' ? { ...io, out: io.err } : io;
  const reporter = consoleFor(flags, consoleIo, userSecrets(opts), { status: true });
  try {
    const result = await interruptible(io, (signal) =>
      runAndReport(
        opts,
        [],
        (line) => reporter.line(line),
        (event) => reporter.progress(event),
        signal,
        io.out,
      ),
    );
    reporter.summary(result);
    return result.exitCode;
  } finally {
    reporter.stopStatus();
  }
}
