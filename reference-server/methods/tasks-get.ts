// tasks/get (spec 4.3; C-35, C-44): the task with id, contextId, status, createdAt, updatedAt.
import { paramsObject, readTaskId } from '../rpc/params.ts';
import { findTask, taskView, type MethodHandler } from './context.ts';

export const tasksGet: MethodHandler = async ({ runtime, params }) => {
  const taskId = readTaskId(paramsObject(params, true));
  return { result: taskView(await findTask(runtime, taskId)) };
};
