// Spec 4 (Endpoints): every operation on the one agent path, chosen by `method` alone; an unknown
// agent_id (C-23), a path that is not an agent path and a wrong HTTP method (C-32) are refused with a
// JSON-RPC error body and the HTTP status of C-03. Checks are independent and run concurrently.
import {
  completeAnswer,
  ERROR_CODES,
  is,
  NoAnswerError,
  suiteFile,
  typeOf,
  verifies,
  type AnsweredExchange,
  type CheckContext,
} from '../support/index.ts';
import { errorData } from '../support/errors.ts';
import { messageParams, sendTask, sendText, textPart, unknownId } from '../support/messages.ts';
import { basePathOf, CARD, errorOf, responseOf, resultOf } from '../support/rpc.ts';
import { checkSchema } from '../support/schemas.ts';

suiteFile({
  cost: { requests: 2, turns: 1 },
});

function supportedMethods(c: CheckContext): string[] {
  const caps = (c.card as { capabilities?: { supportedMethods?: unknown } } | null)?.capabilities;
  const listed = caps?.supportedMethods;
  if (!Array.isArray(listed) || listed.length === 0) {
    c.notExercised('the agent card lists no capabilities.supportedMethods');
  }
  return listed.filter((m): m is string => typeof m === 'string');
}

/** Params that make each method of section 4 do its work on an existing, finished task. */
function paramsFor(method: string, taskId: string): unknown {
  switch (method) {
    case 'message/send':
    case 'message/stream':
      return messageParams([textPart('single endpoint')]);
    case 'tasks/pushNotificationConfig/get':
    case CARD:
      return {};
    case 'tasks/pushNotificationConfig/set':
      // Task-level, on a finished task: nothing is ever delivered, no other check is affected (C-17).
      return { taskId, config: { url: 'https://webhook.a2a-conformance.invalid/single-endpoint' } };
    default:
      return { taskId };
  }
}

verifies(
  '4/single-endpoint',
  'every method the card lists is served on the agent path',
  async (c) => {
    const methods = supportedMethods(c);
    const { task } = await sendTask(c, [textPart('a task for the other methods')]);
    const taskId = String(task.id);
    for (const method of methods) {
      const id = unknownId('endpoint');
      if (method === 'message/stream' || method === 'tasks/resubscribe') {
        const s = await c.stream(method, paramsFor(method, taskId), { id, closeOnFinal: true });
        const t = await s.done;
        const first = t.events[0]?.json ?? t.json;
        c.check(`${method}: answered on ${c.client.agentPath()}`, (first as { id?: unknown })?.id, id);
        c.check(
          `${method}: not -32601`,
          (first as { error?: { code?: unknown } })?.error?.code,
          is.where(`not ${ERROR_CODES.METHOD_NOT_FOUND}`, (code) => code !== ERROR_CODES.METHOD_NOT_FOUND),
        );
        continue;
      }
      const ex = await c.rpc(method, paramsFor(method, taskId), { id });
      c.check(`${method}: answered on ${c.client.agentPath()}`, responseOf(ex)?.id, id);
      c.check(
        `${method}: error.code`,
        errorOf(ex)?.code,
        is.where(
          `absent or not ${ERROR_CODES.METHOD_NOT_FOUND}`,
          (code) => code !== ERROR_CODES.METHOD_NOT_FOUND,
        ),
      );
    }
  },
  { concurrent: true },
);

verifies(
  '4/method-selects-operation',
  'one path and body shape, three methods, three operations',
  async (c) => {
    const { task } = await sendTask(c, [textPart('method selects')]);
    const get = await c.rpc('tasks/get', { taskId: task.id });
    checkSchema(c, 'tasks-get-result', resultOf(get), 'tasks/get result is a tasks/get result');
    c.check('tasks/get result.id', resultOf(get)?.id, task.id);
    const card = await c.rpc(CARD, {});
    checkSchema(c, 'agent-extended-card', resultOf(card), 'the card method answers a card');
    const send = await sendText(c, 'method selects, again');
    checkSchema(c, 'send-result', resultOf(send), 'message/send answers a new task');
    c.check(
      'message/send created another task',
      resultOf(send)?.id,
      is.where(
        `a task id other than ${JSON.stringify(task.id)}`,
        (id) => typeof id === 'string' && id !== task.id,
      ),
    );
  },
  { concurrent: true },
);

