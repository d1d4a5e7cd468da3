// The plan's arithmetic (harness/runner/plan.ts): what a declared cost (harness/check/cost.ts) takes
// at this agent, from what the probe measured of it (its pace, task slots, round trip and turn
// latency) and the run's own limits: requests, turns, and the wall time they take side by side.
import type { CheckCost, PlannedWait } from '../check/cost.ts';
import { DEFAULT_MAX_WAIT_MS } from '../check/agent-time.ts';
import { paceIntervalMs } from '../io/traffic/pace.ts';
import type { PlannedCheck } from './schedule.ts';

/** What the probe and the card tell of the agent, and the run's own limits. */
export interface AgentPace {
  /** The pace the run keeps (the card's limits.requestsPerMinute or --rate); null: none. */
  requestsPerMinute: number | null;
  /** The card's limits.concurrentTasks; null: none. */
  taskCap: number | null;
  /** One request's round trip (the probe's card request). */
  roundTripMs: number;
  /** One agent turn (the probe's message/send); null: not measured (then the round trip). */
  turnLatencyMs: number | null;
  /** The card's limits.systemTimeoutMs; null: none. */
  systemTimeoutMs: number | null;
  /** --max-wait: the longest wait a check may plan; null: the check's own budget. */
  maxWaitMs: number | null;
  /** A check's own budget (--check-timeout-ms). */
  checkTimeoutMs: number;
  /** Requests in flight at once (--concurrency): the rate-limit burst sends this many side by side. */
  concurrency?: number;
}

/** Some work of the run, as the plan counts it before turning it into wall time (wallMs). */
export interface Work {
  /** Requests the pace spaces out. */
  paced: number;
  /** Requests sent as a burst, past the pace on purpose (C-04). */
  burst: number;
  turns: number;
  /** Round trips, turns and waits one after another. */
  serialMs: number;
}

export const NONE: Work = { paced: 0, burst: 0, turns: 0, serialMs: 0 };

export const MINUTE_MS = 60_000;

export function add(a: Work, b: Work): Work {
  return {
    paced: a.paced + b.paced,
    burst: a.burst + b.burst,
    turns: a.turns + b.turns,
    serialMs: a.serialMs + b.serialMs,
  };
}

/** `n` times some work (a property's further cases); a burst is never repeated. */
export function times(w: Work, n: number): Work {
  return { paced: w.paced * n, burst: 0, turns: w.turns * n, serialMs: w.serialMs * n };
}

/**
 * The ms one planned wait is expected to take at this agent. A rate window (C-04: 60 s) is waited
 * for only as long as the run lets a check wait (--max-wait, else DEFAULT_MAX_WAIT_MS): a longer
 * Retry-After is said, not waited for (suites/08-limits/window-reset.ts).
 */
export function waitMs(wait: PlannedWait, agent: AgentPace): number {
  if ('spec' in wait) return wait.spec;
  if ('turns' in wait) return wait.turns * (agent.turnLatencyMs ?? agent.roundTripMs);
  if ('rateWindow' in wait) return Math.min(MINUTE_MS, agent.maxWaitMs ?? DEFAULT_MAX_WAIT_MS);
  const cap = agent.maxWaitMs ?? agent.checkTimeoutMs;
  return Math.min(agent.systemTimeoutMs ?? cap, cap);
}

// The requests a burst sends side by side when --concurrency does not say (the run's default).
const BURST_LANES = 32;

/**
 * One request's round trip as the run will see it. The probe's card request is the first on its
 * connection (the handshake, the agent's first answer); its turn came after on a warm connection, and
 * a turn is at least one round trip: the shorter of the two.
 */
function roundTripMs(agent: AgentPace): number {
  return Math.min(agent.roundTripMs, agent.turnLatencyMs ?? Infinity);
}

export function workOf(cost: CheckCost, agent: AgentPace): Work {
  const rtt = roundTripMs(agent);
  const turnMs = agent.turnLatencyMs ?? rtt;
  const burst = cost.burst === true ? (agent.requestsPerMinute ?? 0) + cost.requests : 0;
  const waits = (cost.waits ?? []).reduce((ms, w) => ms + waitMs(w, agent), 0);
  const plain = cost.requests - cost.turns;
  // The burst's round trips, side by side (its requests bypass the pace, not the cap in flight).
  const burstMs = burst > 0 ? Math.ceil(burst / (agent.concurrency ?? BURST_LANES)) * rtt : 0;
  return {
    // A burst's requests bypass the pace: its own count is the limit plus the requests it declares.
    paced: burst > 0 ? 0 : cost.requests,
    burst,
    turns: cost.turns,
    serialMs: plain * rtt + cost.turns * turnMs + waits + burstMs,
  };
}

/** The work of a file's shared samples, each once (SuiteFileDeclaration.samples). */
export function samplesWork(check: PlannedCheck, agent: AgentPace): Work {
  const declared = Object.values(check.plan?.file.samples ?? {});
  return declared.reduce((w, sample) => add(w, workOf(sample, agent)), NONE);
}

/** The mean ms between the requests the run lets out at this agent's pace (harness/io/traffic/pace.ts). */
function intervalMs(agent: AgentPace): number {
  if (agent.requestsPerMinute === null) return 0;
  return paceIntervalMs({ limit: agent.requestsPerMinute, windowMs: MINUTE_MS, source: 'card' });
}

/**
 * Wall time of some work at this agent: the pace spaces its requests out, while files in several
 * workers (and turns in several task slots) overlap their round trips and waits.
 */
export function wallMs(work: Work, agent: AgentPace, workers: number): number {
  const paceMs = work.paced * intervalMs(agent);
  const lanes = Math.max(1, Math.min(workers, agent.taskCap ?? workers));
  return Math.round(Math.max(paceMs, work.serialMs / lanes));
}

/** Each file's phase-1 work: its selected checks once, each of its shared samples once. */
export function fileWork(checks: readonly PlannedCheck[], agent: AgentPace): Map<string, Work> {
  const byFile = new Map<string, Work>();
  const samplesCharged = new Set<string>();
  for (const check of checks) {
    if (check.plan === undefined) continue;
    let work = add(byFile.get(check.file) ?? NONE, workOf(check.plan.cost, agent));
    // Every sample the file declares is charged once, whichever of its checks makes it first.
    if (!samplesCharged.has(check.file)) {
      samplesCharged.add(check.file);
      for (const sample of Object.values(check.plan.file.samples ?? {}))
        work = add(work, workOf(sample, agent));
    }
    byFile.set(check.file, work);
  }
  return byFile;
}

/** The name verifies() gives a check's test: `<requirement id> <title>`. */
export const testName = (c: Pick<PlannedCheck, 'requirementId' | 'title'>): string =>
  `${c.requirementId} ${c.title}`;
