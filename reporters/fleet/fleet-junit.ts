// junit.xml of a fleet: one testsuite per agent, one testcase per requirement of its run (the same
// mapping as a single run's junit.xml: fail -> <failure>, error -> <error>, not-applicable and
// not-exercised -> <skipped>); an agent that could not be run is one <error> testcase.
import type { RunResult } from '../../core/types.ts';
import type { FleetAgentOutcome, FleetReport } from '../../schemas/generated/types.ts';
import { outcomeOf, seconds, SUITE_TAIL, suiteHead, tally, testcase, type Tally } from '../junit.ts';
import { attrs } from '../xml.ts';

interface Suite {
  xml: string;
  tally: Tally;
}

function notRunSuite(agent: FleetAgentOutcome, index: number, timestamp: string): Suite {
  const t = { tests: 1, failures: 0, errors: 1, skipped: 0 };
  const head = suiteHead({
    name: agent.name,
    id: index,
    ...t,
    time: agent.wallMs,
    timestamp,
    properties: { target: agent.target, agentId: agent.agentId, exitCode: String(agent.exitCode) },
  });
  // An agent with a level had a report: if it cannot be read now, say so rather than its old verdict.
  const message =
    agent.level === null ? agent.exitReason : `report.json not found or unreadable in ${agent.reportDir}`;
  const error = `      <error${attrs({ message, type: agent.level === null ? 'not-run' : 'no-report' })}/>`;
  const body = [
    `    <testcase${attrs({ name: 'certification', classname: agent.name, time: seconds(agent.wallMs) })}>`,
    error,
    '    </testcase>',
  ];
  return { xml: [...head, ...body, ...SUITE_TAIL].join('\n'), tally: t };
}

/** The testsuite of one agent; `result` is its report.json (absent when it could not be run). */
export function agentSuite(agent: FleetAgentOutcome, result: RunResult | undefined, index: number): Suite {
  const timestamp = (result?.startedAt ?? new Date().toISOString()).slice(0, 19);
  if (result === undefined) return notRunSuite(agent, index, timestamp);
  const t = tally(result.requirements.map((r) => outcomeOf(r, result.baseline)));
  const properties: Record<string, string> = {
    target: agent.target,
    agentId: agent.agentId,
    level: agent.level ?? 'none',
    score: agent.score === null ? 'n/a' : String(agent.score),
    exitCode: String(agent.exitCode),
  };
  const head = suiteHead({
    name: agent.name,
    id: index,
    ...t,
    time: result.durationMs,
    timestamp,
    properties,
  });
  const cases = result.requirements.map((r) => testcase(r, agent.name, result.baseline));
  return { xml: [...head, ...cases, ...SUITE_TAIL].join('\n'), tally: t };
}

export function renderFleetJunit(report: FleetReport, results: ReadonlyMap<string, RunResult>): string {
  const suites = report.agents.map((a, i) => agentSuite(a, results.get(a.name), i));
  const sum = (key: keyof Tally): number => suites.reduce((n, s) => n + s.tally[key], 0);
  const [tests, failures, errors, skipped] = [sum('tests'), sum('failures'), sum('errors'), sum('skipped')];
  const time = seconds(report.agents.reduce((sum, a) => sum + a.wallMs, 0));
  const name = `a2a-conformance fleet: ${report.summary.exitReason}`;
  const root = `<testsuites${attrs({ name, tests, failures, errors, skipped, time, timestamp: report.generatedAt.slice(0, 19) })}>`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    root,
    ...suites.map((s) => s.xml),
    '</testsuites>',
    '',
  ].join('\n');
}
