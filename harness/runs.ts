// The programmatic runs of the three roles, as the public API (harness/index.ts) and the CLI give
// them: the engine's run (runner/, receiver/, client/) resolves to the RunResult, then the report
// files of reporters/ are written into `out`. This module, the CLI (cli/) and the fleet (fleet/) are
// the top layer: they import the engine and the reporters, and neither imports them
// (harness/README.md, Layers).
import { closeSync, openSync, writeSync } from 'node:fs';
import { REPORT_FILES, withReportFailures, writeReports, type WrittenReports } from '../reporters/index.ts';
import { EventStream } from '../reporters/event-stream.ts';
import { ConfigError } from './options.ts';
import { secretsOf } from './provided.ts';
import { certifyClient, type ClientRunOptions } from './client/run-client.ts';
import type { ProgressListener } from '../core/progress.ts';
import type { RunResult } from '../core/types.ts';
import { resolveOptions, type ResolvedRunOptions } from './options.ts';
import { checkOutputDir } from './output-dir.ts';
import { certifyReceiver, type ReceiverRunOptions } from './receiver/run-receiver.ts';
import { outOf } from './roles/role-run.ts';
import { loadBaseline } from './runner/baseline.ts';
import { runResolved, type RunOptions, type RunReporter } from './runner/run-conformance.ts';

/** Programmatic entry: options are taken as given (no environment, no config file). */
export async function runConformance(options: RunOptions = {}): Promise<RunResult> {
  const { reporters = [], log = () => undefined, progress, signal, ...raw } = options;
  // HTTPS_PROXY / HTTP_PROXY / NO_PROXY are honoured as curl does (loopback is never proxied by them).
  return runAndReport(
    resolveOptions({ flag: raw, env: {}, file: {} }, process.env),
    reporters,
    log,
    progress,
    signal,
  );
}

/** The credentials the user gave (the bundled target's own are redacted by the runner). */
export function userSecrets(opts: ResolvedRunOptions): string[] {
  return secretsOf({
    auth: {
      ...(opts.apiKey === undefined ? {} : { apiKey: opts.apiKey }),
      ...(opts.bearer === undefined ? {} : { bearer: opts.bearer }),
    },
    network: opts.network,
    ...(opts.target === undefined ? {} : { baseUrl: opts.target }),
  });
}

// A `status` event this often, as the console's status line in a log.
const EVENT_STATUS_EVERY_MS = 30_000;

/**
 * The --events stream, opened before the run so that a path it cannot write stops the run before its
 * first request (exit 2). `-` writes to `stdout`.
 */
function openEvents(
  path: string,
  stdout: (text: string) => void,
  secrets: readonly string[],
): { stream: EventStream; close: () => void } {
  if (path === '-') return { stream: new EventStream({ write: stdout, secrets }), close: () => undefined };
  let fd: number;
  try {
    fd = openSync(path, 'w');
  } catch (e) {
    throw new ConfigError(
      `--events ${path}: cannot write it (${(e as Error).message}); name a file in a directory you may write, or - for stdout`,
    );
  }
  return {
    stream: new EventStream({ write: (line) => writeSync(fd, line), secrets }),
    close: () => closeSync(fd),
  };
}

/**
 * A service run from resolved options (`run` merges flags, environment and config file first).
 * `stdout` takes the event stream of `--events -` (the process's stdout unless the CLI says).
 */
export async function runAndReport(
  opts: ResolvedRunOptions,
  reporters: RunReporter[],
  log: (line: string) => void,
  progress?: ProgressListener,
  /** Aborted by SIGINT or SIGTERM: the run ends early, keeps what it decided, writes every report. */
  signal?: AbortSignal,
  stdout: (text: string) => void = (text) => void process.stdout.write(text),
): Promise<RunResult> {
  if (opts.out !== null) checkReportDir(opts.out);
  const events = opts.events === undefined ? undefined : openEvents(opts.events, stdout, userSecrets(opts));
  const stream = events?.stream;
  const say = (line: string): void => {
    log(line);
    stream?.line(line);
  };
  const heard = (event: Parameters<ProgressListener>[0]): void => {
    progress?.(event);
    stream?.progress(event);
  };
  const timer = stream === undefined ? undefined : setInterval(() => stream.status(), EVENT_STATUS_EVERY_MS);
  timer?.unref();
  try {
    const result = await runResolved(opts, reporters, say, stream === undefined ? progress : heard, signal);
    const written = opts.out === null ? null : saveReports(result, opts.out);
    if (written !== null) say(reportsLine(written));
    stream?.end(result);
    return result;
  } finally {
    clearInterval(timer);
    events?.close();
  }
}

/** Certifies a webhook receiver (`a2a-conformance receiver`). */
export async function runReceiver(opts: ReceiverRunOptions): Promise<RunResult> {
  checkRoleOutputs(opts);
  return roleReports(await certifyReceiver(opts), opts);
}

/** Certifies a client through its driver (`a2a-conformance client -- <command>`). */
export async function runClient(opts: ClientRunOptions): Promise<RunResult> {
  checkRoleOutputs(opts);
  return roleReports(await certifyClient(opts), opts);
}

/** Before the first request: the report directory can be written (ConfigError, exit 2, when not). */
function checkReportDir(out: string): void {
  checkOutputDir(out, '--out', Object.keys(REPORT_FILES));
}

/** A role run's outputs and its baseline, checked before it sends anything (the run reads the baseline after). */
function checkRoleOutputs(opts: ReceiverRunOptions | ClientRunOptions): void {
  const out = outOf(opts);
  if (out !== null) checkReportDir(out);
  if (opts.baseline !== undefined) loadBaseline(opts.baseline);
}

function roleReports(result: RunResult, opts: ReceiverRunOptions | ClientRunOptions): RunResult {
  const out = outOf(opts);
  const written = out === null ? null : saveReports(result, out);
  if (written !== null) opts.log?.(reportsLine(written));
  return result;
}

/** `reports: /r (report.json, ...)`, then each file not written and why. */
function reportsLine(written: WrittenReports): string {
  const not = written.failed.map((f) => `; ${f.file} NOT written: ${f.message}`).join('');
  return `reports: ${written.dir} (${written.files.join(', ')})${not}`;
}

/**
 * Writes the report files (core/report-files.ts) into `out`. A file that could not be written
 * is said on the log and in `result` (a harness error, exit 2); every other one is written.
 */
function saveReports(result: RunResult, out: string): WrittenReports | null {
  try {
    const written = writeReports(result, out);
    if (written.failed.length > 0) Object.assign(result, withReportFailures(result, written.failed));
    return written;
  } catch (e) {
    result.harnessErrors.push({ message: `writing the reports failed: ${(e as Error).message}` });
    result.exitCode = 2;
    result.exitReason = `run could not be done: writing the reports failed: ${(e as Error).message}`;
    return null;
  }
}
