// message/stream (spec 4.2; C-26, C-27, C-31): the same params as message/send; every check runs
// before the SSE headers are written, then the task's statuses stream from `submitted` to final.
import { readMessageParams } from '../rpc/message-params.ts';
import { paramsObject } from '../rpc/params.ts';
import { assertStreamCapacity, streamTask } from '../sse/task-stream.ts';
import { rpcError } from '../rpc/errors.ts';
import { assertNoDirectedFault, type MethodHandler } from './context.ts';

export const messageStream: MethodHandler = async (context) => {
  const { runtime } = context;
  const params = paramsObject(context.params, true);
  const input = await readMessageParams(params, runtime.config, runtime.engine.table);
  assertNoDirectedFault(input.message);
  assertStreamCapacity(runtime);
  const task = await runtime.engine.create(input);
  // The history from creation on: `submitted` first, even if the task was dequeued at once.
  // directives.md `streamError`: only that first event, then the error event (C-26).
  const replay = task.job.streamError ? task.history.slice(0, 1) : [...task.history];
  const failAfterReplay = task.job.streamError
    ? rpcError('INTERNAL_ERROR', {
        details: 'the agent failed after the stream started (streamError directive)',
      })
    : undefined;
  streamTask(
    context,
    task,
    replay,
    (streamed, status, final) => ({ id: streamed.id, contextId: streamed.contextId, status, final }),
    failAfterReplay,
  );
  return { streamed: true };
};
