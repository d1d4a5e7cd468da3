// The replicated targets of the cross-replica mutants and legal variants (mutants/replica-target.ts)
// with a real redis-server, and how variants are held against their own control (mutants/runner.ts):
// replicas on one Redis know each other's tasks, replicas with their own memory do not, each replica's
// front is given as a --replica, and variants that name a control are grouped and judged by it.
import { afterEach, describe, expect, it } from 'vitest';
import { byControl, mergeVerdicts, PROXY_CONTROL, loadVariants } from '../../mutants/runner.ts';
import { loadLegalVariants } from '../../mutants/legal-run.ts';
import { CROSS_REPLICA, REPLICAS_CONTROL, startReplicaTarget } from '../../mutants/replica-target.ts';
import type { MutantTarget } from '../../mutants/types.ts';

let target: MutantTarget | undefined;
afterEach(async () => {
  await target?.close();
  target = undefined;
});

interface RpcAnswer {
  result?: { id?: unknown };
  error?: { code?: unknown };
}

async function rpc(t: MutantTarget, base: string, method: string, params: unknown): Promise<RpcAnswer> {
  const res = await fetch(`${base}/api/v1/a2a/${t.agentId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': t.apiKey },
    body: JSON.stringify({ jsonrpc: '2.0', id: 'r1', method, params }),
  });
  return (await res.json()) as RpcAnswer;
}

const message = {
  message: { role: 'user', parts: [{ type: 'text', text: 'hello' }], messageId: crypto.randomUUID() },
};

/** The replicas' fronts as the harness gets them (`--replica <url>` each). */
function replicasOf(t: MutantTarget): string[] {
  const args = t.extraArgs ?? [];
  return args.filter((_, i) => args[i - 1] === '--replica');
}

describe('startReplicaTarget', () => {
  it('on one Redis: a task made through the first replica is known to the second; the balancer is the target', async () => {
    target = await startReplicaTarget({ store: 'shared' });
    const [first, second] = replicasOf(target);
    expect([first, second].every((u) => typeof u === 'string' && u !== target!.baseUrl)).toBe(true);
    const made = await rpc(target, first!, 'message/send', message);
    const taskId = made.result?.id as string;
    expect(typeof taskId).toBe('string');
    const read = await rpc(target, second!, 'tasks/get', { taskId });
    expect(read.result?.id).toBe(taskId);
  });

  it('each its own memory, the first replica as target: the second answers "Task not found"', async () => {
    target = await startReplicaTarget({ store: 'isolated', target: 'first' });
    const [first, second] = replicasOf(target);
    expect(target.baseUrl).toBe(first);
    const made = await rpc(target, first!, 'message/send', message);
    const read = await rpc(target, second!, 'tasks/get', { taskId: made.result?.id });
    expect(read.error?.code).toBe(-32000);
  });
});

describe('controls', () => {
  it('groups variants by their control, the plain proxy for those that name none', () => {
    const groups = byControl([{ name: 'a' }, { name: 'b', control: REPLICAS_CONTROL }, { name: 'c' }]);
    expect(groups.map((g) => [g.control.name, g.variants.map((v) => v.name)])).toEqual([
      [PROXY_CONTROL.name, ['a', 'c']],
      [REPLICAS_CONTROL.name, ['b']],
    ]);
  });

  it('merges two control runs: a requirement passes only if it passed in both', () => {
    expect(
      mergeVerdicts([
        { x: 'pass', y: 'pass', z: 'fail' },
        { x: 'warn', y: 'pass', w: 'not-applicable' },
      ]),
    ).toEqual({ x: 'warn', y: 'pass', z: 'fail', w: 'not-applicable' });
  });

  it('every cross-replica mutant and legal variant is held against the replicated control', async () => {
    const cross = (await loadVariants(undefined, { extended: true })).filter((v) => v.control !== undefined);
    expect(cross.map((v) => v.breaks).sort()).toEqual([...CROSS_REPLICA].sort());
    expect(new Set(cross.map((v) => v.control?.name))).toEqual(new Set([REPLICAS_CONTROL.name]));
    expect((await loadVariants()).filter((v) => v.control !== undefined)).toEqual([]);
    const legal = (await loadLegalVariants()).filter((v) => v.control === REPLICAS_CONTROL);
    expect(legal.map((v) => v.name).sort()).toEqual(['replicas-deliver-twice', 'replicas-uneven-latency']);
  });
});
