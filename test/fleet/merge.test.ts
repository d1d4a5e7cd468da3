// fleet merge on shard directories written by hand: agents of every shard in one list with report
// paths relative to --out, a shard of the fleet that is not given named and exit 2, and the
// refusals (not a shard directory, an invalid shard.json, shards of two fleets, a shard or an agent
// given twice), each a ConfigError saying what to do.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { mergeFleet } from '../../harness/fleet/merge.ts';
import { renderFleetJunit } from '../../reporters/fleet/fleet-junit.ts';
import { ConfigError } from '../../harness/options.ts';
import type { FleetAgentOutcome, FleetShard } from '../../schemas/generated/types.ts';
import { validate } from '../../schemas/registry.ts';
import { reportDocument } from '../../reporters/json-report.ts';
import { fixtureRun } from '../reporters/fixtures.ts';
import { agent } from './fixtures.ts';

const root = mkdtempSync(join(tmpdir(), 'a2a-fleet-merge-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;

function shardDir(index: number, agents: FleetAgentOutcome[], over: Partial<FleetShard> = {}): string {
  const dir = join(root, `s${(n += 1)}`);
  mkdirSync(dir);
  const shard: FleetShard = {
    tool: { name: 'a2a-conformance', version: '0.1.0' },
    fleet: { file: 'a2a-fleet.json', digest: 'b'.repeat(64), agents: 9 },
    shard: { index, count: 3 },
    startedAt: '2026-11-25T09:00:00.000Z',
    finishedAt: '2026-11-25T09:01:00.000Z',
    durationMs: 60_000,
    parallel: 2,
    agents: agents.map((a) => ({ ...a, shard: index, reportDir: a.name })),
    exitCode: 0,
    exitReason: 'every agent passed its gate',
    ...over,
  };
  writeFileSync(join(dir, 'shard.json'), JSON.stringify(shard));
  return dir;
}

describe('mergeFleet', () => {
  it('lists the agents of every shard by name, report paths relative to --out, and names a missing shard', () => {
    const a = shardDir(1, [agent('search'), agent('billing')]);
    const b = shardDir(3, [
      agent('travel', { exitCode: 1, status: 'failed', level: 'not-compliant', failing: ['7/x'] }),
    ]);
    const { report } = mergeFleet({ dirs: [b, a], out: join(root, 'fleet') });
    expect(validate('fleet-report', report)).toEqual({ valid: true });
    expect(report.agents.map((x) => [x.name, x.reportDir])).toEqual([
      ['billing', `../${a.split('/').pop()}/billing`],
      ['search', `../${a.split('/').pop()}/search`],
      ['travel', `../${b.split('/').pop()}/travel`],
    ]);
    expect(report.shards.map((s) => s.index)).toEqual([1, 3]);
    expect(report.missingShards).toEqual([2]);
    expect(report.summary).toMatchObject({ agents: 3, passed: 2, failed: 1, notRun: 0, exitCode: 2 });
    expect(report.summary.exitReason).toContain('1 shard(s) missing');
  });

  it("writes one junit testsuite per agent, and says so when an agent's report.json is gone", () => {
    const a = shardDir(1, [
      agent('search'),
      agent('down', { level: null, exitCode: 2, status: 'not-run', exitReason: 'not run: killed' }),
    ]);
    const out = join(root, 'fleet-junit');
    const merged = mergeFleet({ dirs: [a], out });
    const xml = renderFleetJunit(merged.report, merged.results);
    expect(xml.match(/<testsuite /g)).toHaveLength(2);
    expect(xml).toContain('<error message="not run: killed" type="not-run"/>');
    expect(xml).toMatch(
      /<error message="report.json not found or unreadable in \.\.\/s\d+\/search" type="no-report"\/>/,
    );
  });

  it("keeps of each agent's report.json its verdicts and findings, not its wire evidence (as --evidence none)", () => {
    const a = shardDir(1, [agent('search')]);
    const run = fixtureRun();
    mkdirSync(join(a, 'search'));
    writeFileSync(join(a, 'search', 'report.json'), JSON.stringify(reportDocument(run)));
    const kept = mergeFleet({ dirs: [a], out: join(root, 'fleet-kept') }).results.get('search')!;
    expect(kept.card).toBeNull();
    expect(kept.requirements.map((r) => r.verdict)).toEqual(run.requirements.map((r) => r.verdict));
    const checks = kept.requirements.flatMap((r) => r.checks);
    const given = run.requirements.flatMap((r) => r.checks);
    expect(given.some((c) => c.evidence.exchanges.length > 0)).toBe(true);
    checks.forEach((c, i) => {
      expect(c.evidence).toEqual({ exchanges: [], streams: [], deliveries: [] });
      expect(c.evidenceOmitted).toMatchObject({
        evidence: 'none',
        exchanges: given[i]!.evidence.exchanges.length,
      });
    });
    const failed = checks.find((c) => c.status === 'fail')!;
    expect(failed).toMatchObject({ expected: 'r1', actual: 'not-your-id' });
    expect(failed.assertions).toHaveLength(1);
  });

  const refusals: Array<[string, () => string[], RegExp]> = [
    ['a directory without shard.json', () => [root], /is not a shard directory: it has no shard.json/],
    [
      'an invalid shard.json',
      () => [shardDir(1, [agent('a')], { exitCode: 7 as 0 })],
      /is not a valid shard.json: exitCode: must be equal to one of the allowed values/,
    ],
    [
      'shards of two fleets',
      () => [
        shardDir(1, [agent('a')]),
        shardDir(2, [agent('b')], { fleet: { file: 'x', digest: 'c'.repeat(64), agents: 1 } }),
      ],
      /are shards of different fleets/,
    ],
    [
      'a shard given twice',
      () => [shardDir(2, [agent('a')]), shardDir(2, [agent('b')])],
      /shard 2\/3 is given twice/,
    ],
    [
      'an agent in two shards',
      () => [shardDir(1, [agent('a')]), shardDir(2, [agent('a')])],
      /agent "a" is in two shard directories/,
    ],
  ];
  it.each(refusals)('refuses %s', (_what, dirs, message) => {
    const given = dirs();
    expect(() => mergeFleet({ dirs: given, out: join(root, 'out') })).toThrow(ConfigError);
    expect(() => mergeFleet({ dirs: given, out: join(root, 'out') })).toThrow(message);
  });
});
