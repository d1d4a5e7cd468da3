// tasks/cancel (spec 3, 4.4, 2.9; C-06, C-07, C-08, C-34): cancels a submitted or working task;
// a final task answers -32001 (completed, failed) or -32002 (canceled); a lost race answers -32003.
import { fail, rpcError } from '../rpc/errors.ts';
import { paramsObject, readCancelParams } from '../rpc/params.ts';
import { findTask, type MethodHandler } from './context.ts';

export const tasksCancel: MethodHandler = async ({ runtime, params }) => {
  const { taskId, reason } = readCancelParams(paramsObject(params, true));
  const outcome = await runtime.engine.cancel(await findTask(runtime, taskId), reason);
  if (!outcome.ok) {
    const data = { taskId, currentState: outcome.currentState };
    if (outcome.raced) fail(rpcError('CANCELLATION_FAILED', data));
    fail(
      rpcError(
        outcome.currentState === 'canceled' ? 'TASK_ALREADY_CANCELED' : 'TASK_ALREADY_COMPLETED',
        data,
      ),
    );
  }
  const { task } = outcome;
  return { result: { id: task.id, contextId: task.contextId, status: task.status, canceled: true } };
};
