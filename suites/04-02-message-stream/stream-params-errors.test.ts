// 4.2 message/stream takes the params of message/send (2.6; C-14) and gives the same reply; errors
// detected before the stream starts are a JSON-RPC error, plain JSON or one SSE error event (C-26);
// a failure after the start is one SSE error event, then the end of the stream (C-26).
import { randomUUID } from 'node:crypto';
import { ERROR_CODES, is, suiteFile, verifies, type CheckContext } from '../support/index.ts';
import { directivesHonoured } from '../support/directives.ts';
import { messageParams, sendText, textPart } from '../support/messages.ts';
import { resultOf, resultOfEvent, type JsonObject } from '../support/rpc.ts';
import { checkEarlyError, eventSummary, requireEnded, runStream } from '../support/streams.ts';
import type { StreamRun } from '../support/streams.ts';
import { FINAL_STATES, replyText, stateOf } from '../support/tasks.ts';

suiteFile({
  cost: { requests: 1, turns: 0 },
});

function finalResult(c: CheckContext, run: StreamRun): JsonObject | undefined {
  requireEnded(c, run.t);
  return run.t.finalIndex === null ? undefined : resultOfEvent(run.t.events[run.t.finalIndex]);
}

function requireFinal(c: CheckContext, run: StreamRun): JsonObject {
  const result = finalResult(c, run);
  c.require('final event of the stream', result === undefined ? eventSummary(run.t) : 'present', 'present');
  return result!;
}

verifies(
  '4.2/stream-same-params',
  'a message without messageId is refused with -32602',
  async (c) => {
    const params = messageParams([textPart('no id')]);
    delete (params.message as JsonObject).messageId;
    const error = checkEarlyError(
      c,
      await runStream(c, 'message/stream', params),
      ERROR_CODES.INVALID_PARAMS,
    );
    c.info('error.data', error?.data);
  },
  { concurrent: true, cost: { requests: 1, turns: 0 } },
);

verifies(
  '4.2/stream-same-params',
  'the same input gets the same reply as message/send',
  async (c) => {
    const text = `same input ${randomUUID()}`;
    const [sent, streamed] = await Promise.all([
      sendText(c, text),
      runStream(c, 'message/stream', messageParams([textPart(text)])),
    ]);
    const task = resultOf(sent);
    c.require('message/send result', task === undefined ? sent.response.json : 'a task', 'a task');
    const final = requireFinal(c, streamed);
    c.check('final state (stream vs send)', stateOf(final), stateOf(task));
    const role = (t: JsonObject | undefined): unknown =>
      ((t?.status as JsonObject | undefined)?.message as JsonObject | undefined)?.role;
    c.check('reply role (stream vs send)', role(final), role(task));
    // Only the directive contract makes the reply text a function of the input (docs/directives.md 4).
    if (await directivesHonoured(c))
      c.check('reply text (stream vs send)', replyText(final), replyText(task));
  },
  { concurrent: true, cost: { requests: 2, turns: 2 } },
);

verifies(
  '4.2/stream-same-params',
  'contextId and sessionId of message/send are accepted',
  async (c) => {
    const first = resultOf(await sendText(c, 'turn one'));
    const contextId = first?.contextId;
    c.require('message/send result contextId', contextId, is.nonEmptyString());
    const sessionId = `session-${randomUUID()}`;
    const run = await runStream(
      c,
      'message/stream',
      messageParams([textPart('turn two')], { contextId, sessionId }),
    );
    const final = requireFinal(c, run);
    // Accepted is the point: a turn the agent then fails (spec 3) was accepted all the same.
    c.check('final state', stateOf(final), is.oneOf([...FINAL_STATES]));
    c.check('final event contextId', final.contextId, is.oneOf([contextId, undefined]));
  },
  { concurrent: true, cost: { requests: 2, turns: 2 } },
);

/** Requests refused before any event, params without message first (the plainest refusal). */
const REFUSED_BEFORE_START: ReadonlyArray<[string, (c: CheckContext) => Promise<void>]> = [
  [
    'params without message: -32602',
    async (c) => {
      const run = await runStream(c, 'message/stream', { sessionId: 's' });
      checkEarlyError(c, run, ERROR_CODES.INVALID_PARAMS);
    },
  ],
  [
    'a user message with role agent: -32602',
    async (c) => {
      const params = messageParams([textPart('wrong role')]);
      (params.message as JsonObject).role = 'agent';
      checkEarlyError(c, await runStream(c, 'message/stream', params), ERROR_CODES.INVALID_PARAMS);
    },
  ],
  [
    'no credential: a JSON-RPC error',
    async (c) => {
      const bare = c.newClient({ auth: {} });
      const run = await runStream(c, 'message/stream', messageParams([textPart('no key')]), {
        client: bare,
      });
      // Code and id are C-01's (-32010 graded SHOULD in section 5); here the C-26 form of the refusal counts.
      checkEarlyError(c, run, is.type('number'), is.oneOf([run.requestId, null]));
    },
  ],
];

verifies(
  '4.2/stream-errors-before-start',
  'params without message, a role agent or no credential: an error before the stream',
  async (c) => {
    await c.each('each request refused before the stream', REFUSED_BEFORE_START, async ([what, run]) => {
      c.info(what);
      await run(c);
    });
  },
  { concurrent: true, cost: { requests: 1, turns: 0 }, property: { requests: 1, turns: 0, cases: 3 } },
);

/** With the directive contract: `streamError` (docs/directives.md) fails the agent after `submitted`. */
async function lateFailureParts(c: CheckContext): Promise<JsonObject[]> {
  const text = textPart('late failure');
  if (!(await directivesHonoured(c))) return [text];
  return [text, { type: 'text', text: `a2a:directive ${JSON.stringify({ streamError: true })}` }];
}

verifies(
  '4.2/stream-error-after-start',
  'a failure after the start is one error event, then close',
  async (c) => {
    const run = await runStream(c, 'message/stream', messageParams(await lateFailureParts(c)));
    requireEnded(c, run.t);
    const errors = run.t.events.filter((ev) => ev.isError).map((ev) => ev.index);
    if (errors.length === 0 && !(await directivesHonoured(c))) {
      c.notExercised(
        'no failure happened after the stream started; without the a2a:directive contract (streamError) ' +
          'the harness has no black-box way to cause one (task failures are final events, not errors)',
      );
    }
    c.info('events', eventSummary(run.t));
    const last = run.t.events.at(-1);
    c.check('indexes of error events', errors, [run.t.events.length - 1]);
    c.check(
      'events before the error event (the stream had started)',
      errors[0],
      is.where('>= 1', (n) => Number(n) >= 1),
    );
    const error = (last?.json as { error?: { code?: unknown } } | undefined)?.error;
    c.check('error event error.code', error?.code, ERROR_CODES.INTERNAL_ERROR);
    c.check('error event id', (last?.json as { id?: unknown } | undefined)?.id, run.requestId);
    c.check('events after the error event', run.t.afterFinal.length, 0);
    c.check('stream closed by', run.t.closedBy, 'server');
  },
  { concurrent: true, cost: { requests: 1, turns: 1 } },
);
