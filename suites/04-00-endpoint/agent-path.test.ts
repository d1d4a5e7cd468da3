// Spec 4 (Endpoints): every operation on the one agent path, chosen by `method` alone; an unknown
// agent_id (C-23), a path that is not an agent path and a wrong HTTP method (C-32) are refused with a
// JSON-RPC error body and the HTTP status of C-03. Checks are independent and run concurrently.
import {
  ERROR_CODES,
  is,
  requireAnswer,
  SIDE_BY_SIDE,
  suiteFile,
  typeOf,
  verifies,
} from '../support/index.ts';
import type { AnsweredExchange, CheckContext } from '../support/index.ts';
import { errorData } from '../support/errors.ts';
import { messageParams, sendTask, sendText, textPart, unknownId } from '../support/messages.ts';
import { basePathOf, CARD, errorOf, responseOf, resultOf } from '../support/rpc.ts';
import { checkSchema } from '../support/schemas.ts';
import { READS_A_SAMPLE, sharedSample } from '../support/samples.ts';

suiteFile({
  cost: { requests: 1, turns: 0 },
});

const UNKNOWN_AGENT_CARD = 'the card method sent to an unknown agent_id';
/** One card request to an unknown agent_id: the refusal and its status and code are read from it. */
const unknownAgentCard = sharedSample(UNKNOWN_AGENT_CARD, { requests: 1, turns: 0 }, async (c) => {
  const agentId = unknownId('conformance-no-such-agent');
  return { agentId, ex: await c.rpc(CARD, {}, { agentId }) };
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
    // The task the tasks/* methods name, made when the first of them is sent.
    let made: Promise<string> | undefined;
    const task = () =>
      (made ??= sendTask(c, [textPart('a task for the other methods')]).then(({ task }) => String(task.id)));
    // In the card's order: message/send first on most cards, the method every client calls.
    await c.each(
      'each method the card lists',
      methods,
      async (method) => {
        const taskId = method.startsWith('tasks/') ? await task() : 'no-task-needed';
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
          return;
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
      },
      SIDE_BY_SIDE,
    );
  },
  { concurrent: true, cost: { requests: 1, turns: 1 }, property: { requests: 1, turns: 0, cases: 8 } },
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
  { concurrent: true, cost: { requests: 4, turns: 2 } },
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
    const { ex } = await unknownAgentCard(c);
    checkErrorBody(c, ex);
  },
  { concurrent: true, cost: READS_A_SAMPLE, samples: [UNKNOWN_AGENT_CARD] },
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
    const { agentId, ex } = await unknownAgentCard(c);
    c.check('HTTP status', ex.response.status, 404);
    c.check('error.code', errorOf(ex)?.code, ERROR_CODES.AGENT_NOT_FOUND);
    c.check('error.data.agentId', errorData(ex)?.agentId, agentId);
  },
  { concurrent: true, cost: READS_A_SAMPLE, samples: [UNKNOWN_AGENT_CARD] },
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
  return requireAnswer(ex);
}

const ENVELOPE = JSON.stringify({ jsonrpc: '2.0', id: 'route-1', method: CARD, params: {} });

/** A sub-path of the agent path first: the route a client that appends the method would take. */
const NOT_AGENT_PATHS = [
  ['a sub-path of the agent path', (c: CheckContext) => `${c.client.agentPath()}/message/send`],
  ['a path outside the API', () => '/api/v1/conformance-no-such-route'],
] as const;

verifies(
  '4/unknown-route-404',
  'POST to a path that is no agent path gets 404 and -32600 with data.path',
  async (c) => {
    await c.each(
      'each path that is no agent path',
      NOT_AGENT_PATHS,
      async ([what, pathOf]) => {
        const path = pathOf(c);
        const ex = await raw(c, 'POST', path, ENVELOPE);
        c.info(`POST to ${what}: ${path}`);
        checkErrorBody(c, ex);
        c.check(`${what}: HTTP status`, ex.response.status, 404);
        c.check(`${what}: error.code`, errorOf(ex)?.code, ERROR_CODES.INVALID_REQUEST);
        // Under a base URL with a path (C-57) the agent may name the path it was given or the whole one.
        const whole = `${basePathOf(c.target.baseUrl)}${path}`;
        c.check(
          `${what}: error.data.path`,
          errorData(ex)?.path,
          whole === path ? path : is.oneOf([path, whole]),
        );
      },
      SIDE_BY_SIDE,
    );
  },
  { concurrent: true, property: { requests: 1, turns: 0, cases: NOT_AGENT_PATHS.length } },
);

function allowed(header: unknown): string[] {
  const text = Array.isArray(header) ? header.join(',') : typeof header === 'string' ? header : '';
  return text
    .split(',')
    .map((m) => m.trim().toUpperCase())
    .filter((m) => m !== '')
    .sort();
}

/** GET first: the HTTP method a browser or a probe sends to the agent path. */
const WRONG_HTTP_METHODS = ['GET', 'PUT', 'DELETE'] as const;

verifies(
  '4/wrong-http-method-405',
  'GET, PUT and DELETE on the agent path get 405, Allow and -32600',
  async (c) => {
    await c.each(
      'each HTTP method other than POST',
      WRONG_HTTP_METHODS,
      async (method) => {
        const ex = await raw(c, method, c.client.agentPath(), method === 'PUT' ? ENVELOPE : undefined);
        checkErrorBody(c, ex);
        c.check(`${method}: HTTP status`, ex.response.status, 405);
        c.check(`${method}: Allow methods`, allowed(ex.response.headers.allow), ['OPTIONS', 'POST']);
        c.check(`${method}: error.code`, errorOf(ex)?.code, ERROR_CODES.INVALID_REQUEST);
      },
      SIDE_BY_SIDE,
    );
  },
  { concurrent: true, property: { requests: 1, turns: 0, cases: WRONG_HTTP_METHODS.length } },
);
