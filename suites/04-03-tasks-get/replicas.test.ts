// Spec 4.3 across replicas (--replica): a task made through one replica of the agent is read with
// tasks/get through each of the others, which report its current state (the agent is one agent
// whatever replica answers). Not-applicable without two replicas (suites/support/replicas.ts).
import { suiteFile, verifies } from '../support/index.ts';
import { didNotKnow, notKnown, taskOnFirstReplica } from '../support/replicas.ts';
import { resultOf } from '../support/rpc.ts';
import { stateOf } from '../support/tasks.ts';

suiteFile({
  // message/send and tasks/get until final through the first replica, one tasks/get through each other.
  cost: { requests: 4, turns: 1 },
});

verifies(
  '4.3/get-current-state',
  'a task made through one replica: tasks/get through each other replica reports its state',
  async (c) => {
    const t = await taskOnFirstReplica(c, 'read through the other replicas');
    for (const other of t.others) {
      const ex = await other.c.rpc('tasks/get', { taskId: t.taskId });
      const answered = notKnown(ex);
      if (answered !== undefined) {
        c.check(didNotKnow(other.url, t, answered), answered, 'the task');
        continue;
      }
      c.check(`status.state through replica ${other.url}`, stateOf(resultOf(ex)), t.state);
    }
  },
);
