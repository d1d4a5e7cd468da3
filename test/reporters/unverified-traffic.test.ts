// The `unverified` level as every report shows it (console, summary.md, badge, report.html data,
// junit name), with the exit code it keeps; and RunResult.traffic as the console, summary.md and
// report.html print it, read defensively (absent in older reports, partial in hand-made ones).
import { describe, expect, it } from 'vitest';
import { decideExit } from '../../core/verdict.ts';
import type { RunTraffic } from '../../core/types.ts';
import { renderBadge } from '../../reporters/badge.ts';
import { palette } from '../../reporters/console/ansi.ts';
import { formatRunSummary } from '../../reporters/console/console-summary.ts';
import { htmlData } from '../../reporters/html/html-data.ts';
import { renderJunit } from '../../reporters/junit.ts';
import { renderMarkdown } from '../../reporters/markdown.ts';
import { complianceOf } from '../../reporters/score.ts';
import { trafficFacts } from '../../reporters/traffic.ts';
import { check, fixtureRun, requirement, withVerdicts } from './fixtures.ts';

/** No MUST failed; two MUSTs not exercised for one reason, one in error (rate limited). */
function unverifiedRun() {
  const reqs = [
    ...withVerdicts([
      ['2.1/jsonrpc-required', 'pass'],
      ['2.1/id-required', 'warn'],
    ]),
    requirement('3/completed-webhook', 'not-exercised', [
      check('3/completed-webhook', 'not-exercised', {
        message: 'the agent does not implement the directive contract',
      }),
    ]),
    requirement('6/task-level-replaces-agent-level', 'not-exercised', [
      check('6/task-level-replaces-agent-level', 'not-exercised', {
        message: 'the agent does not implement the directive contract',
      }),
    ]),
    requirement('4.3/get-current-state', 'error', [
      check('4.3/get-current-state', 'error', {
        message: 'rate limited: the budget ran out after 3 answers 429',
      }),
    ]),
  ];
  return fixtureRun(reqs);
}

describe('the unverified level in every report', () => {
  const run = unverifiedRun();

  it('is unverified, not "not compliant", and keeps the exit code of today (2: a MUST in error)', () => {
    expect(complianceOf(run)).toMatchObject({ level: 'unverified', label: 'unverified', score: 20 });
    expect(run.exitCode).toBe(2);
    // Not exercised alone exits 0, as before: unverified is not a pass, and not a failure either.
    const onlyNotExercised = run.requirements.filter((r) => r.verdict !== 'error');
    expect(decideExit(onlyNotExercised, 'all', null).exitCode).toBe(0);
    expect(complianceOf(fixtureRun(onlyNotExercised)).level).toBe('unverified');
  });

  it('console: the reasons grouped before the verdict line, which says how many MUSTs were not verified', () => {
    const lines = formatRunSummary(run, palette(false), 'normal').split('\n');
    const at = lines.indexOf('Not verified (MUST)');
    expect(lines.slice(at + 1, at + 3)).toEqual([
      '  ~ 2 not-exercised: the agent does not honour the a2a:directive contract (docs/directives.md), which brings about the precondition (3/completed-webhook, 6/task-level-replaces-agent-level)',
      '  ~ 1 error: rate limited: the budget ran out after 3 answers 429 (4.3/get-current-state)',
    ]);
    expect(lines.at(-2)).toBe(
      'unverified, score 20% (1/5 MUST and SHOULD requirements pass): no MUST requirement failed; 3 MUST requirement(s) not verified (2 not exercised, 1 error)',
    );
  });

  it('summary.md, badge, junit and report.html say unverified', () => {
    const md = renderMarkdown(run);
    expect(md.split('\n')[0]).toBe('## ❔ A2A conformance: unverified, score 20%');
    expect(md).toContain('**Not verified (MUST)**');
    expect(md).toContain(
      '- 2 not-exercised: the agent does not honour the a2a:directive contract (docs/directives.md), which brings about the precondition',
    );
    const svg = renderBadge(run);
    expect(svg).toContain('A2A conformance: unverified 20%');
    expect(svg).toContain('#9f9f9f');
    expect(renderJunit(run)).toContain('unverified, score 20%');
    expect(htmlData(run).compliance.unverified.map((g) => g.requirements.length)).toEqual([2, 1]);
  });
});

const TRAFFIC: RunTraffic = {
  profile: 'standard',
  requests: 812,
  agentTurns: 140,
  maxTurns: 200,
  turnLatencyMs: { p50: 1500, p95: 2140, samples: 140 },
  rateLimit: { requestsPerMinute: 54, source: 'card', waitedMs: 12_300, rateLimitedAnswers: 3 },
  concurrency: { limit: 4, maxInFlight: 2 },
  cut: [{ what: 'property runs above 20 per property', option: '--profile full' }],
  properties: [],
};

