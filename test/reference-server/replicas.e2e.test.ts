// Certifications of the sections that share task state, of the reference server as replicas behind the loopback balancer: three
// replicas on one Redis certify like one process (exit 0, the same verdict for every requirement).
// Replicas with their own memory are test/harness/cross-replica.e2e.test.ts's (exit 1, the replica
// that did not know the task named, and the root cause without --replica).
import { afterEach, describe, expect, it } from 'vitest';
import type { RunResult } from '../../harness/index.ts';
import { startReplicaSet, type ReplicaSet } from '../../bench/field/replicas.ts';
import { startReferenceServer } from '../../reference-server/index.ts';
import { certifyReplicas, REPLICA_SERVER } from '../support/replica-runs.ts';

let set: ReplicaSet | undefined;
afterEach(async () => {
  await set?.close();
  set = undefined;
});

/**
 * The sections whose checks read, cancel, resubscribe to and configure tasks made by earlier
 * requests: where replicas that do not share state part ways. The whole certification of replicas
 * is `npm run field -- --only replicas-3-shared` (docs/field-conditions.md).
 */
const SHARED_STATE = ['4.3/*', '4.4/*', '4.5/*', '4.7/*', '6.3/*'];

const certify = (target: string): Promise<RunResult> => certifyReplicas(target, SHARED_STATE);

const verdicts = (result: RunResult): Record<string, string> =>
  Object.fromEntries(result.requirements.map((r) => [r.id, r.verdict]));

/**
 * The verdicts of the requirements both runs exercised: a check the machine's load left
 * not-exercised in one run (an agent's 2 s system timeout reached first) says nothing of replicas.
 */
function comparable(a: RunResult, b: RunResult): [Record<string, string>, Record<string, string>] {
  const [va, vb] = [verdicts(a), verdicts(b)];
  const both = Object.keys(va).filter((id) => va[id] !== 'not-exercised' && vb[id] !== 'not-exercised');
  return [
    Object.fromEntries(both.map((id) => [id, va[id]!])),
    Object.fromEntries(both.map((id) => [id, vb[id]!])),
  ];
}

describe('the reference server as replicas behind a balancer', () => {
  it('three replicas on one Redis, round-robin: exit 0 and the verdicts of one process', async () => {
    const one = await startReferenceServer(REPLICA_SERVER);
    let alone: RunResult;
    try {
      alone = await certify(one.baseUrl);
    } finally {
      await one.close();
    }
    set = await startReplicaSet({ count: 3, mode: 'round-robin', store: 'shared', server: REPLICA_SERVER });
    const replicated = await certify(set.baseUrl);
    expect(set.counts().every((n) => n > 0)).toBe(true);
    expect(replicated.exitCode).toBe(0);
    const [replicatedVerdicts, aloneVerdicts] = comparable(replicated, alone);
    expect(replicatedVerdicts).toEqual(aloneVerdicts);
    expect(Object.keys(replicatedVerdicts).length).toBeGreaterThan(replicated.requirements.length * 0.95);
  }, 600_000);
});
