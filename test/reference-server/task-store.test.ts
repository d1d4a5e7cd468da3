// The capped task store (C-44): the oldest finished task goes first, unfinished tasks never do, and a
// conversation goes with its last task; exercised past the queue's compaction point.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TaskStore, type TaskRecord } from '../../reference-server/tasks/task-store.ts';

function task(id: string, contextId = `ctx-${id}`): TaskRecord {
  const status = { state: 'submitted' as const };
  return {
    id,
    agentId: 'a',
    contextId,
    status,
    history: [status],
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
    streamable: true,
    version: 0,
    job: {} as TaskRecord['job'],
  };
}

describe('C-44 task store', () => {
  it('evicts finished tasks oldest first and keeps every unfinished one, over thousands of tasks', () => {
    const evicted: string[] = [];
    const store = new TaskStore(100, (id) => evicted.push(id));
    const running = new Set<string>();
    for (let i = 0; i < 5000; i += 1) {
      const t = task(`t${i}`);
      store.appendTurn(t.contextId, undefined, 'hello');
      store.save(t, false);
      if (i % 7 === 0) running.add(t.id);
      else store.save(t, true);
    }
    const finishedOrder = Array.from({ length: 5000 }, (_, i) => `t${i}`).filter((id) => !running.has(id));
    expect(evicted).toEqual(finishedOrder.slice(0, evicted.length));
    for (const id of running) expect(store.has(id)).toBe(true);
    expect(store.size).toBe(running.size > 100 ? running.size : 100);
    expect(store.hasContext('ctx-t0')).toBe(true); // t0 is still running
    expect(store.hasContext('ctx-t1')).toBe(false); // evicted with its only task
  });

  it('matches a model of "drop the oldest finished while over the cap" for any add/finish sequence', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 20 }),
        fc.array(fc.oneof(fc.constant('add' as const), fc.nat({ max: 3000 })), { maxLength: 3000 }),
        (cap, ops) => {
          const store = new TaskStore(cap);
          const model = { live: [] as string[], finished: [] as string[], done: new Set<string>() };
          let n = 0;
          const evictModel = (): void => {
            while (model.live.length > cap && model.finished.length > 0) {
              const id = model.finished.shift() as string;
              model.live.splice(model.live.indexOf(id), 1);
            }
          };
          for (const op of ops) {
            if (op === 'add') {
              const t = task(`t${n++}`);
              store.save(t, false);
              model.live.push(t.id);
              evictModel();
            } else {
              const open = model.live.filter((id) => !model.done.has(id));
              const id = open[op % Math.max(open.length, 1)];
              if (id === undefined) continue;
              model.done.add(id);
              store.save(store.get(id) as TaskRecord, true);
              model.finished.push(id);
              evictModel();
            }
          }
          expect([...store.all()].map((t) => t.id).sort()).toEqual([...model.live].sort());
        },
      ),
      { numRuns: 60 },
    );
  });
});
