// What changed in a fleet since an earlier fleet.json (`fleet merge --previous`): agents that
// regressed (a lower compliance level, a worse exit code, or a requirement newly failed), agents
// fixed, agents added and removed, and requirements failed now by some agent and before by none.
import { COMPLIANCE_LABELS } from '../../reporters/score.ts';
import type {
  FleetAgentChange,
  FleetAgentOutcome,
  FleetAgentState,
  FleetChanges,
  FleetReport,
} from '../../schemas/generated/types.ts';

/** Higher is better; no report ranks below every level. */
function rank(level: FleetAgentOutcome['level']): number {
  const order = Object.keys(COMPLIANCE_LABELS); // best first
  return level === null ? -1 : order.length - order.indexOf(level);
}

function stateOf(a: FleetAgentOutcome): FleetAgentState {
  return { level: a.level, exitCode: a.exitCode, score: a.score };
}

function change(before: FleetAgentOutcome, after: FleetAgentOutcome): FleetAgentChange {
  const was = new Set(before.failing);
  const now = new Set(after.failing);
  return {
    name: after.name,
    before: stateOf(before),
    after: stateOf(after),
    newlyFailing: after.failing.filter((id) => !was.has(id)),
    nowPassing: before.failing.filter((id) => !now.has(id)),
  };
}

// Exit codes go from best to worst: 0 passed, 1 failed its gate, 2 not run.
function regressed(c: FleetAgentChange): boolean {
  return (
    rank(c.after.level) < rank(c.before.level) ||
    c.after.exitCode > c.before.exitCode ||
    c.newlyFailing.length > 0
  );
}

function fixed(c: FleetAgentChange): boolean {
  return (
    rank(c.after.level) > rank(c.before.level) ||
    c.after.exitCode < c.before.exitCode ||
    c.nowPassing.length > 0
  );
}

/**
 * An agent that was not run (exit 2) has no failing list, so its requirements are neither newly
 * failing nor now passing: only a run on both sides compares requirement by requirement.
 */
function comparable(before: FleetAgentOutcome, after: FleetAgentOutcome): FleetAgentChange {
  const c = change(before, after);
  if (before.exitCode === 2 || after.exitCode === 2) return { ...c, newlyFailing: [], nowPassing: [] };
  return c;
}

export function diffFleets(
  previous: Pick<FleetReport, 'agents' | 'generatedAt'>,
  previousFile: string,
  agents: readonly FleetAgentOutcome[],
): FleetChanges {
  const before = new Map(previous.agents.map((a) => [a.name, a]));
  const names = new Set(agents.map((a) => a.name));
  const changes: FleetChanges = {
    previous: previousFile,
    previousGeneratedAt: previous.generatedAt,
    regressed: [],
    fixed: [],
    added: agents.filter((a) => !before.has(a.name)).map((a) => a.name),
    removed: previous.agents.filter((a) => !names.has(a.name)).map((a) => a.name),
    newlyFailing: [],
  };
  for (const after of agents) {
    const was = before.get(after.name);
    if (was === undefined) continue;
    const c = comparable(was, after);
    if (regressed(c)) changes.regressed.push(c);
    else if (fixed(c)) changes.fixed.push(c);
  }
  const failedBefore = new Set(previous.agents.flatMap((a) => a.failing));
  const failedNow = new Set(agents.flatMap((a) => a.failing));
  changes.newlyFailing = [...failedNow].filter((id) => !failedBefore.has(id)).sort();
  return changes;
}
