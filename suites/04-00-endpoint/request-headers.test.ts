// Spec 4 (Endpoints): the request's Content-Type (C-28: application/json with parameters allowed,
// otherwise 415 with -32600), the Accept header of streaming and plain methods (C-27) and the
// required body (an empty one is a parse error, C-02). Checks are independent and run concurrently.
import { ERROR_CODES, is, SIDE_BY_SIDE, suiteFile, typeOf, verifies } from '../support/index.ts';
import type { AnsweredExchange } from '../support/index.ts';
import { streamingClaimed } from '../support/card.ts';
import { messageParams, sendText, textPart } from '../support/messages.ts';
import { CARD, errorOf, responseOf, resultOf } from '../support/rpc.ts';
import { checkSchema } from '../support/schemas.ts';

suiteFile({
  cost: { requests: 2, turns: 1 },
});

function mediaTypeOf(ex: { response?: { headers: Record<string, string | string[]> } }): string | undefined {
  const header = ex.response?.headers['content-type'];
  const text = Array.isArray(header) ? header[0] : header;
  return text?.split(';')[0]?.trim().toLowerCase();
}

/** text/plain first: the type a client that forgets to set one often sends by default. */
const NOT_JSON = [
  ['text/plain', 'text/plain'],
  ['no Content-Type', null],
] as const;

verifies(
  '4/content-type-json',
  'a request with text/plain or no Content-Type gets 415 and -32600',
  async (c) => {
    await c.each(
      'each Content-Type that is not JSON',
      NOT_JSON,
      async ([what, contentType]) => {
        const ex = await c.rpc(CARD, {}, { headers: { 'content-type': contentType } });
        c.check(`${what}: type of response.error`, typeOf(responseOf(ex)?.error), 'object');
        c.check(`${what}: HTTP status`, ex.response.status, 415);
        c.check(`${what}: error.code`, errorOf(ex)?.code, ERROR_CODES.INVALID_REQUEST);
        c.check(`${what}: response.result`, responseOf(ex)?.result, is.absent());
      },
      SIDE_BY_SIDE,
    );
  },
  {
    concurrent: true,
    cost: { requests: 1, turns: 0 },
    property: { requests: 1, turns: 0, cases: NOT_JSON.length },
  },
);

const WITH_PARAMETERS = ['application/json; charset=utf-8', 'application/json;charset=UTF-8'];

verifies(
  '4/content-type-parameters-accepted',
  'Content-Type application/json with a charset parameter is served',
  async (c) => {
    await c.each(
      'each spelling of a charset parameter',
      WITH_PARAMETERS,
      async (contentType) => {
        const ex = await c.rpc('message/send', messageParams([textPart('charset')]), {
          headers: { 'content-type': contentType },
        });
        c.check(`${contentType}: error`, responseOf(ex)?.error, is.absent());
        checkSchema(c, 'send-result', resultOf(ex), `${contentType}: message/send result`);
      },
      SIDE_BY_SIDE,
    );
  },
  { concurrent: true, cost: { requests: 1, turns: 1 }, property: { requests: 1, turns: 1, cases: 2 } },
);

verifies(
  '4/empty-body-rejected',
  'an empty body gets -32700 with id null',
  async (c) => {
    const ex: AnsweredExchange = await c.rpc(CARD, undefined, { rawBody: '' });
    c.check('type of response.error', typeOf(responseOf(ex)?.error), 'object');
    c.check('error.code', errorOf(ex)?.code, ERROR_CODES.PARSE_ERROR);
    c.check('id', responseOf(ex)?.id, null);
  },
  { concurrent: true, cost: { requests: 1, turns: 0 } },
);

verifies(
  '4/accept-header-streaming',
  'message/stream without Accept still answers SSE',
  async (c) => {
    if (!streamingClaimed(c)) c.notApplicable('the agent card says capabilities.streaming is false');
    const s = await c.stream('message/stream', messageParams([textPart('no accept')]), {
      headers: { accept: null },
      closeOnFinal: true,
    });
    const t = await s.done;
    c.check(
      'response media type',
      t.isEventStream ? 'text/event-stream' : mediaTypeOf({ response: t }),
      'text/event-stream',
    );
    c.check('a final event arrived', t.finalIndex, is.type('number'));
  },
  { concurrent: true, cost: { requests: 1, turns: 1 } },
);

verifies(
  '4/accept-header-streaming',
  'message/send with Accept text/event-stream answers JSON',
  async (c) => {
    const ex = await c.rpc('message/send', messageParams([textPart('sse accept')]), {
      headers: { accept: 'text/event-stream' },
    });
    c.check('response media type', mediaTypeOf(ex), 'application/json');
    checkSchema(c, 'send-result', resultOf(ex), 'message/send result');
  },
  { concurrent: true, cost: { requests: 1, turns: 1 } },
);

verifies(
  '4/accept-header-streaming',
  'tasks/get with Accept text/event-stream answers JSON',
  async (c) => {
    const sent = await sendText(c, 'get with sse accept');
    const ex = await c.rpc(
      'tasks/get',
      { taskId: resultOf(sent)?.id },
      { headers: { accept: 'text/event-stream' } },
    );
    c.check('response media type', mediaTypeOf(ex), 'application/json');
    checkSchema(c, 'tasks-get-result', resultOf(ex), 'tasks/get result');
  },
  { concurrent: true, cost: { requests: 2, turns: 1 } },
);
