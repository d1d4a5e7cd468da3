// `run --replica` against reference replicas behind the loopback balancer: two replicas with their
// own memory fail the cross-replica checks (exit 1), each failure naming the replica that did not
// know the task, and without --replica the root cause names replicas not sharing task state; three
// replicas on one Redis pass them (exit 0) and the rulings on replicas (one delivery id per event, the
// rate limit for the agent as a whole), and without --replica all of them are not-applicable.
import { afterEach, describe, expect, it } from 'vitest';
import type { RunResult } from '../../harness/index.ts';
import { startReplicaSet, type ReplicaSet } from '../../bench/field/replicas.ts';
import { certifyReplicas, REPLICA_SERVER as server } from '../support/replica-runs.ts';

/** The cross-replica checks' requirements (suites/*\/replicas.test.ts). */
const CROSS = [
  '4.3/get-current-state',
  '4.4/cancel-completed-task-code',
  '4.5/resubscribe-final-task-returns-status',
  '4.7/get-reflects-set',
];
/** The requirements of the rulings on replicas (C-59, C-60): checked only with --replica. */
const RULED = ['6.5/delivery-id-across-replicas', '8/rate-limit-agent-wide'];
let set: ReplicaSet | undefined;
afterEach(async () => {
  await set?.close();
  set = undefined;
});

const certify = (
  target: string,
  replica?: string[],
  concurrency?: number,
  only: string[] = CROSS,
): Promise<RunResult> =>
  certifyReplicas(target, only, {
    ...(replica === undefined ? {} : { replica }),
    ...(concurrency === undefined ? {} : { concurrency }),
  });

/** The cross-replica check of a requirement (its title names replicas). */
function crossCheck(result: RunResult, id: string) {
  const req = result.requirements.find((r) => r.id === id);
  return req?.checks.find((c) => c.title.includes('replica'));
}

describe('run --replica', () => {
  it('two replicas with their own memory: exit 1, each cross-replica check fails naming the replica', async () => {
    set = await startReplicaSet({ count: 2, mode: 'round-robin', store: 'isolated', server });
    const urls = set.replicas.map((r) => r.baseUrl);
    const result = await certify(set.baseUrl, urls);
    expect(result.exitCode).toBe(1);
    for (const id of CROSS) {
      const check = crossCheck(result, id);
      expect(check?.status, `${id}: ${check?.message}`).toBe('fail');
      expect(JSON.stringify(check), id).toContain(`replica ${urls[1]} did not know task`);
    }
    // Without --replica, the balancer meets the bug: one check at a time, a task made through one
    // replica is read through the other (round-robin), and the root cause names it.
    const plain = await certify(set.baseUrl, undefined, 1);
    expect(plain.exitCode).toBe(1);
    expect(plain.rootCauses?.map((c) => c.kind)).toContain('state-not-shared');
  }, 300_000);

  it('three replicas on one Redis: exit 0, the cross-replica checks and the rulings on replicas pass', async () => {
    set = await startReplicaSet({ count: 3, mode: 'round-robin', store: 'shared', server });
    const urls = set.replicas.map((r) => r.baseUrl);
    const result = await certify(set.baseUrl, urls, undefined, [...CROSS, ...RULED]);
    expect(result.exitCode).toBe(0);
    for (const id of CROSS) {
      const check = crossCheck(result, id);
      expect(check?.status, `${id}: ${check?.message}`).toBe('pass');
    }
    for (const id of RULED) {
      const req = result.requirements.find((r) => r.id === id);
      expect(`${id}: ${req?.verdict}`).toBe(`${id}: pass`);
    }
    // The burst went to each replica in turn: the report names what each one served.
    const burst = crossCheck(result, '8/rate-limit-agent-wide');
    for (const url of urls) expect(JSON.stringify(burst)).toContain(`${url}: `);
    // Without --replica the same checks have nothing to grade.
    const plain = await certify(set.baseUrl, undefined, undefined, [...CROSS, ...RULED]);
    for (const id of CROSS) expect(crossCheck(plain, id)?.status, id).toBe('not-applicable');
    for (const id of RULED)
      expect(plain.requirements.find((r) => r.id === id)?.verdict, id).toBe('not-applicable');
  }, 300_000);
});