/** The body of a refusal: a JSON-RPC error response and never a result (C-03). */
function checkErrorBody(c: CheckContext, ex: AnsweredExchange): void {
  c.check('type of response.error', typeOf(responseOf(ex)?.error), 'object');
  c.check('response.result', responseOf(ex)?.result, is.absent());
}

verifies(
  '4/unknown-agent-rejected',
  'a request to an unknown agent_id gets an error, no result',
  async (c) => {
    const ex = await c.rpc(CARD, {}, { agentId: unknownId('conformance-no-such-agent') });
    checkErrorBody(c, ex);
  },
  { concurrent: true },
);

verifies(
  '4/unknown-agent-rejected',
  'message/send to an unknown agent_id gets an error, no task',
  async (c) => {
    const ex = await c.rpc('message/send', messageParams([textPart('to nobody')]), {
      agentId: unknownId('conformance-no-such-agent'),
    });
    checkErrorBody(c, ex);
  },
  { concurrent: true },
);

verifies(
  '4/unknown-agent-404',
  'an unknown agent_id gets HTTP 404 and -32011 with data.agentId',
  async (c) => {
    const agentId = unknownId('conformance-no-such-agent');
    const ex = await c.rpc(CARD, {}, { agentId });
    c.check('HTTP status', ex.response.status, 404);
    c.check('error.code', errorOf(ex)?.code, ERROR_CODES.AGENT_NOT_FOUND);
    c.check('error.data.agentId', errorData(ex)?.agentId, agentId);
  },
  { concurrent: true },
);

verifies(
  '4/unknown-agent-404',
  'an unknown agent_id is answered 404 before credentials',
  async (c) => {
    const agentId = unknownId('conformance-no-such-agent');
    const ex = await c.rpc(CARD, {}, { agentId, headers: { 'x-api-key': null, authorization: null } });
    c.check('HTTP status without credentials', ex.response.status, 404);
    c.check('error.code without credentials', errorOf(ex)?.code, ERROR_CODES.AGENT_NOT_FOUND);
  },
  { concurrent: true },
);

async function raw(c: CheckContext, method: string, path: string, body?: string): Promise<AnsweredExchange> {
  const ex = await c.client.raw({
    method,
    path,
    auth: true,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body }),
  });
  // A deadline or reset mid-answer is no answer (the check ends as a harness error, never graded).
  if (!completeAnswer(ex)) throw new NoAnswerError(ex);
  return ex as AnsweredExchange;
}

const ENVELOPE = JSON.stringify({ jsonrpc: '2.0', id: 'route-1', method: CARD, params: {} });

for (const [what, pathOf] of [
  ['a sub-path of the agent path', (c: CheckContext) => `${c.client.agentPath()}/message/send`],
  ['a path outside the API', () => '/api/v1/conformance-no-such-route'],
] as const) {
  verifies(
    '4/unknown-route-404',
    `POST to ${what} gets 404 and -32600 with data.path`,
    async (c) => {
      const path = pathOf(c);
      const ex = await raw(c, 'POST', path, ENVELOPE);
      checkErrorBody(c, ex);
      c.check('HTTP status', ex.response.status, 404);
      c.check('error.code', errorOf(ex)?.code, ERROR_CODES.INVALID_REQUEST);
      // Under a base URL with a path (C-57) the agent may name the path it was given or the whole one.
      const whole = `${basePathOf(c.target.baseUrl)}${path}`;
      c.check('error.data.path', errorData(ex)?.path, whole === path ? path : is.oneOf([path, whole]));
    },
    { concurrent: true },
  );
}

function allowed(header: unknown): string[] {
  const text = Array.isArray(header) ? header.join(',') : typeof header === 'string' ? header : '';
  return text
    .split(',')
    .map((m) => m.trim().toUpperCase())
    .filter((m) => m !== '')
    .sort();
}

for (const method of ['GET', 'PUT', 'DELETE']) {
  verifies(
    '4/wrong-http-method-405',
    `${method} on the agent path gets 405, Allow and -32600`,
    async (c) => {
      const ex = await raw(c, method, c.client.agentPath(), method === 'PUT' ? ENVELOPE : undefined);
      checkErrorBody(c, ex);
      c.check('HTTP status', ex.response.status, 405);
      c.check('Allow methods', allowed(ex.response.headers.allow), ['OPTIONS', 'POST']);
      c.check('error.code', errorOf(ex)?.code, ERROR_CODES.INVALID_REQUEST);
    },
    { concurrent: true },
  );
}
