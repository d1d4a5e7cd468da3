// What the CLI's commands share (program.ts builds them; none imports another): the io they write
// to, the exit-code setter, repeatable options, the options of every graded mode and the console
// reporter those modes print with.
import { Option, type Command } from 'commander';
import { REPORT_FILE_LIST } from '../../core/report-files.ts';
import { useColour } from '../../reporters/console/ansi.ts';
import { ConsoleReporter, STATUS_EVERY_MS } from '../../reporters/console/console-reporter.ts';
import { ConfigError } from '../options.ts';
import type { LevelSelection } from '../../core/types.ts';

export interface CliIo {
  out: (text: string) => void;
  err: (text: string) => void;
  env: NodeJS.ProcessEnv;
  /** stdout is a terminal: the console reporter colours its output (unless NO_COLOR is set). */
  isTTY?: boolean;
}

/** How a command hands its exit code to main(). */
export type SetCode = (code: number) => void;

/** Commander's reader of a repeatable option: each use adds one value. */
export const collect = (value: string, previous: string[] | undefined): string[] => [
  ...(previous ?? []),
  value,
];

/** A count given on the command line (an integer >= 1), or undefined when the flag was not given. */
export function positiveInt(value: unknown, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(n) || n <= 0)
    throw new ConfigError(`${flag} must be a positive integer, got '${String(value)}'`);
  return n;
}

/** The options of the receiver and client modes that say what is graded and how it is reported. */
export function addGradingOptions(command: Command, onlyExample: string): Command {
  return command
    .option(
      '--out <dir>',
      `directory for the report files (default ./reports; checked before the first request): ${REPORT_FILE_LIST}`,
    )
    .addOption(
      new Option('--level <level>', 'requirements to run and grade (default all)').choices([
        'must',
        'should',
        'all',
      ]),
    )
    .option('--only <glob>', `requirement ids or sections, e.g. "${onlyExample}"; repeatable`, collect)
    .option('--baseline <file>', 'expected failures: an earlier report.json or {"expectedFailures": [ids]}')
    .addOption(
      new Option('--quiet', 'print only the findings, the verdict and the exit line').conflicts('verbose'),
    )
    .option('--verbose', 'print every finding in full');
}

/** What the grading options were given as, in the shape of the receiver and client run options. */
export function gradingFlags(flags: Record<string, unknown>): {
  out?: string;
  level?: LevelSelection;
  only: string[];
  baseline?: string;
} {
  return {
    ...(flags.out === undefined ? {} : { out: String(flags.out) }),
    ...(flags.level === undefined ? {} : { level: flags.level as LevelSelection }),
    only: ((flags.only as string[] | undefined) ?? [])
      .flatMap((g) => g.split(','))
      .filter((g) => g.trim() !== ''),
    ...(flags.baseline === undefined ? {} : { baseline: String(flags.baseline) }),
  };
}

/** What a command prints with: the console reporter's three calls. */
export type CommandConsole = Pick<ConsoleReporter, 'line' | 'progress' | 'summary' | 'stopStatus'>;

/**
 * The console reporter of a command: --quiet or --verbose, colour on a terminal, secrets masked;
 * `status`: a status line when the console was silent for 5 s on a terminal, 30 s in a log (the
 * modes that report a plan and its checks as they end: `run`). A
 * failure of the console itself is said once on stderr and loses nothing: the run goes on, its exit
 * code stands and the report files hold it.
 */
export function consoleFor(
  flags: Record<string, unknown>,
  io: CliIo,
  secrets: string[],
  { status = false }: { status?: boolean } = {},
): CommandConsole {
  const reporter = new ConsoleReporter({
    write: io.out,
    mode: flags.quiet === true ? 'quiet' : flags.verbose === true ? 'verbose' : 'normal',
    colour: useColour(io.isTTY === true, io.env),
    secrets,
    ...(status ? { statusEveryMs: STATUS_EVERY_MS[io.isTTY === true ? 'terminal' : 'piped'] } : {}),
  });
  reporter.startStatus();
  let said = false;
  const guarded =
    <A extends unknown[]>(call: (...args: A) => void) =>
    (...args: A): void => {
      try {
        call(...args);
      } catch (e) {
        if (said) return;
        said = true;
        const why = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
        io.err(`console output failed: ${why}; the run goes on and the report files hold it\n`);
      }
    };
  return {
    line: guarded((text) => reporter.line(text)),
    progress: guarded((event) => reporter.progress(event)),
    summary: guarded((result) => reporter.summary(result)),
    stopStatus: () => reporter.stopStatus(),
  };
}
