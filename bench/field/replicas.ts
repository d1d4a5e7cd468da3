// N replicas of the reference server behind the loopback balancer: with a shared Redis store (a
// scaled-out agent done right) or each with its own memory (the classic scale-out bug, where a task
// made on one replica is "not found" on the next). Used by `npm run field` and the replica tests.
import {
  startReferenceServer,
  type ReferenceServer,
  type ReferenceServerOptions,
} from '../../reference-server/index.ts';
import { startBalancer, type BalancerMode } from './balancer.ts';
import { startRedisServer, type RedisServer } from './redis-server.ts';

export interface ReplicaSetOptions {
  count: number;
  mode: BalancerMode;
  /** `shared`: one redis-server for all (started here); `isolated`: each replica's own memory. */
  store: 'shared' | 'isolated';
  /** Options of every replica (its agents, limits, ...); `store` is set here. */
  server: Omit<ReferenceServerOptions, 'store'>;
}

export interface ReplicaSet {
  /** The balancer: what a client (or `run --target`) is given. */
  baseUrl: string;
  replicas: ReferenceServer[];
  redis: RedisServer | undefined;
  /** Requests the balancer sent to each replica. */
  counts(): number[];
  close(): Promise<void>;
}

export async function startReplicaSet(opts: ReplicaSetOptions): Promise<ReplicaSet> {
  const redis = opts.store === 'shared' ? await startRedisServer() : undefined;
  const replicas: ReferenceServer[] = [];
  try {
    for (let i = 0; i < opts.count; i += 1) {
      replicas.push(await startReferenceServer({ ...opts.server, ...(redis ? { store: redis.url } : {}) }));
    }
    const balancer = await startBalancer(
      replicas.map((r) => r.baseUrl),
      opts.mode,
    );
    return {
      baseUrl: balancer.baseUrl,
      replicas,
      redis,
      counts: balancer.counts,
      async close() {
        await balancer.close();
        await Promise.all(replicas.map((r) => r.close()));
        await redis?.stop();
      },
    };
  } catch (error) {
    await Promise.all(replicas.map((r) => r.close()));
    await redis?.stop();
    throw error;
  }
}
