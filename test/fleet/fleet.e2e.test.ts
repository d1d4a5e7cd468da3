// fleet run + fleet merge end to end: 13 agents on loopback (healthy ones on one reference server,
// some behind a latency proxy, three mutants, a refused credential, a target that never answers, one
// that resets, an unset credential variable) certified as 3 shards one after another through the CLI,
// then merged. Every agent is listed with the level its own report.json gives, one that hangs or
// fails never stops the others, shard and fleet files are schema-valid, no credential is written
// anywhere, and a shard run again keeps its complete reports.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFleetTargets, type FleetTargets } from '../../bench/fleet-targets.ts';
import { main } from '../../harness/cli/program.ts';
import type { FleetReport, FleetShard } from '../../schemas/generated/types.ts';
import { validate } from '../../schemas/registry.ts';

const SHARDS = 3;

function cli(env: NodeJS.ProcessEnv) {
  let text = '';
  const io = { out: (s: string) => void (text += s), err: (s: string) => void (text += s), env };
  return {
    run: async (...args: string[]) => {
      text = '';
      const code = await main(['node', 'a2a-conformance', ...args], io);
      return { code, text };
    },
  };
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe('fleet run as 3 shards, then fleet merge', () => {
  let targets: FleetTargets;
  const dir = mkdtempSync(join(tmpdir(), 'a2a-fleet-'));
  const shardDir = (i: number): string => join(dir, `shard-${i}`);
  const merged = join(dir, 'fleet');
  const codes: number[] = [];
  let shell: ReturnType<typeof cli>;
  let report: FleetReport;
  /** `fleet run` of shard `i` into its own directory. */
  const runShard = (i: number, ...flags: string[]) =>
    shell.run(
      'fleet',
      'run',
      '--fleet',
      targets.fleetFile,
      '--shard',
      `${i}/${SHARDS}`,
      ...flags,
      '--out',
      shardDir(i),
    );

  beforeAll(async () => {
    // The reference server's origin shares 1800 requests a minute among the shards and their runs.
    targets = await startFleetTargets({ dir, host: { rate: '1800/m', maxAgents: 9 } });
    shell = cli({ ...process.env, ...targets.env });
    for (let i = 1; i <= SHARDS; i += 1) {
      const { code } = await runShard(i, '--parallel', '3');
      codes.push(code);
    }
    const { code } = await shell.run('fleet', 'merge', ...[1, 2, 3].map(shardDir), '--out', merged);
    codes.push(code);
    report = JSON.parse(readFileSync(join(merged, 'fleet.json'), 'utf8')) as FleetReport;
  }, 400_000);

  afterAll(async () => {
    await targets?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('splits the fleet into disjoint shards that together hold every agent', () => {
    const shards = [1, 2, 3].map(
      (i) => JSON.parse(readFileSync(join(shardDir(i), 'shard.json'), 'utf8')) as FleetShard,
    );
    const names = shards.flatMap((s) => s.agents.map((a) => a.name)).sort();
    expect(names).toEqual([...targets.expected.keys()].sort());
    for (const s of shards) {
      expect(validate('fleet-shard', s)).toEqual({ valid: true });
      expect(s.agents.every((a) => a.shard === s.shard.index)).toBe(true);
    }
  });

  it('lists every agent in fleet.json with the level and exit code its own run gives', () => {
    expect(validate('fleet-report', report)).toEqual({ valid: true });
    expect(report.agents.map((a) => a.name).sort()).toEqual([...targets.expected.keys()].sort());
    for (const a of report.agents) {
      const want = targets.expected.get(a.name)!;
      expect({ name: a.name, exitCode: a.exitCode }).toEqual({ name: a.name, exitCode: want.exitCode });
      for (const id of want.failing) expect(a.failing).toContain(id);
      if (want.noReport === true) {
        expect(a.level).toBeNull();
        continue;
      }
      // The link fleet.json keeps leads to the agent's own report, whose level it must repeat.
      const own = JSON.parse(readFileSync(join(merged, a.reportDir, 'report.json'), 'utf8'));
      expect({ name: a.name, level: a.level, score: a.score }).toEqual({
        name: a.name,
        level: own.compliance.level,
        score: own.compliance.score,
      });
    }
    const level = (name: string) => report.agents.find((a) => a.name === name)?.level;
    expect(report.agents.filter((a) => a.name.startsWith('healthy-')).map((a) => a.level)).toEqual(
      Array(6).fill('fully-compliant'),
    );
    expect(level('mutant-7-method-not-found-code--answers-32600')).toBe('not-compliant');
    expect(level('mutant-7-jsonrpc-errors-http-200--invalid-params-http-400')).toBe('must-compliant');
  });

  it("splits a host's rate among its runs at once: each run paces itself by its share", () => {
    const direct = report.agents.find((a) => a.name === 'healthy-direct-1')!;
    const own = JSON.parse(readFileSync(join(merged, direct.reportDir, 'report.json'), 'utf8'));
    // 1800/m over 3 shards, then over the runs of that origin the shard lets run at once (9 / 3 shards).
    const origin = report.agents.filter((a) => a.shard === direct.shard && a.target === direct.target);
    const atOnce = Math.min(3, origin.length);
    expect(own.traffic.rateLimit).toMatchObject({
      requestsPerMinute: Math.floor(1800 / SHARDS / atOnce),
      source: 'option',
    });
    const slow = report.agents.find((a) => a.name === 'healthy-slow-4')!;
    const other = JSON.parse(readFileSync(join(merged, slow.reportDir, 'report.json'), 'utf8'));
    expect(other.traffic.rateLimit.source).toBe('card');
  });

  it('keeps going past an agent that hangs, is refused, resets or has no credential, and exits 2', () => {
    const why = (name: string) => report.agents.find((a) => a.name === name)!.exitReason;
    expect(why('silent')).toMatch(/killed after 4000 ms/);
    expect(why('unset-credential')).toMatch(/FLEET_KEY_NEVER_SET .*is not set/);
    expect(why('refused')).toMatch(/credential refused/);
    expect(report.summary).toMatchObject({ agents: 13, passed: 7, failed: 2, notRun: 4, exitCode: 2 });
    expect(codes.at(-1)).toBe(2);
    expect(codes.slice(0, SHARDS).every((c) => c === 0 || c === 1 || c === 2)).toBe(true);
    expect(report.missingShards).toEqual([]);
  });

  it('ranks the requirements failed most often and writes one junit testsuite per agent', () => {
    expect(report.requirements[0]).toMatchObject({ id: '7/jsonrpc-errors-http-200', level: 'SHOULD' });
    expect(report.requirements[0]!.agents).toHaveLength(2);
    const xml = new XMLParser({
      ignoreAttributes: false,
      isArray: (n) => n === 'testsuite' || n === 'testcase',
    });
    const junit = xml.parse(readFileSync(join(merged, 'junit.xml'), 'utf8'));
    const suites = junit.testsuites.testsuite as Array<Record<string, unknown>>;
    expect(suites.map((s) => s['@_name']).sort()).toEqual([...targets.expected.keys()].sort());
    const broken = suites.find(
      (s) => s['@_name'] === 'mutant-2-2-response-jsonrpc-version--success-says-1-0',
    )!;
    expect(broken['@_failures']).toBe('1');
    expect(readFileSync(join(merged, 'fleet.md'), 'utf8')).toContain('](../shard-');
  });

  it('writes no credential into any file of the shards or the fleet report', () => {
    const secrets = Object.values(targets.env);
    const leaks = filesUnder(dir)
      .filter((f) => !f.endsWith('a2a-fleet.json'))
      .flatMap((f) => {
        const text = readFileSync(f, 'utf8');
        return secrets.filter((s) => text.includes(s)).map(() => f);
      });
    expect(leaks).toEqual([]);
  });

  it('a shard run again keeps every complete report and runs only the agents that could not be run', async () => {
    const shardOf = (name: string) => report.agents.find((a) => a.name === name)!.shard;
    const index = shardOf('healthy-direct-1');
    const { code } = await runShard(index);
    const again = JSON.parse(readFileSync(join(shardDir(index), 'shard.json'), 'utf8')) as FleetShard;
    for (const a of again.agents)
      expect({ name: a.name, reused: a.reused }).toEqual({ name: a.name, reused: a.exitCode !== 2 });
    expect(code).toBe(again.exitCode);
    expect(dirname(again.fleet.file)).toBe(dir);
  }, 120_000);

  it('with --previous, names the agents that regressed and were fixed and the requirements newly failing', async () => {
    const previous = structuredClone(report);
    const healthy = previous.agents.find((a) => a.name === 'healthy-slow-4')!;
    Object.assign(healthy, {
      level: 'not-compliant',
      exitCode: 1,
      status: 'failed',
      failing: ['4.4/cancel-final-task-rejected'],
    });
    const broken = previous.agents.find((a) => a.name === 'mutant-7-method-not-found-code--answers-32600')!;
    Object.assign(broken, { failing: [], level: 'fully-compliant', exitCode: 0 });
    previous.agents = previous.agents.filter((a) => a.name !== 'reset');
    const file = join(dir, 'previous.json');
    writeFileSync(file, JSON.stringify(previous));
    const out = join(dir, 'fleet-2');
    await shell.run('fleet', 'merge', ...[1, 2, 3].map(shardDir), '--out', out, '--previous', file);
    const next = JSON.parse(readFileSync(join(out, 'fleet.json'), 'utf8')) as FleetReport;
    expect(next.changes!.fixed.map((c) => c.name)).toEqual(['healthy-slow-4']);
    expect(next.changes!.regressed.map((c) => c.name)).toEqual([
      'mutant-7-method-not-found-code--answers-32600',
    ]);
    expect([...next.changes!.regressed[0]!.newlyFailing].sort()).toEqual([
      '7/jsonrpc-errors-http-200',
      '7/method-not-found-code',
    ]);
    expect(next.changes!.added).toEqual(['reset']);
    expect(next.changes!.newlyFailing).toEqual(['7/method-not-found-code']);
    expect(readFileSync(join(out, 'fleet.md'), 'utf8')).toMatch(
      /\*\*Regressed\*\*[\s\S]*mutant-7-method-not-found-code/,
    );
  });
});
