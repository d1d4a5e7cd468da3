// The ETA lines of a run: the share of the planned work the finished checks stand for (each weighted
// by what it declared it costs), extrapolated from the time it took.
import type { ProgressListener } from '../../core/progress.ts';
import type { AgentPace, RunPlan } from './plan.ts';
import type { PlannedCheck } from './schedule.ts';

// An ETA line at most this often while the suites run.
const ETA_EVERY_MS = 30_000;

/**
 * Prints an ETA as the run goes: the share of the planned work the finished checks stand for (each
 * weighted by what it declared it costs), extrapolated from the time it took.
 */
export function etaListener(
  log: (line: string) => void,
  progress: ProgressListener | undefined,
): {
  listener: ProgressListener;
  weigh: (checks: readonly PlannedCheck[], agent: AgentPace, plan: RunPlan) => void;
} {
  const weights = new Map<string, number>();
  let total = 0;
  let done = 0;
  let finished = 0;
  let start = Date.now();
  let lastLine = Date.now();
  return {
    weigh: (checks, agent, plan) => {
      const turnMs = agent.turnLatencyMs ?? agent.roundTripMs;
      const paceMs = agent.requestsPerMinute === null ? 0 : 60_000 / agent.requestsPerMinute;
      const ms = (requests: number, turns: number): number =>
        requests * (agent.roundTripMs + paceMs) + turns * turnMs;
      const cases = new Map(plan.breadth.properties.map((p) => [p.check, p]));
      for (const c of checks) {
        const name = `${c.requirementId} ${c.title}`;
        const cost = c.plan?.cost ?? { requests: 0, turns: 0 };
        const breadth = cases.get(name);
        const more =
          breadth === undefined
            ? 0
            : (breadth.cases - 1) * ms(breadth.perCase.requests, breadth.perCase.turns);
        const w = 1 + ms(cost.requests, cost.turns) + more;
        weights.set(name, w);
        total += w;
      }
      start = Date.now();
      lastLine = start;
    },
    listener: (event) => {
      progress?.(event);
      if (event.kind !== 'check' || total === 0) return;
      finished += 1;
      done += weights.get(`${event.check.requirementId} ${event.check.title}`) ?? 0;
      const now = Date.now();
      if (now - lastLine < ETA_EVERY_MS || done <= 0) return;
      lastLine = now;
      const share = Math.min(1, done / total);
      const left = Math.round(((now - start) / share - (now - start)) / 1000);
      log(
        `eta: ${finished} of ${weights.size} checks, ${Math.round(share * 100)}% of the planned work; about ${left} s left`,
      );
    },
  };
}
