// Section 1 overview, as seen on the wire: JSON-RPC 2.0 over HTTP(S) (C-03: JSON bodies), a message
// answered with a task carrying the agent's reply, and calls answered either once or as an SSE stream
// (C-27: streaming methods answer text/event-stream).
import { randomUUID } from 'node:crypto';
import { is, suiteFile, typeOf, verifies, type AnsweredExchange } from '../support/index.ts';
import { servedMethods } from '../support/card.ts';
import { sendText, textPart } from '../support/messages.ts';
import { resultOf } from '../support/rpc.ts';
import { sharedSample } from '../support/samples.ts';
import { checkSchema, requireObject } from '../support/schemas.ts';
import { streamToEnd } from '../support/streams.ts';
import { statusOf } from '../support/tasks.ts';

suiteFile({
  cost: { requests: 1, turns: 1 },
  concurrent: true,
});

function contentType(ex: AnsweredExchange): string {
  return String(ex.response.headers['content-type'] ?? '');
}

const sendSample = sharedSample('message/send of a plain text message', { requests: 0, turns: 0 }, (c) =>
  sendText(c, 'overview: hello agent'),
);

verifies(
  '1/json-rpc-over-http',
  'a call is an HTTP(S) POST answered with a JSON-RPC 2.0 JSON body',
  async (c) => {
    const id = `overview-${randomUUID()}`;
    const ex = await c.rpc('agent/authenticatedExtendedCard', undefined, { id });
    c.check('target URL scheme', new URL(ex.request.url).protocol, is.oneOf(['http:', 'https:']));
    c.check('HTTP method of the request', ex.request.method, 'POST');
    c.check(
      'HTTP status',
      ex.response.status,
      is.where('2xx', (v) => Number(v) >= 200 && Number(v) < 300),
    );
    c.check('Content-Type', contentType(ex), is.matching(/^application\/json\b/i));
    checkSchema(c, 'jsonrpc-response', ex.response.json, 'response body');
    c.check('response id', (ex.response.json as { id?: unknown } | undefined)?.id, id);
  },
);

verifies(
  '1/message-returns-task',
  'a message/send is answered with a task carrying the agent reply',
  async (c) => {
    const task = requireObject(c, 'type of result', resultOf(await sendSample(c)));
    c.check('type of result.id', typeOf(task.id), 'string');
    c.check('type of result.status', typeOf(task.status), 'object');
    const state = statusOf(task)?.state;
    // The reply is set when the task completes (2.8); another outcome shows no reply to check.
    if (state !== 'completed')
      return c.notExercised(`the task ended ${JSON.stringify(state)}, not completed`);
    const reply = statusOf(task)!.message;
    checkSchema(c, 'agent-message', reply, 'result.status.message (the reply)');
    const parts = (reply as { parts?: unknown } | undefined)?.parts;
    c.check(
      'reply has at least one part',
      Array.isArray(parts) ? parts.length : 0,
      is.where('>= 1', (n) => Number(n) >= 1),
    );
  },
);

verifies(
  '1/sync-or-streaming-calls',
  'message/send answers once in JSON; message/stream answers with SSE',
  async (c) => {
    const send = await sendSample(c);
    c.check('message/send Content-Type', contentType(send), is.matching(/^application\/json\b/i));
    if (!servedMethods(c).includes('message/stream')) {
      c.info('message/stream is not served: the streaming form was not observed');
      return;
    }
    const t = await streamToEnd(c, [textPart('overview: stream')]);
    c.check('message/stream Content-Type', t.contentType, is.matching(/^text\/event-stream\b/i));
    c.check(
      'message/stream events received',
      t.events.length,
      is.where('>= 1', (n) => Number(n) >= 1),
    );
    c.check(
      'the stream ended with a final event',
      t.finalIndex,
      is.where('an event index', (i) => typeof i === 'number'),
    );
  },
);
