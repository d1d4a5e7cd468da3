// The differences between this spec's JSON-RPC and the official A2A dialects (v0.3: `kind`
// discriminators, tasks named by `params.id`, agent/getAuthenticatedExtendedCard, TaskNotFoundError
// -32001, PushNotificationNotSupportedError -32003; v1.0: PascalCase methods and TASK_STATE_* enums),
// each as a test on a recorded exchange and on a finding's failure text.
import { METHODS } from '../../schemas/error-codes.ts';
import type { Exchange } from '../../core/evidence.ts';
import type { DialectId } from '../../core/analysis.ts';
import { methodOf, paramsOf, resultsOf, rpcErrorOf } from './findings.ts';
import { isObject } from '../../schemas/json.ts';

export interface RunView {
  /** Task ids the target itself returned during the run. */
  knownTaskIds: ReadonlySet<string>;
}

export interface DialectRule {
  id: string;
  dialects: readonly DialectId[];
  /** A difference of wire form (not only of a code): it can help name a dialect. */
  structural: boolean;
  spec: string;
  seen: (dialect: DialectId) => string;
  /** The exchange shows the difference (detection, and explaining a finding). */
  shows(ex: Exchange, view: RunView): boolean;
  /** Wider than `shows` where the difference, once seen, also explains other answers. */
  explains?(ex: Exchange, view: RunView): boolean;
  /** Beyond an exchange that shows it, the finding's failure must mention this (a shown form is not always the failure). */
  failureWords?: RegExp;
  /** A finding whose check recorded no exchange (shared samples) is explained when its failure text matches this. */
  textOnly?: RegExp;
}

const TASK_METHODS = new Set(['tasks/get', 'tasks/cancel', 'tasks/resubscribe']);
const A2A_KINDS = new Set(['task', 'message', 'status-update', 'artifact-update']);
const V1_METHODS =
  'SendMessage, SendStreamingMessage, GetTask, CancelTask, SubscribeToTask, GetExtendedAgentCard';

function taskIdParam(ex: Exchange): string | undefined {
  const method = methodOf(ex);
  const taskId = paramsOf(ex).taskId;
  return method !== undefined && TASK_METHODS.has(method) && typeof taskId === 'string' ? taskId : undefined;
}

/** Parts anywhere in a result: its own, its status message's, its history's and artifacts'. */
function partsOf(result: Record<string, unknown>): unknown[] {
  const holders: unknown[] = [result, isObject(result.status) ? result.status.message : undefined];
  for (const key of ['history', 'artifacts']) if (Array.isArray(result[key])) holders.push(...result[key]);
  return holders.flatMap((h) => (isObject(h) && Array.isArray(h.parts) ? h.parts : []));
}

function hasKindDiscriminator(result: Record<string, unknown>): boolean {
  if (typeof result.kind === 'string' && A2A_KINDS.has(result.kind)) return true;
  return partsOf(result).some((p) => isObject(p) && typeof p.kind === 'string' && p.type === undefined);
}

