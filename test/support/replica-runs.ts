// Certifications of the reference server as replicas behind the loopback balancer
// (bench/field/replicas.ts), for the tests of `run --replica` and of replicas sharing task state:
// every replica hosts the agent of `npm run certify`, and each run is the API's, without report files.
import { runConformance, type RunOptions, type RunResult } from '../../harness/index.ts';
import { certificationAgent } from '../../harness/runner/bundled-target.ts';
import { generateApiKey } from '../../reference-server/index.ts';
import type { AgentConfigInput, ReferenceServerOptions } from '../../reference-server/types.ts';

const AGENT_ID = 'reference-agent';
const key = generateApiKey();

/**
 * Options of every replica: the certification agent (its 2 s system timeout frees the slot of a task
 * one replica holds and the other cannot cancel), webhooks to the harness's loopback receiver allowed (C-19).
 */
export const REPLICA_SERVER: ReferenceServerOptions = {
  allowPrivateWebhookTargets: true,
  agents: [certificationAgent(AGENT_ID, key) as AgentConfigInput],
};

/**
 * A run of the requirements `only` selects against `target` (a balancer or one replica), seed 7;
 * `more`: the replicas behind the balancer (--replica) and the checks run at once (--concurrency).
 */
export function certifyReplicas(
  target: string,
  only: string[],
  more: Pick<RunOptions, 'replica' | 'concurrency'> = {},
): Promise<RunResult> {
  return runConformance({ target, agentId: AGENT_ID, apiKey: key, out: null, seed: 7, only, ...more });
}
