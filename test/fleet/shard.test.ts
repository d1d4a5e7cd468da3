// Sharding: `--shard i/n` parsing, and an agent's shard fixed by its name and n alone (sha256 mod n),
// so adding agents never moves the others, and a large fleet spreads evenly.
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../harness/options.ts';
import { inShard, parseShard, shardOf } from '../../harness/fleet/shard.ts';

describe('parseShard', () => {
  it('reads i/n with 1 <= i <= n', () => {
    expect(parseShard('2/3')).toEqual({ index: 2, count: 3 });
    expect(parseShard(' 1 / 1 ')).toEqual({ index: 1, count: 1 });
  });

  it.each(['0/3', '4/3', '1/0', '3', 'a/b', '1/3/5', '-1/3', ''])('refuses %j with a ConfigError', (text) => {
    expect(() => parseShard(text)).toThrow(ConfigError);
    expect(() => parseShard(text)).toThrow(/--shard must be i\/n/);
  });
});

describe('shardOf', () => {
  const names = Array.from({ length: 3000 }, (_, i) => `agent-${i}`);

  it('is the first 48 bits of sha256(name) mod n, plus one: pinned, since CI matrices rely on it', () => {
    // sha256('billing') starts 0c95c7ece1ce, sha256('search') 241932906782.
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => shardOf('billing', n))).toEqual([1, 1, 2, 3, 3, 5, 4]);
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => shardOf('search', n))).toEqual([1, 1, 3, 3, 4, 3, 3]);
  });

  it('does not move an agent when others are added or removed', () => {
    const before = new Map(names.slice(0, 1000).map((n) => [n, shardOf(n, 5)]));
    const fleet = [...names].reverse();
    for (const shard of [1, 2, 3, 4, 5]) {
      for (const a of inShard(
        fleet.map((name) => ({ name })),
        { index: shard, count: 5 },
      )) {
        if (before.has(a.name)) expect(before.get(a.name)).toBe(shard);
      }
    }
  });

  it('spreads 3000 agents over 3 shards within 10% of an even split, each agent in exactly one', () => {
    const sizes = [1, 2, 3].map(
      (i) =>
        inShard(
          names.map((name) => ({ name })),
          { index: i, count: 3 },
        ).length,
    );
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(3000);
    for (const size of sizes) expect(Math.abs(size - 1000)).toBeLessThan(100);
  });
});
