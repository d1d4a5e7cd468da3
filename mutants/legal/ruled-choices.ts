// Choices the rulings leave to an agent: the -32000 form of a cancel of a finished task (spec 7
// note 1, C-06, C-07), -32004 for a resubscribe to a failed or canceled task (C-09), -32000 for an
// empty taskId (C-53), a status other than active and an agent in maintenance failing its tasks
// (C-51), refusing a repeated request id (C-52) and a method added beside section 4's, such as one
// removing a webhook configuration (C-54, C-33).
import { sendJson, type ProxyCall, type ProxyHooks, type UpstreamRpc } from '../proxy.ts';
import { legal, type Where } from '../legal-kit.ts';
import type { LegalVariant } from '../types.ts';

const TASK_METHODS = new Set(['tasks/get', 'tasks/cancel', 'tasks/resubscribe']);
const DELETE = 'tasks/pushNotificationConfig/delete';

function rpcError(call: ProxyCall, code: number, message: string, data: object): object {
  return { jsonrpc: '2.0', id: call.id, error: { code, message, data } };
}

async function stateOf(upstream: UpstreamRpc, taskId: unknown): Promise<unknown> {
  return (await upstream('tasks/get', { taskId }))?.result?.status?.state;
}

/** Resubscribing to a failed or canceled task is refused: there is nothing left to stream. */
const refuseFinishedResubscribe: ProxyHooks = {
  answer: async (call, res, upstream) => {
    if (call.method !== 'tasks/resubscribe' || typeof call.params?.taskId !== 'string') return false;
    const state = await stateOf(upstream, call.params.taskId);
    if (state !== 'failed' && state !== 'canceled') return false;
    const data = { taskId: call.params.taskId, reason: `the task is ${String(state)}: nothing to stream` };
    return sendJson(res, rpcError(call, -32004, 'Subscription failed', data));
  },
};

const DIRECTIVE = /^\s*a2a:directive/;
type Parts = Array<{ text?: unknown }>;

/**
 * Every new task fails: the message gets the directive `fail` (replacing its own directive), so the
 * agent ends it through `working` in `failed` with status.error. Messages of over 1000 characters are
 * left alone: the added part would change what a length-limit check sends.
 */
function failEveryTask(json: unknown, call: ProxyCall): void {
  if (call.method !== 'message/send' && call.method !== 'message/stream') return;
  const parts = (json as { params?: { message?: { parts?: unknown } } }).params?.message?.parts;
  if (!Array.isArray(parts) || parts.length === 0) return;
  const texts = (parts as Parts).map((p) => (typeof p?.text === 'string' ? p.text : ''));
  if (texts.join('').length > 1000) return;
  const part = { type: 'text', text: `a2a:directive ${JSON.stringify({ fail: 'agent in maintenance' })}` };
  const at = texts.findIndex((t) => DIRECTIVE.test(t));
  if (at >= 0) parts[at] = part;
  else parts.push(part);
}

/** The card's agent.status becomes `maintenance`. */
function reportMaintenance(json: unknown, where: Where): void {
  const agent = (json as { result?: { agent?: { status?: unknown } } })?.result?.agent;
  if (where === 'answer' && agent?.status === 'active') agent.status = 'maintenance';
}

/** Ids the service accepts (C-13): strings and integers. */
const validId = (id: unknown): boolean => typeof id === 'string' || Number.isSafeInteger(id);
const idKey = (call: ProxyCall): string => `${call.url} ${JSON.stringify(call.id)}`;

/**
 * A request whose id an earlier request to the same agent path used (and that was answered as a
 * JSON-RPC call, HTTP 200) is refused with -32600; routing, credentials and id types come first.
 */
function refuseRepeatedIds(): ProxyHooks {
  const seen = new Set<string>();
  return {
    json: {
      '*': (_body, { call, status }) => {
        if (status === 200 && call.method !== undefined && validId(call.id)) seen.add(idKey(call));
      },
    },
    answer: (call, res) => {
      if (call.httpMethod !== 'POST' || call.method === undefined || !validId(call.id)) return false;
      if (!seen.has(idKey(call))) return false;
      return sendJson(res, rpcError(call, -32600, 'Invalid Request', { details: 'request id already used' }));
    },
  };
}

