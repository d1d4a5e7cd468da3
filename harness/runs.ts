// The programmatic runs of the three roles, as the public API (harness/index.ts) and the CLI give
// them: the engine's run (runner/, receiver/, client/) resolves to the RunResult, then the report
// files of reporters/ are written into `out`. This module, the CLI (cli/) and the fleet (fleet/) are
// the top layer: they import the engine and the reporters, and neither imports them
// (harness/README.md, Layers).
import { REPORT_FILES, withReportFailures, writeReports, type WrittenReports } from '../reporters/index.ts';
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

/** A service run from resolved options (`run` merges flags, environment and config file first). */
export async function runAndReport(
  opts: ResolvedRunOptions,
  reporters: RunReporter[],
  log: (line: string) => void,
  progress?: ProgressListener,
  /** Aborted by SIGINT or SIGTERM: the run ends early, keeps what it decided, writes every report. */
  signal?: AbortSignal,
): Promise<RunResult> {
  if (opts.out !== null) checkReportDir(opts.out);
  const result = await runResolved(opts, reporters, log, progress, signal);
  const written = opts.out === null ? null : saveReports(result, opts.out);
  if (written !== null) log(reportsLine(written));
  return result;
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