/** In priority order: a finding goes to the first rule that explains it. */
export const DIALECT_RULES: readonly DialectRule[] = [
  {
    id: 'extended-card-method',
    dialects: ['a2a-v0.3'],
    structural: true,
    spec: '`agent/authenticatedExtendedCard` returns the extended card (4.8, 2.14)',
    seen: () =>
      '`agent/authenticatedExtendedCard` is unknown to it: A2A v0.3 names it `agent/getAuthenticatedExtendedCard`, with another card',
    shows: (ex) => methodOf(ex) === 'agent/authenticatedExtendedCard' && rpcErrorOf(ex)?.code === -32601,
    // Once the method is known to be unknown, every error it gets (-32602 for absent params, …) follows.
    explains: (ex) => methodOf(ex) === 'agent/authenticatedExtendedCard' && rpcErrorOf(ex) !== undefined,
    textOnly: /\bcard\b|capabilities|limits\.|metrics/,
  },
  {
    id: 'pascal-case-methods',
    dialects: ['a2a-v1.0'],
    structural: true,
    spec: 'slash-named methods: `message/send`, `tasks/get`, `agent/authenticatedExtendedCard`, … (4)',
    seen: () => `method not found (-32601); A2A v1.0 names its methods ${V1_METHODS}`,
    shows: (ex) => {
      const method = methodOf(ex);
      return (
        method !== undefined &&
        (METHODS as readonly string[]).includes(method) &&
        rpcErrorOf(ex)?.code === -32601
      );
    },
  },
  {
    id: 'push-not-supported-code',
    dialects: ['a2a-v0.3', 'a2a-v1.0'],
    structural: false,
    spec: '`tasks/pushNotificationConfig/set` stores a webhook configuration (4.6); -32003 means cancellation failed (7)',
    seen: () =>
      '-32003 on the webhook configuration methods: the A2A PushNotificationNotSupportedError (no push notifications)',
    shows: (ex) =>
      (methodOf(ex) ?? '').startsWith('tasks/pushNotificationConfig/') && rpcErrorOf(ex)?.code === -32003,
    textOnly: /-32003/,
  },
  {
    id: 'task-id-param',
    dialects: ['a2a-v0.3', 'a2a-v1.0'],
    structural: true,
    spec: '`tasks/get`, `tasks/cancel` and `tasks/resubscribe` name the task in `params.taskId` (4.3-4.5)',
    seen: () => 'tasks it had just created are not found by `taskId`: A2A reads the task id from `params.id`',
    // -32001 is the A2A TaskNotFoundError; in this spec it means "already completed", which tasks/get
    // never answers and which names no missing task.
    shows: (ex, view) => {
      const taskId = taskIdParam(ex);
      const error = rpcErrorOf(ex);
      if (taskId === undefined || !view.knownTaskIds.has(taskId) || error?.code !== -32001) return false;
      return methodOf(ex) === 'tasks/get' || /not found/i.test(error.message);
    },
    textOnly: /tasks\/(get|cancel|resubscribe)[^\n]*\bundefined\b/,
  },
  {
    id: 'task-not-found-code',
    dialects: ['a2a-v0.3', 'a2a-v1.0'],
    structural: false,
    spec: 'an unknown task is -32000 (7); -32001 means the task is already completed',
    seen: () => '-32001 for an unknown task: the A2A TaskNotFoundError',
    shows: (ex, view) => {
      const taskId = taskIdParam(ex);
      return taskId !== undefined && !view.knownTaskIds.has(taskId) && rpcErrorOf(ex)?.code === -32001;
    },
    failureWords: /-3200[01]/,
  },
  {
    id: 'kind-discriminator',
    dialects: ['a2a-v0.3'],
    structural: true,
    spec: 'parts say what they are in `type` (`text`, `file`) (2.4)',
    seen: () => '`kind` discriminators: parts `{"kind": "text"}` and results `"kind": "task"` (A2A v0.3)',
    shows: (ex) => resultsOf(ex).some(hasKindDiscriminator),
    // A schema discriminator error on a part's `type`, or a part's type checked and missing.
    failureWords: /discriminator|\btype of type\b/,
    textOnly: /discriminator|\btype of type\b/,
  },
  {
    id: 'no-final',
    dialects: ['a2a-v0.3'],
    structural: true,
    spec: 'a Task result carries `final` (2.7); every stream event is a Task with `id`, `status` and `final` (4.2)',
    seen: () =>
      'Task results without `final`, and stream updates as `status-update` events keyed by `taskId` (A2A v0.3)',
    shows: (ex) =>
      resultsOf(ex).some((r) => (r.kind === 'task' && r.final === undefined) || r.kind === 'status-update'),
    failureWords: /\bfinal\b|required property 'id'/,
    textOnly: /\bfinal\b/,
  },
  {
    id: 'state-enum',
    dialects: ['a2a-v1.0'],
    structural: true,
    spec: 'states are `submitted`, `working`, `completed`, `failed`, `canceled` (2.8)',
    seen: () => '`TASK_STATE_*` state names (A2A v1.0)',
    shows: (ex) =>
      resultsOf(ex).some((r) => isObject(r.status) && /^TASK_STATE_/.test(String(r.status.state))),
    failureWords: /\bstate\b/,
  },
];
