// The run's event stream (`run --events <file>`): one JSON line per event as the run goes, for tools
// (schemas/run-event.schema.json, docs/reports.md "The event stream"). `start` first, then `plan`,
// each requirement's `verdict` the moment its last check ends (reporters/live-progress.ts), `fault`
// for a check's harness error or a suite file that did not load, `log` for each console line, a
// `status` line when asked, and `end` last, after a `verdict` line (`revised`) for each requirement
// whose verdict the run's end decided or changed. Every value is redacted before it is written.
import type { ProgressEvent } from '../core/progress.ts';
import { redactResult } from '../core/redaction.ts';
import type { RequirementResult, RunResult, Verdict } from '../core/types.ts';
import type { RunEvent, RunStartEvent, RunVerdictEvent } from '../schemas/generated/types.ts';
import { LiveProgress, type DecidedRequirement } from './live-progress.ts';
import { complianceOf } from './score.ts';
import { decidingChecks, firstFinding } from './sections.ts';

export interface EventStreamOptions {
  /** Takes one line (its newline included). */
  write: (line: string) => void;
  secrets?: readonly string[];
  /** Clock in ms (tests inject one). */
  now?: () => number;
}

type Body<E> = E extends RunEvent ? Omit<E, 'time'> : never;

export class EventStream {
  private readonly now: () => number;
  private readonly live: LiveProgress;
  private readonly streamed = new Map<string, Verdict>();
  private started = false;
  private ended = false;
  private held: Array<{ text: string; at: number }> = [];

  constructor(private readonly options: EventStreamOptions) {
    this.now = options.now ?? (() => Date.now());
    this.live = new LiveProgress(this.now);
  }

  progress(event: ProgressEvent): void {
    const decided = this.live.read(event);
    if (event.kind === 'start') {
      const { tool, target, requirements } = event;
      this.begin({ event: 'start', tool, target, requirements });
    } else if (event.kind === 'plan') {
      const { estimateMs, budgetMs, fits, requirements, requests, turns } = event;
      this.emit({
        event: 'plan',
        checks: event.checks.length,
        requirements,
        estimateMs,
        budgetMs,
        fits,
        requests,
        turns,
      });
    } else if (event.kind === 'check' && event.check.status === 'error') {
      const { requirementId: id, message } = event.check;
      this.emit({ event: 'fault', kind: 'check-error', id, file: event.file, message });
    } else if (event.kind === 'file' && event.suiteErrors > 0) {
      const message = `${event.suiteErrors} error(s) loading or running the suite file`;
      this.emit({ event: 'fault', kind: 'suite-error', file: event.file, message });
    }
    if (decided !== undefined) this.verdict(decided);
  }

  /** A console line, for a person (held until `start`, which comes first). */
  line(text: string): void {
    if (this.started) this.emit({ event: 'log', text });
    else this.held.push({ text, at: this.now() });
  }

  /** Where the run is, as the console's status line says it. */
  status(): void {
    const { elapsedMs: _elapsed, planned: _planned, ...counts } = this.live.status();
    this.emit({ event: 'status', ...counts });
  }

  /** The run's end: the verdicts it decided or changed, its harness errors, then `end`. */
  end(result: RunResult): void {
    if (this.ended) return;
    if (!this.started) {
      // The run ended before it started (it could not be done): `start` still comes first.
      const requirements = result.requirements.map((r) => ({ id: r.id, level: r.level }));
      const { baseUrl, agentId } = result.target;
      this.begin({ event: 'start', tool: result.tool, target: { baseUrl, agentId }, requirements });
    }
    for (const r of result.requirements) {
      if (this.streamed.get(r.id) === r.verdict) continue;
      const line: Body<RunVerdictEvent> = {
        event: 'verdict',
        id: r.id,
        level: r.level,
        verdict: r.verdict,
        checks: r.checks.length,
        revised: true,
      };
      this.emit(withFinding(line, r));
    }
    for (const e of result.harnessErrors) {
      const file = e.file === undefined ? {} : { file: e.file };
      this.emit({ event: 'fault', kind: 'harness-error', message: e.message, ...file });
    }
    const c = complianceOf(result);
    this.emit({
      event: 'end',
      exitCode: result.exitCode,
      exitReason: result.exitReason,
      durationMs: result.durationMs,
      byVerdict: { ...result.summary.byVerdict },
      compliance: c.level,
      score: c.score,
    });
    this.ended = true;
  }

  private begin(start: Body<RunStartEvent>): void {
    this.started = true;
    this.emit(start);
    for (const { text, at } of this.held) this.emit({ event: 'log', text }, at);
    this.held = [];
  }

  private verdict(d: DecidedRequirement): void {
    this.streamed.set(d.id, d.verdict);
    const line: Body<RunVerdictEvent> = {
      event: 'verdict',
      id: d.id,
      level: d.level,
      verdict: d.verdict,
      checks: d.checks.length,
    };
    this.emit(withFinding(line, { verdict: d.verdict, checks: d.checks }));
  }

  private emit(body: Body<RunEvent>, at = this.now()): void {
    if (this.ended) return;
    const event = { ...body, time: new Date(at).toISOString() } as RunEvent;
    const clean = redactResult(event, this.options.secrets ?? []);
    this.options.write(`${JSON.stringify(clean)}\n`);
    if (event.event === 'verdict') this.streamed.set(event.id, event.verdict);
  }
}

const FOUND: ReadonlySet<Verdict> = new Set(['fail', 'warn', 'info', 'error']);

/** Adds the first deciding check's finding and its reproduce command to a verdict that has one. */
function withFinding(
  line: Body<RunVerdictEvent>,
  r: Pick<RequirementResult, 'verdict' | 'checks' | 'message'>,
): Body<RunVerdictEvent> {
  if (!FOUND.has(line.verdict)) return line;
  const finding = firstFinding(r);
  const reproduce = decidingChecks(r)[0]?.reproduce.command;
  return {
    ...line,
    ...(finding === '' ? {} : { finding }),
    ...(reproduce === undefined ? {} : { reproduce }),
  };
}
