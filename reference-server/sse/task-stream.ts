// Streams one task's statuses over SSE (spec 4.2, 4.5; C-10, C-26, C-31, C-42): replays the
// requested earlier statuses, then follows the task live and closes after the final event.
import type { AgentRuntime } from '../agents/runtime.ts';
import type { MethodContext } from '../methods/context.ts';
import { errorResponse, fail, rpcError, successResponse, type RpcErrorObject } from '../rpc/errors.ts';
import type { StoredTask } from '../store/types.ts';
import { isFinalState } from '../../schemas/error-codes.ts';
import type { TaskStatus } from '../types.ts';
import { SseStream } from './sse-writer.ts';

/** Builds one event's `result` from a status. */
export type EventResult = (task: StoredTask, status: TaskStatus, final: boolean) => unknown;

/** C-42: checked before anything is created, so a refused stream has no side effect. */
export function assertStreamCapacity(runtime: AgentRuntime): void {
  if (runtime.streams.size >= runtime.config.maxStreams) {
    fail(rpcError('INTERNAL_ERROR', { reason: 'too many streams' }), 503);
  }
}

/**
 * Opens the SSE response, sends `replay` (earlier statuses, final false) and then every live status
 * until the final one. A status that is final ends the stream right after it is sent. With
 * `failAfterReplay` the replay is followed by that error event and the end of the stream (C-26).
 */
export function streamTask(
  context: MethodContext,
  task: StoredTask,
  replay: readonly TaskStatus[],
  toResult: EventResult,
  failAfterReplay?: RpcErrorObject,
): void {
  const { runtime, res } = context;
  const stream = new SseStream(res, runtime.config.keepAliveMs);
  runtime.streams.add(stream);
  stream.onClose(() => runtime.streams.delete(stream));
  stream.open(context.responseHeaders);
  const send = (status: TaskStatus): boolean => {
    const final = isFinalState(status.state);
    try {
      stream.send(successResponse(context.id, toResult(task, status, final)));
    } catch {
      // C-26: once the stream has started, a failure is one error event and the end of the stream.
      stream.send(errorResponse(context.id, rpcError('INTERNAL_ERROR')));
      stream.end();
      return true;
    }
    if (final) stream.end();
    return final;
  };
  for (const status of replay) if (send(status)) return;
  if (stream.closed) return;
  if (failAfterReplay !== undefined) {
    stream.send(errorResponse(context.id, failAfterReplay));
    stream.end();
    return;
  }
  // Subscribing in the same tick as the replay leaves no gap in which a status could be missed.
  const unsubscribe = runtime.engine.subscribe(task.id, (update) => void send(update.status), task);
  stream.onClose(unsubscribe);
}
