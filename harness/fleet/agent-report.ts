// Reads one agent's report directory (the report files of `run --out`): the figures a shard and a fleet
// report keep of it (exit code, compliance level, score, verdict counts, failing requirements), and
// whether it is complete enough to be kept when a shard is run again.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ReportDocument } from '../../reporters/json-report.ts';
import { REPORT_FILES } from '../../reporters/index.ts';
import { redactLine } from '../../core/redaction.ts';
import type { FleetAgentOutcome } from '../../schemas/generated/types.ts';

/** The options a fleet handed to the run, beside its reports (`run --config` reads the same file). */
export const OPTIONS_FILE = 'options.json';
/** The run's console output, for an agent that could not be run. */
export const LOG_FILE = 'run.log';

export type ReportFigures = Pick<
  FleetAgentOutcome,
  'exitCode' | 'exitReason' | 'level' | 'score' | 'partial' | 'counts' | 'failing'
> & { durationMs: number; report: ReportDocument };

export function readReportDocument(dir: string): ReportDocument | undefined {
  try {
    return JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as ReportDocument;
  } catch {
    return undefined;
  }
}

export function figuresOf(report: ReportDocument): ReportFigures {
  return {
    exitCode: report.exitCode,
    exitReason: report.exitReason,
    level: report.compliance.level,
    score: report.compliance.score,
    partial: report.compliance.partial,
    counts: report.summary.byVerdict,
    failing: report.requirements.filter((r) => r.verdict === 'fail' || r.verdict === 'warn').map((r) => r.id),
    durationMs: report.durationMs,
    report,
  };
}

export interface CompleteCheck {
  target: string;
  agentId: string;
  /** The options.json the fleet would write now: a report made with other options is stale. */
  optionsText: string;
}

/**
 * A report worth keeping: every report file, the options unchanged, the same target, and a run that got
 * a verdict (exit 0 or 1). A run that could not be done (exit 2) is always tried again.
 */
export function completeReport(dir: string, want: CompleteCheck): ReportFigures | undefined {
  if (!Object.keys(REPORT_FILES).every((f) => existsSync(join(dir, f)))) return undefined;
  let options: string;
  try {
    options = readFileSync(join(dir, OPTIONS_FILE), 'utf8');
  } catch {
    return undefined;
  }
  if (options !== want.optionsText) return undefined;
  const report = readReportDocument(dir);
  if (report?.compliance === undefined || (report.exitCode !== 0 && report.exitCode !== 1)) return undefined;
  // A report shows the target as redacted (a URL's user information never reaches it).
  const target = redactLine(want.target, []);
  if (report.target.baseUrl !== target || report.target.agentId !== want.agentId) return undefined;
  return figuresOf(report);
}
