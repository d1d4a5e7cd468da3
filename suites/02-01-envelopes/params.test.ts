// 2.1 `params` member: required for six methods, optional for two (C-14 field "params"), an object
// (C-02: an array gets -32602, a primitive -32600 or -32602), and unknown members ignored (C-36).
// Methods the card does not list are skipped (C-41 answers them -32601).
import { randomUUID } from 'node:crypto';
import { ERROR_CODES, is, METHODS, SIDE_BY_SIDE, suiteFile, typeOf, verifies } from '../support/index.ts';
import type { AnsweredExchange, CheckContext } from '../support/index.ts';
import { servedMethods } from '../support/card.ts';
import { answerError, expectInvalidParams } from '../support/errors.ts';
import { messageParams, sendText, textPart } from '../support/messages.ts';
import { CARD, errorOf, resultOf } from '../support/rpc.ts';
import { GET } from '../support/webhooks.ts';

suiteFile({
  cost: { requests: 1, turns: 0 },
  // No check sets configuration or reads a task it did not make (the agent-level get only reads its type).
  concurrent: true,
});

/** Spec 2.1: every method of section 4 needs params but the two whose params are optional. */
const REQUIRES_PARAMS = METHODS.filter((m) => m !== GET && m !== CARD);

function served(c: CheckContext, methods: readonly string[]): string[] {
  const listed = servedMethods(c);
  const out = methods.filter((m) => listed.includes(m));
  const skipped = methods.filter((m) => !listed.includes(m));
  if (skipped.length > 0) c.info('methods the card does not list (not sent)', skipped);
  if (out.length === 0) c.notApplicable(`the card lists none of ${methods.join(', ')}`);
  return out;
}

verifies(
  '2.1/params-required',
  'each method that requires params gets -32602 with details without them',
  async (c) => {
    // message/send first: the method every agent serves and the one a client calls most.
    await c.each(
      'each method that requires params',
      served(c, REQUIRES_PARAMS),
      async (method) => {
        // rpc() asks for JSON; a streaming method may still answer with one SSE error event (C-26).
        const ex = await c.rpc(method, undefined, { id: `no-params-${randomUUID()}` });
        c.info(`${method}: -32602 expected`);
        expectInvalidParams(c, ex, 'params', false);
      },
      SIDE_BY_SIDE,
    );
  },
  { property: { requests: 1, turns: 0, cases: REQUIRES_PARAMS.length } },
);

verifies(
  '2.1/params-optional',
  'agent/authenticatedExtendedCard without params returns a result',
  async (c) => {
    const ex = await c.rpc(CARD);
    c.check('error', errorOf(ex), is.absent());
    c.check('type of result', typeOf(resultOf(ex)), 'object');
  },
);

verifies(
  '2.1/params-optional',
  'tasks/pushNotificationConfig/get without params returns a result',
  async (c) => {
    served(c, [GET]);
    const ex = await c.rpc(GET);
    c.check('error', errorOf(ex), is.absent());
    c.check('type of result', typeOf(resultOf(ex)), 'object');
  },
);

verifies(
  '2.1/params-object',
  'params given as an array get -32602 on every served method',
  async (c) => {
    await c.each(
      'each served method with params []',
      servedMethods(c),
      async (method) => {
        const ex = await c.rpc(method, []);
        c.check(`${method}: error.code`, answerError(ex)?.code, ERROR_CODES.INVALID_PARAMS);
      },
      SIDE_BY_SIDE,
    );
  },
  { property: { requests: 1, turns: 0, cases: METHODS.length } },
);

/** A string first: the primitive a client is likeliest to send by mistake (a bare task id). */
const PRIMITIVES = ['taskId', 42, true, null] as const;

function expectPrimitiveRefused(c: CheckContext, label: string, ex: AnsweredExchange): void {
  c.check(
    `${label}: error.code`,
    answerError(ex)?.code,
    is.oneOf([ERROR_CODES.INVALID_REQUEST, ERROR_CODES.INVALID_PARAMS]),
  );
}

verifies(
  '2.1/params-object',
  'params given as a string, number, boolean or null get -32600 or -32602',
  async (c) => {
    const methods = served(c, ['tasks/get', CARD]);
    const cases = methods.flatMap((method) => PRIMITIVES.map((params) => ({ method, params })));
    await c.each(
      'each primitive params on tasks/get and the card',
      cases,
      async ({ method, params }) => {
        const ex = await c.rpc(method, undefined, { envelope: { params } });
        expectPrimitiveRefused(c, `${method} with params ${JSON.stringify(params)}`, ex);
      },
      SIDE_BY_SIDE,
    );
  },
  { property: { requests: 1, turns: 0, cases: 8 } },
);

verifies(
  '2.1/unknown-members-ignored',
  'an unknown envelope member does not make the call fail',
  async (c) => {
    const ex = await c.rpc(CARD, undefined, { envelope: { 'x-conformance-extra': { nested: [1, 2] } } });
    c.check('error', errorOf(ex), is.absent());
    c.check('type of result', typeOf(resultOf(ex)), 'object');
  },
);

verifies(
  '2.1/unknown-members-ignored',
  'unknown params, message and part fields do not make message/send fail',
  async (c) => {
    const params = messageParams([{ ...textPart('extra fields'), xPartExtra: true }], {
      xParamsExtra: 'ignored',
    });
    (params.message as Record<string, unknown>).xMessageExtra = { a: 1 };
    const ex = await c.rpc('message/send', params);
    c.check('error', errorOf(ex), is.absent());
    c.check('type of result.id', typeOf(resultOf(ex)?.id), 'string');
  },
  { cost: { requests: 1, turns: 1 } },
);

verifies(
  '2.1/unknown-members-ignored',
  'an unknown field in tasks/get and card params is ignored',
  async (c) => {
    const sent = resultOf(await sendText(c, 'for tasks/get'));
    c.require('message/send result id', typeOf(sent?.id), 'string');
    const get = await c.rpc('tasks/get', { taskId: sent!.id, xUnknown: 1 });
    c.check('tasks/get: result.id', resultOf(get)?.id, sent!.id);
    const card = await c.rpc(CARD, { xUnknown: 'yes' });
    c.check('card: type of result', typeOf(resultOf(card)), 'object');
  },
  { cost: { requests: 3, turns: 1 } },
);
