// tasks/resubscribe (spec 4.5, 2.10; C-09, C-10, C-41): a final task answers its final status as
// plain JSON; a live task streams (with the earlier statuses when includeHistory is true).
import { isFinalState } from '../../schemas/error-codes.ts';
import { fail, rpcError } from '../rpc/errors.ts';
import { paramsObject, readResubscribeParams } from '../rpc/params.ts';
import { assertStreamCapacity, streamTask } from '../sse/task-stream.ts';
import type { StoredTask } from '../store/types.ts';
import type { TaskStatus } from '../types.ts';
import { findTask, type MethodHandler } from './context.ts';

function resubscribeResult(
  task: StoredTask,
  status: TaskStatus,
  subscribed: boolean,
  final: boolean,
): object {
  return { id: task.id, contextId: task.contextId, status, subscribed, final };
}

/** C-10: every status before the current one, then the current one (history is capped, so add it if missing). */
function replayOf(task: StoredTask, includeHistory: boolean): TaskStatus[] {
  if (!includeHistory) return [task.status];
  const replay = [...task.history];
  if (replay[replay.length - 1] !== task.status) replay.push(task.status);
  return replay;
}

export const tasksResubscribe: MethodHandler = async (context) => {
  const { runtime } = context;
  const { taskId, includeHistory } = readResubscribeParams(paramsObject(context.params, true));
  const task = await findTask(runtime, taskId);
  if (isFinalState(task.status.state)) return { result: resubscribeResult(task, task.status, false, true) };
  if (!runtime.config.capabilities.streaming) {
    fail(rpcError('SUBSCRIPTION_FAILED', { taskId, reason: 'this agent does not support streaming' }));
  }
  if (!task.streamable) {
    // directives.md `streamable: false` (spec 7: the task may not support streaming).
    fail(rpcError('SUBSCRIPTION_FAILED', { taskId, reason: 'this task does not support streaming' }));
  }
  assertStreamCapacity(runtime);
  streamTask(context, task, replayOf(task, includeHistory), (streamed, status, final) =>
    resubscribeResult(streamed, status, true, final),
  );
  return { streamed: true };
};
