// The programmatic runs of the three roles, as the public API (harness/index.ts) and the CLI give
// them: the engine's run (runner/, receiver/, client/) resolves to the RunResult, then the report
// files of reporters/ are written into `out`. This module, the CLI (cli/) and the fleet (fleet/) are
// the top layer: they import the engine and the reporters, and neither imports them
// (harness/README.md, Layers).
import { writeReports, type WrittenReports } from '../reporters/index.ts';
import { certifyClient, type ClientRunOptions } from './client/run-client.ts';
import type { ProgressListener } from '../core/progress.ts';
import type { RunResult } from '../core/types.ts';
import { resolveOptions, type ResolvedRunOptions } from './options.ts';
import { certifyReceiver, type ReceiverRunOptions } from './receiver/run-receiver.ts';
import { outOf } from './roles/role-run.ts';
import { runResolved, type RunOptions, type RunReporter } from './runner/run-conformance.ts';

/** Programmatic entry: options are taken as given (no environment, no config file). */
export async function runConformance(options: RunOptions = {}): Promise<RunResult> {
  const { reporters = [], log = () => undefined, progress, ...raw } = options;
  // HTTPS_PROXY / HTTP_PROXY / NO_PROXY are honoured as curl does (loopback is never proxied by them).
  return runAndReport(
    resolveOptions({ flag: raw, env: {}, file: {} }, process.env),
    reporters,
    log,
    progress,
  );
}

/** A service run from resolved options (`run` merges flags, environment and config file first). */
export async function runAndReport(
  opts: ResolvedRunOptions,
  reporters: RunReporter[],
  log: (line: string) => void,
  progress?: ProgressListener,
): Promise<RunResult> {
  const result = await runResolved(opts, reporters, log, progress);
  const written = opts.out === null ? null : saveReports(result, opts.out);
  if (written !== null) log(`reports: ${written.dir} (${written.files.join(', ')})`);
  return result;
}

/** Certifies a webhook receiver (`a2a-conformance receiver`). */
export async function runReceiver(opts: ReceiverRunOptions): Promise<RunResult> {
  return roleReports(await certifyReceiver(opts), opts);
}

/** Certifies a client through its driver (`a2a-conformance client -- <command>`). */
export async function runClient(opts: ClientRunOptions): Promise<RunResult> {
  return roleReports(await certifyClient(opts), opts);
}

function roleReports(result: RunResult, opts: ReceiverRunOptions | ClientRunOptions): RunResult {
  const out = outOf(opts);
  const written = out === null ? null : saveReports(result, out);
  if (written !== null) opts.log?.(`reports: ${written.dir}`);
  return result;
}

/** Writes the report files (core/report-files.ts) into `out`; a failure exits 2. */
function saveReports(result: RunResult, out: string): WrittenReports | null {
  try {
    return writeReports(result, out);
  } catch (e) {
    result.harnessErrors.push({ message: `writing the reports failed: ${(e as Error).message}` });
    result.exitCode = 2;
    result.exitReason = `run could not be done: writing the reports failed: ${(e as Error).message}`;
    return null;
  }
}
