// Fleet reports built by hand for the renderer and diff tests: a few agents at every level, one not
// run, one whose name carries markup.
import type { FleetAgentOutcome, FleetReport } from '../../schemas/generated/types.ts';

export const EVIL_NAME = '<img src=x onerror="window.__pwned=1">';

const COUNTS = { pass: 0, fail: 0, warn: 0, info: 0, 'not-applicable': 0, 'not-exercised': 0, error: 0 };

export function agent(name: string, over: Partial<FleetAgentOutcome> = {}): FleetAgentOutcome {
  return {
    name,
    target: 'https://agents.example.com',
    agentId: name.replace(/\W/g, '-'),
    shard: 1,
    status: 'passed',
    reused: false,
    exitCode: 0,
    exitReason: 'no gating requirement failed',
    level: 'fully-compliant',
    score: 100,
    partial: false,
    counts: { ...COUNTS, pass: 40 },
    failing: [],
    wallMs: 30_000,
    reportDir: `shard-1/${name}`,
    command: `npx a2a-conformance run --target https://agents.example.com --agent-id ${name}`,
    ...over,
  };
}

export function fleetAgents(): FleetAgentOutcome[] {
  return [
    agent('billing', { score: 100, wallMs: 41_000 }),
    agent('search', {
      level: 'must-compliant',
      score: 95,
      counts: { ...COUNTS, pass: 38, warn: 2 },
      failing: ['7/jsonrpc-errors-http-200', '4.4/cancel-default-reason'],
      wallMs: 52_000,
    }),
    agent('travel', {
      status: 'failed',
      exitCode: 1,
      exitReason: '1 MUST requirement failed',
      level: 'not-compliant',
      score: 80,
      counts: { ...COUNTS, pass: 32, fail: 5, warn: 3 },
      failing: ['7/method-not-found-code', '7/jsonrpc-errors-http-200'],
      wallMs: 63_000,
      target: 'https://travel.example.org',
    }),
    agent('weather', {
      status: 'not-run',
      exitCode: 2,
      exitReason: 'not run: killed after 660000 ms (killAfterMs)',
      level: null,
      score: null,
      counts: null,
      wallMs: 660_000,
    }),
    agent(EVIL_NAME, {
      level: 'unverified',
      status: 'not-run',
      exitCode: 2,
      exitReason: 'run could not be done: target unreachable',
      score: 0,
      counts: { ...COUNTS, error: 40 },
      reportDir: 'shard-2/evil',
      shard: 2,
    }),
  ];
}

export function fleetReport(agents = fleetAgents()): FleetReport {
  return {
    $schema: 'https://a2a-conformance.dev/schemas/fleet-report.schema.json',
    tool: { name: 'a2a-conformance', version: '0.1.0' },
    generatedAt: '2026-11-25T09:00:00.000Z',
    fleet: { file: 'a2a-fleet.json', digest: 'a'.repeat(64), agents: agents.length },
    shards: [
      { dir: 'shard-1', index: 1, count: 2, agents: agents.length - 1, exitCode: 2, durationMs: 700_000 },
      { dir: 'shard-2', index: 2, count: 2, agents: 1, exitCode: 2, durationMs: 1_000 },
    ],
    missingShards: [],
    summary: {
      agents: agents.length,
      passed: agents.filter((a) => a.exitCode === 0).length,
      failed: agents.filter((a) => a.exitCode === 1).length,
      notRun: agents.filter((a) => a.exitCode === 2).length,
      byLevel: { 'fully-compliant': 1, 'must-compliant': 1, unverified: 1, 'not-compliant': 1, none: 1 },
      exitCode: 2,
      exitReason: 'some agents could not be run: 2 passed, 1 failed, 2 not run of 5',
    },
    agents,
    requirements: [
      { id: '7/jsonrpc-errors-http-200', level: 'SHOULD', agents: ['search', 'travel'] },
      { id: '4.4/cancel-default-reason', level: 'SHOULD', agents: ['search'] },
      { id: '7/method-not-found-code', level: 'MUST', agents: ['travel'] },
    ],
  };
}
