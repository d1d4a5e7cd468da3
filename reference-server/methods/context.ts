// What every method handler receives and returns (spec 4), plus the task views and task lookup
// shared by the task methods (spec 2.7, 2.10; C-35, C-44).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { directedInternalError } from '../agent/reference-agent.ts';
import type { AgentRuntime } from '../agents/runtime.ts';
import { fail, rpcError, type RpcId } from '../rpc/errors.ts';
import type { StoredTask } from '../store/types.ts';
import type { Message } from '../types.ts';
import type { WebhookService } from '../webhooks/index.ts';

export interface MethodContext {
  runtime: AgentRuntime;
  webhooks: WebhookService;
  id: Exclude<RpcId, null>;
  /** The envelope's params as received: absent, an object or an array (handlers normalise). */
  params: unknown;
  req: IncomingMessage;
  res: ServerResponse;
  /** Headers (CORS) every response of this request carries, SSE included. */
  responseHeaders: Record<string, string>;
}

/** `streamed`: the handler has written an SSE response itself. */
export type MethodResult = { result: unknown } | { streamed: true };

export type MethodHandler = (context: MethodContext) => Promise<MethodResult> | MethodResult;

/** The task as message/send and tasks/get return it (spec 2.7). */
export function taskView(task: StoredTask): Record<string, unknown> {
  return {
    id: task.id,
    contextId: task.contextId,
    status: task.status,
    createdAt: task.createdAt,
    updatedAt: task.updatedAt,
  };
}

export const TASK_NOT_FOUND_SUGGESTION =
  'Check the taskId: tasks are per agent, and finished tasks are kept for at least one hour';

/** -32000 {taskId, suggestion} for an unknown or evicted task (spec 7, C-44). */
export async function findTask(runtime: AgentRuntime, taskId: string): Promise<StoredTask> {
  const task = await runtime.engine.find(taskId);
  if (task === undefined) fail(rpcError('TASK_NOT_FOUND', { taskId, suggestion: TASK_NOT_FOUND_SUGGESTION }));
  return task;
}

/** directives.md `internalError`: -32603 {details} (HTTP 200, C-03) before any task is created. */
export function assertNoDirectedFault(message: Message): void {
  const details = directedInternalError(message);
  if (details !== undefined) fail(rpcError('INTERNAL_ERROR', { details }));
}
