// Pacing of a shard: a host's agents share its rate (split among those running at once) and its
// maxAgents cap, runs bound to one fixed webhook port never overlap, and the keyed pool holds every
// cap while keeping the results in order.
import { describe, expect, it } from 'vitest';
import type { FleetAgentPlan } from '../../harness/fleet/fleet-file.ts';
import { perMinute, planPacing, splitRate } from '../../harness/fleet/pacing.ts';
import { runKeyed } from '../../harness/pool.ts';

function plan(name: string, origin: string, options: FleetAgentPlan['options'] = {}): FleetAgentPlan {
  return { name, target: origin, agentId: name, origin, apiKeyEnv: 'K', options, killAfterMs: 1_000 };
}

const A = 'https://a.example';
const B = 'https://b.example';

describe('rates', () => {
  it('reads the forms of run --rate and splits a host rate in whole requests per minute', () => {
    expect([perMinute('120/m'), perMinute('2/s'), perMinute('600/h'), perMinute('off')]).toEqual([
      120,
      120,
      10,
      Infinity,
    ]);
    expect([splitRate('60/m', 4), splitRate('1/s', 7), splitRate('2/m', 5)]).toEqual(['15/m', '8/m', '1/m']);
  });
});

describe('planPacing', () => {
  const agents = [plan('a1', A), plan('a2', A), plan('a3', A, { rate: '5/m' }), plan('b1', B)];

  it('splits a host rate among the agents it lets run at once; an agent keeps a lower rate of its own', () => {
    const p = planPacing(agents, { [A]: { rate: '60/m', maxAgents: 3 } }, 2);
    expect(p.caps.get(`host ${A}`)).toBe(2);
    expect(p.rates.get('a1')).toBe('30/m');
    expect(p.rates.get('a3')).toBe('5/m');
    expect(p.rates.has('b1')).toBe(false);
    expect(p.keys.get('a1')).toEqual([`host ${A}`]);
  });

  it("divides a host's rate and maxAgents among the shards too, which a CI matrix runs at once", () => {
    const p = planPacing(agents, { [A]: { rate: '60/m', maxAgents: 6 } }, 4, 3);
    expect(p.caps.get(`host ${A}`)).toBe(2);
    expect(p.rates.get('a1')).toBe('10/m');
    expect(p.notes).toContain(`${A}: 60/m shared by up to 2 agent(s) at once and 3 shards, 10/m each`);
    expect(planPacing(agents, { [A]: { maxAgents: 2 } }, 4, 3).caps.get(`host ${A}`)).toBe(1);
  });

  it("lets a host's agents run at once up to its maxAgents, and the default parallel fits the hosts' room", () => {
    const p = planPacing(agents, { [A]: { maxAgents: 2 } }, undefined);
    expect(p.caps.get(`host ${A}`)).toBe(2);
    expect(p.caps.get(`host ${B}`)).toBe(1);
    expect(p.parallel).toBeLessThanOrEqual(3);
    expect(p.rates.size).toBe(0);
  });

  it('never overlaps two runs on one fixed webhook receiver port', () => {
    const fixed = [
      plan('x', A, { webhookListen: '0.0.0.0:9099' }),
      plan('y', B, { webhookListen: '0.0.0.0:9099' }),
    ];
    const p = planPacing(fixed, {}, 4);
    expect(p.caps.get('webhook 0.0.0.0:9099')).toBe(1);
    expect(p.keys.get('y')).toEqual([`host ${B}`, 'webhook 0.0.0.0:9099']);
  });
});

describe('runKeyed', () => {
  it('holds the overall limit and each key cap, and keeps the results in job order', async () => {
    const live = new Map<string, number>();
    const peaks = new Map<string, number>();
    const job = (i: number, keys: string[]) => ({
      keys,
      run: async () => {
        for (const k of ['*', ...keys]) {
          live.set(k, (live.get(k) ?? 0) + 1);
          peaks.set(k, Math.max(peaks.get(k) ?? 0, live.get(k)!));
        }
        await new Promise((r) => setTimeout(r, 5 + (i % 3) * 5));
        for (const k of ['*', ...keys]) live.set(k, live.get(k)! - 1);
        return i;
      },
    });
    const jobs = Array.from({ length: 12 }, (_, i) => job(i, i % 2 === 0 ? ['host a'] : ['host b', 'port']));
    const results = await runKeyed(
      jobs,
      3,
      new Map([
        ['host a', 2],
        ['port', 1],
      ]),
    );
    expect(results).toEqual(Array.from({ length: 12 }, (_, i) => i));
    expect(peaks.get('*')).toBe(3);
    expect(peaks.get('host a')).toBe(2);
    expect(peaks.get('port')).toBe(1);
  });
});
