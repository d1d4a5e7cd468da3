// Deterministic, stable sharding of a fleet: an agent's shard depends only on its name and the shard
// count (sha256 of the name, mod n), so adding or removing an agent never moves the others.
import { createHash } from 'node:crypto';
import type { FleetShardId } from '../../schemas/generated/types.ts';
import { ConfigError } from '../options.ts';

/** shard.json's `shard`: index of count, 1-based as in `--shard 2/3`. */
export type ShardId = FleetShardId;

export const WHOLE_FLEET: ShardId = Object.freeze({ index: 1, count: 1 });

/** `--shard i/n` with 1 <= i <= n. */
export function parseShard(text: string): ShardId {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const index = m === null ? NaN : Number(m[1]);
  const count = m === null ? NaN : Number(m[2]);
  if (
    !Number.isSafeInteger(index) ||
    !Number.isSafeInteger(count) ||
    count < 1 ||
    index < 1 ||
    index > count
  ) {
    throw new ConfigError(`--shard must be i/n with 1 <= i <= n (e.g. 2/3), got ${JSON.stringify(text)}`);
  }
  return { index, count };
}

/** The 1-based shard of an agent: the first 48 bits of sha256(name), mod count. */
export function shardOf(name: string, count: number): number {
  const head = createHash('sha256').update(name, 'utf8').digest().readUIntBE(0, 6);
  return (head % count) + 1;
}

export function inShard<T extends { name: string }>(agents: readonly T[], shard: ShardId): T[] {
  return agents.filter((a) => shardOf(a.name, shard.count) === shard.index);
}
