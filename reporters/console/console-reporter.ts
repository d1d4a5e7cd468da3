// The console reporter of `run`: live progress while the suites run (each suite file with its spec
// sections, marks per check, running counts and elapsed time; each check in verbose mode; a status
// line whenever the console was silent for a while: checks done, requests, MUST decided, time left),
// then the closing summary (console-summary.ts). Quiet mode prints only the findings and the verdict.
import type { ProgressEvent } from '../../core/progress.ts';
import type { CheckResult, CheckStatus, RunResult } from '../../core/types.ts';
import { redactLine } from '../../core/redaction.ts';
import { LiveProgress, statusText } from '../live-progress.ts';
import { palette, type Palette } from './ansi.ts';
import type { ConsoleMode } from './console-mode.ts';
import { formatRunSummary } from './console-summary.ts';

export interface ConsoleOptions {
  write: (text: string) => void;
  mode?: ConsoleMode;
  colour?: boolean;
  /** Redacted from every line, whatever its source. */
  secrets?: readonly string[];
  /** Clock in ms (tests inject one). */
  now?: () => number;
  /**
   * A status line after this many ms without a line (5 s on a terminal, 30 s in a log); the CLI
   * sets it, and tick() decides. Absent: no status line.
   */
  statusEveryMs?: number;
}

/** How often a silent console says where the run is: on a terminal, and in a piped log. */
export const STATUS_EVERY_MS = { terminal: 5_000, piped: 30_000 } as const;
// How often the timer asks tick() whether a status line is due.
const TICK_MS = 1_000;

const MARK: Record<CheckStatus, string> = {
  pass: '.',
  fail: 'F',
  error: 'E',
  'not-applicable': '-',
  'not-exercised': '~',
};
const STATUS_ORDER: CheckStatus[] = ['pass', 'fail', 'error', 'not-exercised', 'not-applicable'];

function sectionOf(requirementId: string): string {
  return requirementId.split('/')[0] ?? requirementId;
}

export class ConsoleReporter {
  readonly mode: ConsoleMode;
  private readonly p: Palette;
  private readonly now: () => number;
  private readonly started: number;
  private readonly totals = new Map<CheckStatus, number>();
  private readonly sectionsByFile = new Map<string, Set<string>>();
  private readonly live: LiveProgress;
  private lastLine: number;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly options: ConsoleOptions) {
    this.mode = options.mode ?? 'normal';
    this.p = palette(options.colour ?? false);
    this.now = options.now ?? (() => performance.now());
    this.started = this.now();
    this.lastLine = this.started;
    this.live = new LiveProgress(this.now);
  }

  /** Starts the timer of the status line (statusEveryMs); summary() stops it. */
  startStatus(): void {
    if (this.options.statusEveryMs === undefined || this.mode === 'quiet' || this.timer !== undefined) return;
    this.timer = setInterval(() => this.tick(), TICK_MS);
    // The status line never keeps a finished process alive.
    this.timer.unref();
  }

  /** Prints the status line when the console has been silent for statusEveryMs. */
  tick(): void {
    const every = this.options.statusEveryMs;
    if (every === undefined || this.mode === 'quiet' || this.now() - this.lastLine < every) return;
    this.emit(`${this.elapsed()} ${this.p.style('bold', 'status:')} ${statusText(this.live.status())}`);
  }

  /** A line of the runner's own log (target, report paths); silent in quiet mode. */
  line(text: string): void {
    if (this.mode !== 'quiet') this.emit(text);
  }

  progress(event: ProgressEvent): void {
    this.live.read(event);
    if (event.kind === 'start' || event.kind === 'plan') return;
    if (event.kind === 'check') {
      const sections = this.sectionsByFile.get(event.file) ?? new Set<string>();
      sections.add(sectionOf(event.check.requirementId));
      this.sectionsByFile.set(event.file, sections);
      this.totals.set(event.check.status, (this.totals.get(event.check.status) ?? 0) + 1);
      if (this.mode === 'verbose') this.emit(this.checkLine(event.check));
      return;
    }
    if (this.mode !== 'quiet') this.emit(this.fileLine(event));
  }

  summary(result: RunResult): void {
    this.stopStatus();
    this.emit(formatRunSummary(result, this.p, this.mode));
  }

  stopStatus(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }

  private elapsed(): string {
    return this.p.style('grey', `[${((this.now() - this.started) / 1000).toFixed(1).padStart(6)}s]`);
  }

  private counts(statuses: Iterable<[CheckStatus, number]>): string {
    const map = new Map(statuses);
    return STATUS_ORDER.filter((s) => (map.get(s) ?? 0) > 0)
      .map((s) => `${map.get(s)} ${s}`)
      .join(', ');
  }

  private fileLine(event: Extract<ProgressEvent, { kind: 'file' }>): string {
    const sections = [...(this.sectionsByFile.get(event.file) ?? [])].join(' ') || '-';
    const marks = event.statuses.map((s) => this.p.verdict(s, MARK[s])).join('');
    const own = new Map<CheckStatus, number>();
    for (const s of event.statuses) own.set(s, (own.get(s) ?? 0) + 1);
    const total = [...this.totals.values()].reduce((a, b) => a + b, 0);
    const suiteError = event.suiteErrors > 0 ? this.p.verdict('error', ' (suite error)') : '';
    return `${this.elapsed()} ${sections.padEnd(10)} ${event.file} ${marks}${suiteError}  ${this.counts(own)} | total ${total}: ${this.counts(this.totals)}`;
  }

  private checkLine(check: CheckResult): string {
    const tag = this.p.verdict(check.status, check.status.toUpperCase().padEnd(14));
    return `${this.elapsed()}   ${tag} ${check.requirementId}  ${check.title} (${Math.round(check.durationMs)} ms)`;
  }

  private emit(text: string): void {
    const clean = redactLine(text, this.options.secrets ?? []);
    this.lastLine = this.now();
    this.options.write(`${clean}\n`);
  }
}
