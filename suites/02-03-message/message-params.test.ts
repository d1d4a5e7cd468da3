// 2.6 message params: `message` required (C-14), `contextId` optional and checked against the
// contexts the agent issued (C-15), `sessionId` accepted, and a client task `id` honoured once (C-16).
import { randomUUID } from 'node:crypto';
import { is, suiteFile, typeOf, verifies } from '../support/index.ts';
import { expectInvalidParams } from '../support/errors.ts';
import { sendText, textPart } from '../support/messages.ts';
import { errorOf, resultOf } from '../support/rpc.ts';

suiteFile({
  cost: { requests: 2, turns: 1 },
});

verifies(
  '2.6/message-required',
  'message/send params without message get -32602 with details',
  async (c) => {
    expectInvalidParams(c, await c.rpc('message/send', {}), 'message', false);
    expectInvalidParams(
      c,
      await c.rpc('message/send', { sessionId: 's1', parts: [textPart('misplaced')] }),
      'message',
      false,
    );
  },
  { concurrent: true },
);

verifies(
  '2.6/context-id-optional',
  'messages without contextId succeed and each opens its own conversation',
  async (c) => {
    const first = resultOf(await sendText(c, 'first conversation'));
    const second = resultOf(await sendText(c, 'second conversation'));
    c.require('first: type of result.contextId', typeOf(first?.contextId), 'string');
    c.require('second: type of result.contextId', typeOf(second?.contextId), 'string');
    c.check(
      'second contextId differs from the first',
      second!.contextId,
      is.where(`not ${JSON.stringify(first!.contextId)}`, (v) => v !== first!.contextId),
    );
  },
  { concurrent: true },
);

verifies(
  '2.6/unknown-context-id',
  'a contextId the agent never returned gets -32602 naming contextId',
  async (c) => {
    const ex = await sendText(c, 'unknown context', { contextId: `conformance-${randomUUID()}` });
    expectInvalidParams(c, ex, 'contextId', true);
  },
  { concurrent: true },
);

verifies(
  '2.6/session-id-accepted',
  'a message with a string sessionId is accepted',
  async (c) => {
    const ex = await sendText(c, 'with a session', { sessionId: `session-${randomUUID()}` });
    c.check('error', errorOf(ex), is.absent());
    c.check('type of result.id', typeOf(resultOf(ex)?.id), 'string');
  },
  { concurrent: true },
);

verifies(
  '2.6/client-task-id-honoured',
  'a fresh params.id becomes the task id',
  async (c) => {
    const id = randomUUID();
    const sent = resultOf(await sendText(c, 'client task id', { id }));
    c.check('message/send result.id', sent?.id, id);
    const got = resultOf(await c.rpc('tasks/get', { taskId: id }));
    c.check('tasks/get result.id', got?.id, id);
  },
  { concurrent: true },
);

verifies(
  '2.6/duplicate-task-id-rejected',
  'a params.id naming an existing task gets -32602 naming id',
  async (c) => {
    const first = resultOf(await sendText(c, 'original task'));
    c.require('type of the first task id', typeOf(first?.id), 'string');
    const ex = await sendText(c, 'reuses the id', { id: first!.id });
    expectInvalidParams(c, ex, 'id', true);
    // The refused request must leave the original task as it was.
    const got = await c.rpc('tasks/get', { taskId: first!.id });
    c.check('tasks/get of the original: error', errorOf(got), is.absent());
    c.check('tasks/get of the original: contextId', resultOf(got)?.contextId, first!.contextId);
  },
  { concurrent: true },
);
