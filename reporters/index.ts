// The reporters: every format is written from the same RunResult. writeReports() puts the report files
// of core/report-files.ts (report.json, junit.xml, report.html, summary.md, badge.svg, console.txt: the
// console summary, verbose, plain; report.har) in one directory; the live console reporter lives in
// reporters/console/. Compliance level and score
// come from reporters/score.ts.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { RunResult } from '../core/types.ts';
import { REPORT_FILE_NAMES, type ReportFileName } from '../core/report-files.ts';
import { renderBadge } from './badge.ts';
import { palette } from './console/ansi.ts';
import { formatRunSummary } from './console/console-summary.ts';
import { renderHtml } from './html/html-report.ts';
import { renderJsonReport } from './json-report.ts';
import { renderHar } from './har.ts';
import { renderJunit } from './junit.ts';
import { renderMarkdown } from './markdown.ts';
import { redactResult } from '../core/redaction.ts';

export { complianceOf, computeCompliance, verdictLine, formatScore, type Compliance } from './score.ts';
export { renderJsonReport, reportDocument, REPORT_SCHEMA_ID, type ReportDocument } from './json-report.ts';
export { renderJunit } from './junit.ts';
export { renderHtml } from './html/html-report.ts';
export { renderMarkdown } from './markdown.ts';
export { renderBadge } from './badge.ts';
export { renderHar } from './har.ts';
export { ConsoleReporter, type ConsoleOptions } from './console/console-reporter.ts';
export { redactResult, MIN_SECRET_LENGTH } from '../core/redaction.ts';

/** The renderer of each report file (core/report-files.ts names them): one each, none more. */
const RENDERERS: Readonly<Record<ReportFileName, (result: RunResult) => string>> = {
  'report.json': renderJsonReport,
  'junit.xml': renderJunit,
  'report.html': renderHtml,
  'summary.md': (result: RunResult) => renderMarkdown(result),
  'badge.svg': renderBadge,
  'console.txt': (result: RunResult) => `${formatRunSummary(result, palette(false), 'verbose')}\n`,
  'report.har': renderHar,
};

/** File name -> renderer, in the order they are written. */
export const REPORT_FILES: Readonly<Record<string, (result: RunResult) => string>> = Object.freeze(
  Object.fromEntries(REPORT_FILE_NAMES.map((name) => [name, RENDERERS[name]])),
);

export interface WrittenReports {
  dir: string;
  /** The files written, in REPORT_FILES order. */
  files: string[];
  /** Each file that could not be rendered or written, and why: the others were written all the same. */
  failed: { file: string; message: string }[];
}

/**
 * The result a report file that could not be written leaves: each failure a harness error, and the
 * run exits 2 (a CI job must not read a missing junit.xml as no failure). An earlier exit-2 reason stays.
 */
export function withReportFailures(result: RunResult, failed: WrittenReports['failed']): RunResult {
  if (failed.length === 0) return result;
  const errors = failed.map((f) => ({ message: `writing ${f.file} failed: ${f.message}` }));
  const first = errors[0]!.message;
  return {
    ...result,
    harnessErrors: [...result.harnessErrors, ...errors],
    exitCode: 2,
    exitReason: result.exitCode === 2 ? result.exitReason : `run could not be done: ${first}`,
  };
}

function renderAndWrite(result: RunResult, dir: string, names: readonly string[]): WrittenReports['failed'] {
  const failed: WrittenReports['failed'] = [];
  for (const name of names) {
    try {
      writeFileSync(join(dir, name), REPORT_FILES[name]!(result));
    } catch (e) {
      failed.push({ file: name, message: e instanceof Error ? `${e.name}: ${e.message}` : String(e) });
    }
  }
  return failed;
}

/**
 * Writes every report file into `outDir` (created if needed). `secrets` are redacted once more from
 * the whole result first; the runner has already done so, other callers may not have. A file that
 * cannot be rendered or written is named in `failed`, and the others, written again with the failure
 * in their harness errors, say so (withReportFailures); only a directory that cannot be made throws.
 */
export function writeReports(
  result: RunResult,
  outDir: string,
  secrets: readonly string[] = [],
): WrittenReports {
  const clean = redactResult(result, secrets);
  const dir = resolve(outDir);
  mkdirSync(dir, { recursive: true });
  const names = Object.keys(REPORT_FILES);
  const failed = renderAndWrite(clean, dir, names);
  const written = names.filter((n) => !failed.some((f) => f.file === n));
  if (failed.length > 0) {
    // The files written first must not say the run went well: they are written again with the failure.
    const again = renderAndWrite(withReportFailures(clean, failed), dir, written);
    failed.push(...again);
  }
  return { dir, files: names.filter((n) => !failed.some((f) => f.file === n)), failed };
}