const variants: LegalVariant[] = [
  legal({
    name: 'cancel-finished-task-answers-32000',
    varies: ['cancel.finished-task-code'],
    description:
      'tasks/cancel of a completed or failed task answers -32000 "Cannot cancel a completed task" with data.taskId and data.currentState',
    allowedBy: 'spec 7 note 1 (line 347), C-06, C-07',
    only: ['3/*', '4.4/*', '7/*'],
    hooks: {
      json: {
        'tasks/cancel': (body) => {
          if (body?.error?.code !== -32001) return;
          body.error.code = -32000;
          body.error.message = 'Cannot cancel a completed task';
        },
      },
    },
  }),
  legal({
    name: 'resubscribe-failed-or-canceled-answers-32004',
    varies: ['resubscribe.finished-task-answer'],
    description: 'tasks/resubscribe of a failed or canceled task answers -32004 instead of the final status',
    allowedBy: 'spec 4.5 line 235 (the final status "for a completed task"), line 344, C-09',
    only: ['2.10/*', '4.5/*', '6.6/*', '7/*'],
    hooks: refuseFinishedResubscribe,
  }),
  legal({
    name: 'empty-task-id-answers-32000',
    varies: ['errors.empty-task-id-code'],
    description:
      'tasks/get, tasks/cancel and tasks/resubscribe answer an empty taskId with -32000 Task not found',
    allowedBy: 'spec 7 line 340 ("Unknown task id"), C-53',
    only: ['4.3/*', '4.4/*', '4.5/*', '7/*'],
    hooks: {
      answer: (call, res) => {
        if (!TASK_METHODS.has(call.method ?? '') || call.params?.taskId !== '') return false;
        const data = { taskId: '', suggestion: 'check the task id' };
        return sendJson(res, rpcError(call, -32000, 'Task not found', data));
      },
    },
  }),
  legal({
    name: 'agent-status-maintenance',
    varies: ['card.agent-status'],
    description: 'the card reports agent.status "maintenance"; every method behaves as before',
    allowedBy: 'spec 2.14 line 159, C-51',
    only: ['2.14/*', '4.1/*', '4.8/*'],
    everyJson: reportMaintenance,
  }),
  legal({
    name: 'agent-in-maintenance-fails-every-task',
    varies: ['agent.task-failure', 'card.agent-status'],
    description: 'the card reports maintenance and every new task ends failed with status.error',
    allowedBy: 'spec 3 line 183 ("agent errors | processing error | failed"), C-51',
    request: failEveryTask,
    everyJson: reportMaintenance,
  }),
  legal({
    name: 'repeated-request-id-refused',
    varies: ['request-id.repeat-refused'],
    description: 'a request whose id was used before (any method) is refused with -32600',
    allowedBy: 'spec 2.1 line 25 ("Keep unique per request"), C-52',
    hooks: refuseRepeatedIds(),
  }),
  legal({
    name: 'extension-method-config-delete',
    varies: ['methods.extension'],
    description: `the card lists one more method, ${DELETE}, which the agent serves (answers {deleted: true})`,
    allowedBy: 'C-33 (methods added within v1, listed in supportedMethods), C-54',
    only: ['2.1/*', '2.14/*', '4.8/*', '7/*'],
    hooks: {
      answer: (call, res) => {
        if (call.method !== DELETE) return false;
        // Spec 2.1: params, when given, is an object for every method, this one included.
        const params = (call.json as { params?: unknown }).params;
        if (
          params !== undefined &&
          (typeof params !== 'object' || params === null || Array.isArray(params))
        ) {
          const data = { details: 'params must be an object', field: 'params' };
          return sendJson(res, rpcError(call, -32602, 'Invalid params', data));
        }
        return sendJson(res, { jsonrpc: '2.0', id: call.id, result: { deleted: true } });
      },
      json: {
        'agent/authenticatedExtendedCard': (body) => {
          const methods = body?.result?.capabilities?.supportedMethods;
          if (Array.isArray(methods)) methods.push(DELETE);
        },
      },
    },
  }),
];

export default variants;