describe('traffic in the reports', () => {
  it('reads as label/value facts, the same in every report', () => {
    expect(trafficFacts({ traffic: TRAFFIC })).toEqual([
      { label: 'profile', value: 'standard' },
      { label: 'requests', value: '812, 140 agent turn(s) of at most 200' },
      { label: 'turn latency', value: 'p50 1.5 s, p95 2.1 s (140 turn(s))' },
      {
        label: 'rate limit',
        value:
          'paced at 54/min (agent card); waited 12 s; 3 rate-limited answer(s) (429 / -32012) waited out',
      },
      { label: 'concurrency', value: '2 in flight at most (limit 4)' },
      { label: 'left out', value: '1: property runs above 20 per property (--profile full)' },
    ]);
    const run = fixtureRun(undefined, { traffic: TRAFFIC });
    expect(formatRunSummary(run, palette(false), 'normal').split('\n')[1]).toMatch(
      /^traffic: profile standard · requests 812, 140 agent turn\(s\) of at most 200 · turn latency p50 1\.5 s/,
    );
    expect(renderMarkdown(run)).toContain('| rate limit | paced at 54/min (agent card); waited 12 s;');
    expect(htmlData(run).traffic).toHaveLength(6);
  });

  it("names the agent turns in flight under the card's concurrentTasks when the card gives it", () => {
    const traffic = {
      ...TRAFFIC,
      concurrency: { limit: 4, maxInFlight: 2, taskLimit: 4, maxTasksInFlight: 3 },
    };
    expect(trafficFacts({ traffic }).find((f) => f.label === 'concurrency')?.value).toBe(
      "2 in flight at most (limit 4); 3 agent turn(s) at most (the card's concurrentTasks 4)",
    );
  });

  it('says in its closing lines how many faults were absorbed, and how many reached a check or the probe', () => {
    const traffic: RunTraffic = {
      ...TRAFFIC,
      faults: {
        reset: { count: 3, retried: 2, reRun: 0, lost: 1 },
        gateway: { count: 2, retried: 2, reRun: 0, lost: 0 },
      },
    };
    const lines = formatRunSummary(fixtureRun(undefined, { traffic }), palette(false), 'normal').split('\n');
    expect(lines.at(-3)).toBe(
      '4 faults absorbed (reset 3, gateway 2); 1 reached a check or the probe (not evidence against the agent)',
    );
    expect(
      formatRunSummary(fixtureRun(undefined, { traffic: TRAFFIC }), palette(false), 'normal'),
    ).not.toMatch(/faults? absorbed/);
    // Resends that met a fault again absorbed nothing (a server that is not an agent): none is claimed.
    const none: RunTraffic = { ...TRAFFIC, faults: { gateway: { count: 3, retried: 0, reRun: 0, lost: 3 } } };
    expect(formatRunSummary(fixtureRun(undefined, { traffic: none }), palette(false), 'normal')).toContain(
      '3 transport faults (gateway 3): 3 reached a check or the probe (not evidence against the agent)',
    );
  });

  it('says in its closing lines how far a throttle in front of the agent lowered the pace, beside the faults', () => {
    const throttledRun = (throttled: RunTraffic['rateLimit']['throttled']) =>
      fixtureRun(undefined, {
        traffic: {
          ...TRAFFIC,
          rateLimit: { ...TRAFFIC.rateLimit, throttled },
          faults: { throttled: { count: 6, retried: 6, reRun: 0, lost: 0 } },
        },
      });
    const lines = (throttled: RunTraffic['rateLimit']['throttled']) =>
      formatRunSummary(throttledRun(throttled), palette(false), 'normal').split('\n');
    const shown = lines({ decreases: 3, lowestPerS: 9.5, endPerS: 14.25, followUpsFirst: 41 });
    expect(shown.at(-4)).toBe('6 faults absorbed (throttled 6)');
    expect(shown.at(-3)).toBe(
      "pace lowered below the card's 3 time(s) by a throttle or gateway in front of the agent (lowest 9.5/s, 14.25/s at the end); 41 follow-up(s) on a held task let out first",
    );
    expect(lines({ decreases: 1, lowestPerS: 4, endPerS: null, followUpsFirst: 0 }).at(-3)).toBe(
      "pace lowered below the card's 1 time(s) by a throttle or gateway in front of the agent (lowest 4/s, back at the card's pace at the end)",
    );
    const never = lines({ decreases: 0, lowestPerS: null, endPerS: null, followUpsFirst: 0 }).join('\n');
    expect(never).not.toContain('pace lowered');
  });

  it('is left out when absent, and a partial object never throws', () => {
    expect(trafficFacts(fixtureRun())).toEqual([]);
    const partial = { traffic: { requests: 3 } as unknown as RunTraffic };
    expect(trafficFacts(partial)).toEqual([{ label: 'requests', value: '3' }]);
    expect(formatRunSummary(fixtureRun(), palette(false), 'normal')).not.toContain('traffic:');
  });
});
