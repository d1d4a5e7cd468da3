// Spec 4.5 across replicas (--replica): a task made and finished through one replica is resubscribed
// to through each of the others, which return its final status (C-09: one JSON response or a stream
// of one final event), never "not found". Not-applicable without two replicas
// (suites/support/replicas.ts).
import { isObject } from '../../schemas/json.ts';
import { suiteFile, verifies } from '../support/index.ts';
import { answer } from '../support/calls.ts';
import { didNotKnow, taskOnFirstReplica } from '../support/replicas.ts';
import type { JsonObject } from '../support/rpc.ts';

suiteFile({
  // message/send and tasks/get until final through the first replica, one tasks/resubscribe through each other.
  cost: { requests: 4, turns: 1 },
});

/** The last JSON-RPC response of the answer: the plain JSON one, or the stream's last event. */
function lastResponse(json: unknown): JsonObject | undefined {
  const last = Array.isArray(json) ? json[json.length - 1] : json;
  return isObject(last) ? last : undefined;
}

verifies(
  '4.5/resubscribe-final-task-returns-status',
  'a task finished through one replica: tasks/resubscribe through each other replica returns its final status',
  async (c) => {
    const t = await taskOnFirstReplica(c, 'resubscribed to through the other replicas');
    for (const other of t.others) {
      const a = await answer(other.c.client, 'tasks/resubscribe', { taskId: t.taskId });
      const response = lastResponse(a.json);
      const error = isObject(response?.error) ? response.error : undefined;
      if (!a.served || error !== undefined) {
        const answered =
          error === undefined
            ? `HTTP ${a.status} without a result`
            : `error ${String(error.code)} ${JSON.stringify(error.message)}`;
        c.check(didNotKnow(other.url, t, answered), answered, 'the final status');
        continue;
      }
      const result = isObject(response?.result) ? response.result : undefined;
      const status = isObject(result?.status) ? result.status : undefined;
      c.check(`result.status.state through replica ${other.url}`, status?.state, t.state);
      c.check(`result.final through replica ${other.url}`, result?.final, true);
    }
  },
);
