// Spec 4.4 across replicas (--replica): a task made and finished through one replica is cancelled
// through each of the others, which know it and answer the completed-task code with its state (C-06),
// never "not found". Not-applicable without two replicas (suites/support/replicas.ts).
import { is, suiteFile, verifies } from '../support/index.ts';
import { errorData } from '../support/errors.ts';
import { didNotKnow, taskOnFirstReplica } from '../support/replicas.ts';
import { errorOf, resultOf } from '../support/rpc.ts';

suiteFile({
  // message/send and tasks/get until final through the first replica, one tasks/cancel through each other.
  cost: { requests: 4, turns: 1 },
});

verifies(
  '4.4/cancel-completed-task-code',
  'a task finished through one replica: tasks/cancel through each other replica knows its state',
  async (c) => {
    const t = await taskOnFirstReplica(c, 'cancelled through the other replicas');
    if (t.state !== 'completed') c.notExercised(`the task ended ${String(t.state)}, not completed`);
    for (const other of t.others) {
      const ex = await other.c.rpc('tasks/cancel', { taskId: t.taskId });
      const error = errorOf(ex);
      const data = errorData(ex);
      if (error !== undefined && data?.currentState === undefined) {
        const answered = `error ${error.code} ${JSON.stringify(error.message)}`;
        c.check(
          didNotKnow(other.url, t, answered),
          answered,
          'the completed-task code with data.currentState',
        );
        continue;
      }
      c.check(`tasks/cancel through replica ${other.url}: refused`, resultOf(ex) === undefined, true);
      c.check(`error.code through replica ${other.url}`, error?.code, is.oneOf([-32001, -32000]));
      c.check(`error.data.currentState through replica ${other.url}`, data?.currentState, 'completed');
    }
  },
);
