// The run's pace and task cap as the card and --rate set them, and its traffic summary (RunResult.traffic):
// the checks' tallies, counted in the suites' worker, summed with the probe's in the runner.
import { cardLimit } from '../capabilities.ts';
import { requestsPerMinute, type Pace } from '../io/traffic/pace.ts';
import type { TrafficTally } from '../io/traffic/tallies.ts';
import type { ThrottleState } from '../io/traffic/throttle-pace.ts';
import type { ResolvedRunOptions } from '../options.ts';
import type { FieldSettings } from '../provided.ts';
import type { RunTraffic } from '../../core/types.ts';
import type { CollectedTest } from './collector.ts';
import { percentile } from '../percentile.ts';
import { sumFaults } from '../io/target/faults.ts';

/** `--rate` when given (`off`: none), else the card's limits.requestsPerMinute over C-04's 60 s window. */
export function paceFor(
  opts: Pick<ResolvedRunOptions, 'rate'>,
  card: Record<string, unknown> | null,
): Pace | null {
  if (opts.rate !== undefined) return opts.rate;
  const n = cardLimit(card, 'requestsPerMinute');
  return n !== undefined && n >= 1 ? { limit: Math.floor(n), windowMs: 60_000, source: 'card' } : null;
}

/**
 * The card's limits.concurrentTasks (spec 8): the governor keeps at most that many agent turns in
 * flight; null when the card gives no positive whole number.
 */
export function taskCapFor(card: Record<string, unknown> | null): number | null {
  const n = cardLimit(card, 'concurrentTasks');
  return n !== undefined && Number.isInteger(n) ? n : null;
}

/** A whole-millisecond percentile of the turn latencies, null when no turn was timed. */
function latencyAt(sorted: number[], p: number): number | null {
  const ms = percentile(sorted, p);
  return ms === undefined ? null : Math.round(ms);
}

/** A rate in requests per second, to two places (null: none). */
function perS(rate: number | undefined): number | null {
  return rate === undefined ? null : Math.round(rate * 100) / 100;
}

/** The governor's throttled pace as report.json's traffic.rateLimit.throttled. */
export function throttledOf(state: ThrottleState): NonNullable<RunTraffic['rateLimit']['throttled']> {
  return {
    decreases: state.decreases,
    lowestPerS: perS(state.lowestPerS),
    endPerS: perS(state.ratePerS),
    followUpsFirst: state.firstLetOut,
  };
}

/** What a budget left out beside the checks' own cuts: a requirement, and the cut's words and option. */
export interface RequirementCut {
  requirementId: string;
  what: string;
  option: string;
}

export function summarizeTraffic(
  field: FieldSettings,
  tests: readonly CollectedTest[],
  /** The runner's own requests: the probe's, the window fill's (window-fill.ts). */
  runner: ReadonlyArray<TrafficTally | undefined>,
  /** Cuts of checks that left no tally (the run's budget ended before they started). */
  more: readonly RequirementCut[] = [],
): RunTraffic {
  const tallies = [
    ...tests.flatMap((t) => (t.traffic === undefined ? [] : [t.traffic])),
    ...runner.filter((t): t is TrafficTally => t !== undefined),
  ];
  const sum = (f: (t: TrafficTally) => number): number => tallies.reduce((n, t) => n + f(t), 0);
  const latencies = tallies.flatMap((t) => t.turnLatencyMs).sort((a, b) => a - b);
  const pace = field.pace;
  const faults = sumFaults(tallies.map((t) => t.faults));
  return {
    profile: field.profile,
    requests: sum((t) => t.requests),
    agentTurns: sum((t) => t.agentTurns),
    maxTurns: field.maxTurns,
    turnLatencyMs: {
      p50: latencyAt(latencies, 50),
      p95: latencyAt(latencies, 95),
      samples: latencies.length,
    },
    rateLimit: {
      requestsPerMinute: requestsPerMinute(pace),
      source: pace === null ? 'none' : pace.source,
      waitedMs: sum((t) => t.waitedMs),
      rateLimitedAnswers: sum((t) => t.rateLimitedAnswers),
    },
    concurrency: {
      limit: field.concurrency,
      maxInFlight: Math.max(0, ...tallies.map((t) => t.maxInFlight)),
      taskLimit: field.taskCap ?? null,
      maxTasksInFlight: Math.max(0, ...tallies.map((t) => t.maxTasksInFlight ?? 0)),
      ...(field.suiteWorkers === undefined ? {} : { suiteWorkers: field.suiteWorkers }),
    },
    ...(faults === undefined ? {} : { faults }),
    cut: cutsOf(tests, more),
    properties: tests.flatMap((t) =>
      (t.traffic?.properties ?? []).map((p) => ({ requirementId: t.result?.requirementId ?? t.name, ...p })),
    ),
  };
}

const LISTED_IDS = 8;

/** The checks' cuts, one line per kind: how many requirements, which (the first few), and the option. */
function cutsOf(tests: readonly CollectedTest[], more: readonly RequirementCut[]): RunTraffic['cut'] {
  const cuts: RequirementCut[] = [
    ...tests.flatMap((t) =>
      (t.traffic?.cuts ?? []).map((c) => ({ ...c, requirementId: t.result?.requirementId ?? t.name })),
    ),
    ...more,
  ];
  const byKind = new Map<string, { what: string; option: string; ids: Set<string> }>();
  for (const cut of cuts) {
    const key = `${cut.what}\u0000${cut.option}`;
    const entry = byKind.get(key) ?? { what: cut.what, option: cut.option, ids: new Set<string>() };
    entry.ids.add(cut.requirementId);
    byKind.set(key, entry);
  }
  return [...byKind.values()].map(({ what, option, ids }) => {
    const list = [...ids];
    const rest = list.length > LISTED_IDS ? ` and ${list.length - LISTED_IDS} more` : '';
    return {
      what: `${what}: ${list.length} requirement(s) (${list.slice(0, LISTED_IDS).join(', ')}${rest})`,
      option,
    };
  });
}
