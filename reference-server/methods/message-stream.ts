// message/stream (spec 4.2; C-26, C-27, C-31): the same params as message/send; every check runs
// before the SSE headers are written, then the task's statuses stream from `submitted` to final.
import { readMessageParams } from '../rpc/message-params.ts';
import { paramsObject } from '../rpc/params.ts';
import { assertStreamCapacity, streamTask } from '../sse/task-stream.ts';
import type { MethodHandler } from './context.ts';

export const messageStream: MethodHandler = (context) => {
  const { runtime } = context;
  const input = readMessageParams(paramsObject(context.params, true), runtime.config, runtime.engine.store);
  assertStreamCapacity(runtime);
  const task = runtime.engine.create(input);
  // The history from creation on: `submitted` first, even if the task was dequeued at once.
  streamTask(context, task, [...task.history], (streamed, status, final) => ({
    id: streamed.id,
    contextId: streamed.contextId,
    status,
    final,
  }));
  return { streamed: true };
};
