// What a run has done so far, read from its progress events (core/progress.ts): the checks that ended
// of the plan's, the requests they sent, the MUST requirements decided (every check of theirs ended),
// the time left (the plan's estimate, corrected by the pace the run keeps), and each requirement's
// verdict the moment its last check ends. The console's status line (console/console-reporter.ts) and
// the event stream (event-stream.ts) both say it.
import type { PlannedCheckWeight, ProgressEvent } from '../core/progress.ts';
import type { CheckResult, Verdict } from '../core/types.ts';
import { foldVerdict } from '../core/verdict.ts';
import type { Level } from '../requirements/types.ts';
import type { RunStatusEvent } from '../schemas/generated/types.ts';

/**
 * Where the run is: the counts of the event stream's `status` event (schemas/run-event.schema.json,
 * RunStatusEvent: one definition of them), plus what the console alone says.
 */
export type LiveStatus = Omit<RunStatusEvent, 'event' | 'time'> & {
  /** Ms since the run started (since this tracker was made). */
  elapsedMs: number;
  /** Whether the plan is known: before it, the run probes the target and collects its checks. */
  planned: boolean;
};

/** A requirement whose checks have all ended, with the verdict they fold to. */
export interface DecidedRequirement {
  id: string;
  level: Level;
  verdict: Verdict;
  checks: CheckResult[];
}

const nameOf = (c: { requirementId: string; title: string }): string => `${c.requirementId} ${c.title}`;

export class LiveProgress {
  private readonly started: number;
  private readonly levels = new Map<string, Level>();
  /** Checks of each requirement still to end (from the plan). */
  private readonly pending = new Map<string, number>();
  private readonly results = new Map<string, CheckResult[]>();
  private readonly decided = new Set<string>();
  private readonly weights = new Map<string, number>();
  private readonly ended = new Set<string>();
  private plan: { at: number; estimateMs: number; checks: number } | undefined;
  private doneMs = 0;
  private requests = 0;
  private mustDecided = 0;

  constructor(private readonly now: () => number) {
    this.started = now();
  }

  /** Reads one event; returns the requirement it decided, if it decided one. */
  read(event: ProgressEvent): DecidedRequirement | undefined {
    if (event.kind === 'start') {
      for (const r of event.requirements) this.levels.set(r.id, r.level);
      return undefined;
    }
    if (event.kind === 'plan') {
      this.readPlan(event.checks, event.estimateMs);
      return undefined;
    }
    if (event.kind !== 'check') return undefined;
    const { check } = event;
    this.requests += event.requests ?? 0;
    const name = nameOf(check);
    // A breadth pass runs a check again: it counts once, and its requirement is decided already.
    if (this.ended.has(name)) return undefined;
    this.ended.add(name);
    this.doneMs += this.weights.get(name) ?? 0;
    const id = check.requirementId;
    this.results.set(id, [...(this.results.get(id) ?? []), check]);
    const left = (this.pending.get(id) ?? 0) - 1;
    this.pending.set(id, left);
    if (left > 0 || this.decided.has(id) || this.plan === undefined) return undefined;
    this.decided.add(id);
    const level = this.levels.get(id) ?? 'MUST';
    if (level === 'MUST') this.mustDecided += 1;
    const checks = this.results.get(id)!;
    return { id, level, verdict: foldVerdict({ level, statuses: checks.map((c) => c.status) }), checks };
  }

  status(): LiveStatus {
    const now = this.now();
    const mustTotal = [...this.pending.keys()].filter((id) => this.levels.get(id) === 'MUST').length;
    const status: LiveStatus = {
      elapsedMs: now - this.started,
      planned: this.plan !== undefined,
      checksDone: this.ended.size,
      checksTotal: this.plan?.checks ?? 0,
      requests: this.requests,
      mustDecided: this.mustDecided,
      mustTotal,
    };
    if (this.plan !== undefined) status.etaMs = this.etaMs(now - this.plan.at, this.plan.estimateMs);
    return status;
  }

  private readPlan(checks: readonly PlannedCheckWeight[], estimateMs: number): void {
    this.plan = { at: this.now(), estimateMs, checks: checks.length };
    for (const c of checks) {
      this.weights.set(nameOf(c), c.weightMs);
      this.pending.set(c.requirementId, (this.pending.get(c.requirementId) ?? 0) + 1);
    }
  }

  /**
   * The plan's estimate of what is left, and what is left at the pace the run kept so far (the ms of
   * plan the ended checks stand for, against the ms they took), blended by how much has ended: at
   * first the plan, at the end the run's own pace.
   */
  private etaMs(elapsed: number, estimateMs: number): number {
    if (estimateMs <= 0) return 0;
    const share = Math.min(1, this.doneMs / estimateMs);
    const byPlan = Math.max(0, estimateMs - elapsed);
    const byPace = this.doneMs > 0 ? ((estimateMs - this.doneMs) * elapsed) / this.doneMs : byPlan;
    return Math.max(0, Math.round((1 - share) * byPlan + share * byPace));
  }
}

function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  return s < 120 ? `${s} s` : `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
}

/** `120/396 checks · 2,345 requests · MUST 80/199 decided · about 35 s left`. */
export function statusText(s: LiveStatus): string {
  if (!s.planned) return 'probing the target and collecting the checks';
  const parts = [
    `${s.checksDone}/${s.checksTotal} checks`,
    `${s.requests.toLocaleString('en-US')} requests`,
    `MUST ${s.mustDecided}/${s.mustTotal} decided`,
  ];
  if (s.etaMs !== undefined) parts.push(`about ${duration(s.etaMs)} left`);
  return parts.join(' · ');
}
