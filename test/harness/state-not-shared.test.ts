// Root-cause analysis (harness/analysis/root-causes.ts) names replicas that do not share task state
// when tasks the run made through the target are answered "not found" by the same target, and keeps
// an unknown id the run never made (the 4.3 unknown-task check's) out of that cause.
import { describe, expect, it } from 'vitest';
import { analyseRun } from '../../harness/analysis/root-causes.ts';
import type { RequirementResult } from '../../core/types.ts';
import { check, exchange, requirement } from '../reporters/fixtures.ts';

const NOT_FOUND = { code: -32000, message: 'Task not found', data: { taskId: '' } };

/** A requirement failed because its task, made by message/send, was then answered "not found". */
function madeThenLost(id: string, method: string, taskId: string, n: number): RequirementResult {
  const made = exchange(
    `send-${n}`,
    { jsonrpc: '2.0', id: `s${n}`, method: 'message/send', params: {} },
    { jsonrpc: '2.0', id: `s${n}`, result: { id: taskId, kind: 'task', status: { state: 'completed' } } },
  );
  const lost = exchange(
    `lost-${n}`,
    { jsonrpc: '2.0', id: `l${n}`, method, params: { taskId } },
    { jsonrpc: '2.0', id: `l${n}`, error: { ...NOT_FOUND, data: { taskId } } },
  );
  return requirement(id, 'fail', [
    check(id, 'fail', { evidence: { exchanges: [made, lost], streams: [], deliveries: [] } }),
  ]);
}

describe('root cause: replicas do not share task state', () => {
  it('groups the run’s own tasks answered "not found" under one cause naming replicas', () => {
    const requirements = [
      madeThenLost('4.3/get-current-state', 'tasks/get', 'task-a', 1),
      madeThenLost('4.4/cancel-completed-task-code', 'tasks/cancel', 'task-b', 2),
      madeThenLost('4.5/resubscribe-final-task-returns-status', 'tasks/resubscribe', 'task-c', 3),
    ];
    const { rootCauses } = analyseRun(requirements);
    expect(rootCauses[0]).toMatchObject({ kind: 'state-not-shared', key: 'state-not-shared' });
    expect(rootCauses[0]!.cause).toContain('replicas do not share task state');
    expect(rootCauses[0]!.cause).toContain('tasks/get, tasks/cancel, tasks/resubscribe');
    expect(rootCauses[0]!.expected).toContain('--replica');
    expect(rootCauses[0]!.requirements.map((r) => r.id)).toHaveLength(3);
  });

  it('an id the run never made, answered "not found", is no replica cause', () => {
    const unknown = (id: string, n: number) =>
      requirement(id, 'fail', [
        check(id, 'fail', {
          evidence: {
            exchanges: [
              exchange(
                `u-${n}`,
                { jsonrpc: '2.0', id: `u${n}`, method: 'tasks/get', params: { taskId: `never-made-${n}` } },
                { jsonrpc: '2.0', id: `u${n}`, error: NOT_FOUND },
              ),
            ],
            streams: [],
            deliveries: [],
          },
        }),
      ]);
    const { rootCauses } = analyseRun([
      unknown('4.3/get-current-state', 1),
      unknown('4.4/cancel-completed-task-code', 2),
      unknown('4.5/resubscribe-final-task-returns-status', 3),
    ]);
    expect(rootCauses.map((c) => c.kind)).not.toContain('state-not-shared');
    expect(rootCauses[0]?.kind).toBe('error-code');
  });
});
