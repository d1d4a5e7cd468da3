// How the run went on the wire (RunResult.traffic: requests, agent turns, turn latency, rate-limit
// waits, concurrency, profile, what the budget cut), as label/value facts that the console,
// summary.md and report.html all print. Reports of older versions have no traffic: no facts.
import type { RunResult } from '../core/types.ts';

export interface TrafficFact {
  label: string;
  value: string;
}

function seconds(ms: number): string {
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`;
}

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

export function trafficFacts(result: Pick<RunResult, 'traffic'>): TrafficFact[] {
  const t = result.traffic;
  if (t === undefined || t === null || typeof t !== 'object') return [];
  const facts: TrafficFact[] = [];
  const requests = num(t.requests);
  const turns = num(t.agentTurns);
  const maxTurns = num(t.maxTurns);
  if (typeof t.profile === 'string') facts.push({ label: 'profile', value: t.profile });
  if (requests !== undefined) {
    const turnText =
      turns === undefined
        ? ''
        : `, ${turns} agent turn(s)${maxTurns === undefined ? '' : ` of at most ${maxTurns}`}`;
    facts.push({ label: 'requests', value: `${requests}${turnText}` });
  }
  const lat = t.turnLatencyMs;
  if (lat !== undefined && lat !== null) {
    const p50 = num(lat.p50);
    const p95 = num(lat.p95);
    facts.push({
      label: 'turn latency',
      value:
        p50 === undefined
          ? 'not measured'
          : `p50 ${seconds(p50)}, p95 ${p95 === undefined ? 'n/a' : seconds(p95)} (${num(lat.samples) ?? 0} turn(s))`,
    });
  }
  const rl = t.rateLimit;
  if (rl !== undefined && rl !== null) {
    const rpm = num(rl.requestsPerMinute);
    const pace =
      rpm === undefined
        ? 'no pace kept'
        : `paced at ${rpm}/min (${rl.source === 'option' ? '--rate' : rl.source === 'card' ? 'agent card' : String(rl.source)})`;
    facts.push({
      label: 'rate limit',
      value: `${pace}; waited ${seconds(num(rl.waitedMs) ?? 0)}; ${num(rl.rateLimitedAnswers) ?? 0} rate-limited answer(s) (429 / -32012) waited out`,
    });
  }
  const c = t.concurrency;
  if (c !== undefined && c !== null && num(c.maxInFlight) !== undefined) {
    facts.push({
      label: 'concurrency',
      value:
        `${num(c.maxInFlight)} in flight at most (limit ${num(c.limit) ?? '?'})` +
        (num(c.taskLimit) === undefined
          ? ''
          : `; ${num(c.maxTasksInFlight) ?? 0} agent turn(s) at most (the card's concurrentTasks ${num(c.taskLimit)})`) +
        (num(c.suiteWorkers) === undefined ? '' : `; ${num(c.suiteWorkers)} suite file(s) at once`),
    });
  }
  const cut = Array.isArray(t.cut) ? t.cut : [];
  if (cut.length > 0) {
    const items = cut.map((x) => `${x.what} (${x.option})`);
    facts.push({
      label: 'left out',
      value: `${cut.length}: ${items.slice(0, 5).join('; ')}${cut.length > 5 ? '; …' : ''}`,
    });
  }
  return facts;
}

/**
 * The console's closing line on transport faults (traffic.faults): "N faults absorbed" with their
 * kinds, and how many reached a check or the probe unabsorbed; null when the run met none.
 */
export function faultsLine(result: Pick<RunResult, 'traffic'>): string | null {
  const faults = result.traffic?.faults;
  if (faults === undefined || faults === null || typeof faults !== 'object') return null;
  let absorbed = 0;
  let lost = 0;
  const kinds: string[] = [];
  for (const [kind, c] of Object.entries(faults)) {
    absorbed += (num(c.retried) ?? 0) + (num(c.reRun) ?? 0);
    lost += num(c.lost) ?? 0;
    kinds.push(`${kind} ${num(c.count) ?? 0}`);
  }
  if (absorbed === 0 && lost === 0) return null;
  const reached = `${lost} reached a check or the probe (not evidence against the agent)`;
  // No resend or re-run got an answer: nothing was absorbed, and the line does not say so.
  if (absorbed === 0)
    return `${lost} transport fault${lost === 1 ? '' : 's'} (${kinds.join(', ')}): ${reached}`;
  return `${absorbed} fault${absorbed === 1 ? '' : 's'} absorbed (${kinds.join(', ')})${lost === 0 ? '' : `; ${reached}`}`;
}

/**
 * The console's closing line on the pace a throttle in front of the agent lowered
 * (traffic.rateLimit.throttled), beside the faults absorbed; null when it was never lowered.
 */
export function throttledLine(result: Pick<RunResult, 'traffic'>): string | null {
  const th = result.traffic?.rateLimit?.throttled;
  const decreases = num(th?.decreases) ?? 0;
  if (th === undefined || th === null || decreases === 0) return null;
  const lowest = num(th.lowestPerS);
  const end = num(th.endPerS);
  const first = num(th.followUpsFirst) ?? 0;
  const rates = [
    ...(lowest === undefined ? [] : [`lowest ${lowest}/s`]),
    end === undefined ? "back at the card's pace at the end" : `${end}/s at the end`,
  ];
  const followUps = first === 0 ? '' : `; ${first} follow-up(s) on a held task let out first`;
  return `pace lowered below the card's ${decreases} time(s) by a throttle or gateway in front of the agent (${rates.join(', ')})${followUps}`;
}
