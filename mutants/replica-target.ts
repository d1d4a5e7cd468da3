// A replicated agent for the cross-replica mutants and legal variants (spec 4.3-4.7, 6.5, 8; rulings
// C-59, C-60): N unmodified reference servers (on one Redis, or each with its own memory), each behind
// its own mutant proxy, the loopback balancer over the proxies as --target, and each proxy given as a
// --replica. A variant breaks or varies one replica's front, the webhook relay, or what is shared.
import { startBalancer, type BalancerMode } from '../bench/field/balancer.ts';
import { startRedisServer } from '../bench/field/redis-server.ts';
import { generateApiKey, startReferenceServer } from '../reference-server/index.ts';
import type { AgentConfigInput } from '../reference-server/index.ts';
import { certificationAgent, MUTANT_AGENT_ID, startProxy, type ProxyHooks } from './proxy.ts';
import type { ControlTarget, MutantTarget } from './types.ts';
import { relayHooks, startWebhookRelay, type RelayMutation } from './webhook-relay.ts';

/** The requirements the cross-replica checks verify (suites/*\/replicas.test.ts, the burst of 8). */
export const CROSS_REPLICA = [
  '4.3/get-current-state',
  '4.4/cancel-completed-task-code',
  '4.5/resubscribe-final-task-returns-status',
  '4.7/get-reflects-set',
  '6.5/delivery-id-across-replicas',
  '8/rate-limit-agent-wide',
];

export interface ReplicaTargetOptions {
  /** Replicas (default 2). */
  count?: number;
  /** `shared`: one redis-server for all (a scaled-out agent done right); `isolated`: each its own memory. */
  store: 'shared' | 'isolated';
  /** The proxy hooks in front of replica `index` (0-based); default none. */
  hooks?(index: number): ProxyHooks;
  /** What a relay does to every webhook delivery, whichever replica sends it; default no relay. */
  relay?: RelayMutation;
  /** Fields merged over the certification agent of every replica. */
  agent?: Partial<AgentConfigInput>;
  /**
   * What --target is: the balancer over every replica (default, in `mode`), or the first replica
   * alone, so that only the cross-replica checks (--replica) meet what the others do differently.
   */
  target?: 'balancer' | 'first';
  mode?: BalancerMode;
}

/**
 * The certification agent's limits with a rate limit of 600 a minute: the burst of the rate-limit
 * checks (the limit plus 20, C-04) then takes a second or two through the proxies instead of a minute
 * on a loaded machine, and the other cross-replica checks need a few dozen requests at that pace.
 */
const REPLICA_LIMITS = { requestsPerMinute: 600, concurrentTasks: 4, maxMessageLength: 100_000 };

export async function startReplicaTarget(opts: ReplicaTargetOptions): Promise<MutantTarget> {
  const closers: Array<() => Promise<void>> = [];
  const close = async (): Promise<void> => {
    for (const closeOne of closers.reverse()) await closeOne().catch(() => undefined);
  };
  try {
    const redis = opts.store === 'shared' ? await startRedisServer() : undefined;
    if (redis !== undefined) closers.push(() => redis.stop());
    const relay = opts.relay === undefined ? undefined : await startWebhookRelay(opts.relay);
    if (relay !== undefined) closers.push(() => relay.close());
    const apiKey = generateApiKey();
    const fronts: string[] = [];
    for (let i = 0; i < (opts.count ?? 2); i += 1) {
      const server = await startReferenceServer({
        allowPrivateWebhookTargets: true,
        host: '127.0.0.1',
        port: 0,
        agents: [certificationAgent(MUTANT_AGENT_ID, apiKey, { limits: REPLICA_LIMITS, ...opts.agent })],
        ...(redis === undefined ? {} : { store: redis.url }),
      });
      closers.push(() => server.close());
      const hooks = opts.hooks?.(i) ?? {};
      const proxy = await startProxy(server.baseUrl, relay === undefined ? hooks : relayHooks(relay, hooks));
      closers.push(() => proxy.close());
      fronts.push(proxy.baseUrl);
    }
    let baseUrl = fronts[0]!;
    if (opts.target !== 'first') {
      const balancer = await startBalancer(fronts, opts.mode ?? 'round-robin');
      closers.push(() => balancer.close());
      baseUrl = balancer.baseUrl;
    }
    return {
      baseUrl,
      agentId: MUTANT_AGENT_ID,
      apiKey,
      extraArgs: fronts.flatMap((url) => ['--replica', url]),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** The faithful replicated agent: two replicas on one Redis behind a round-robin balancer. */
export const REPLICAS_CONTROL: ControlTarget = {
  name: 'replicas-shared',
  start: () => startReplicaTarget({ store: 'shared' }),
};
