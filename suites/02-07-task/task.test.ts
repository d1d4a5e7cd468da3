// 2.7 Task: id, status, contextId, final and the timestamps, checked on real results: one
// message/send, the tasks/get of that task, one message/stream (rulings C-35, C-39). The change of
// updatedAt is observed on a task held in `working` by the directive contract (docs/directives.md).
import { isObject } from '../../schemas/json.ts';
import { is, suiteFile, typeOf, verifies, type CheckContext } from '../support/index.ts';
import { directivePart, requireDirectives } from '../support/directives.ts';
import { readTooLate } from '../support/ended-first.ts';
import { messageParams } from '../support/messages.ts';
import { resultOf, type JsonObject } from '../support/rpc.ts';
import { sentAndStreamed, sharedSample } from '../support/samples.ts';
import { checkSchema, checkSchemaWithExtras, requireObject } from '../support/schemas.ts';
import { isRfc3339, timestampTickMs } from '../support/timestamps.ts';
import { sleep } from '../support/timing.ts';

suiteFile({
  cost: { requests: 0, turns: 0 },
  // The shared sample is made once; the updatedAt check holds and cancels a task of its own.
  concurrent: true,
});

const samples = sharedSample(
  'message/send result, its tasks/get result and a message/stream',
  { requests: 7, turns: 3 },
  async (c) => {
    const { send, streamed } = await sentAndStreamed(c, 'task fields sample');
    const get =
      typeof send?.id === 'string' ? resultOf(await c.rpc('tasks/get', { taskId: send.id })) : undefined;
    return { send, get, streamed };
  },
);

/** Results of each kind, requiring the two this file cannot do without. */
async function results(
  c: CheckContext,
): Promise<{ send: JsonObject; get: JsonObject; streamed?: JsonObject[] }> {
  const s = await samples(c);
  const send = requireObject(c, 'message/send result is an object', s.send);
  const get = requireObject(c, 'tasks/get result is an object', s.get);
  return { send, get, ...(s.streamed === undefined ? {} : { streamed: s.streamed }) };
}

function labelled(r: {
  send: JsonObject;
  get: JsonObject;
  streamed?: JsonObject[];
}): Array<[string, JsonObject]> {
  const events = (r.streamed ?? []).map((e, i): [string, JsonObject] => [`message/stream event ${i + 1}`, e]);
  return [['message/send result', r.send], ['tasks/get result', r.get], ...events];
}

verifies('2.7/task-id', 'send, get and stream results carry the task id as a string', async (c) => {
  const r = await results(c);
  for (const [label, task] of labelled(r)) c.check(`${label}: type of id`, typeOf(task.id), 'string');
  c.check('tasks/get result.id equals the requested task', r.get.id, r.send.id);
  const ids = new Set((r.streamed ?? []).map((e) => e.id));
  c.check(
    'distinct task ids across the events of one stream',
    ids.size,
    Math.min(1, r.streamed?.length ?? 0),
  );
});

verifies('2.7/task-status', 'send, get and stream results carry a status object', async (c) => {
  const r = await results(c);
  for (const [label, task] of labelled(r)) c.check(`${label}: type of status`, typeOf(task.status), 'object');
});

verifies(
  '2.7/context-id-in-send-result',
  'a message/send result carries a non-empty string contextId',
  async (c) => {
    const { send } = await results(c);
    c.check('type of contextId', typeOf(send.contextId), 'string');
    c.check('contextId is non-empty', send.contextId !== '', true);
  },
);

verifies(
  '2.7/context-id-in-get-result',
  'tasks/get of a task in a conversation returns its contextId',
  async (c) => {
    const { send, get } = await results(c);
    c.check('type of tasks/get result.contextId', typeOf(get.contextId), 'string');
    c.check('tasks/get result.contextId equals the message/send contextId', get.contextId, send.contextId);
  },
);

verifies(
  '2.7/final-boolean',
  'final is a boolean on send results and stream events, true only last',
  async (c) => {
    const r = await results(c);
    c.check('message/send result: type of final', typeOf(r.send.final), 'boolean');
    // The message/send response is the last one for its task: final true (2.7, 4.1).
    c.check('message/send result: final', r.send.final, true);
    if (r.streamed === undefined) c.info('message/stream not served: stream events not checked');
    (r.streamed ?? []).forEach((e, i, all) => {
      c.check(`message/stream event ${i + 1}: final`, e.final, i === all.length - 1);
    });
  },
);

verifies(
  '2.7/timestamps-iso8601',
  'tasks/get createdAt and updatedAt are RFC 3339 with a time zone',
  async (c) => {
    const { get } = await results(c);
    const rfc3339 = 'an ISO 8601 (RFC 3339) date-time with a time zone';
    for (const field of ['createdAt', 'updatedAt']) {
      c.check(`tasks/get result.${field}`, get[field], is.where(rfc3339, isRfc3339));
    }
  },
);

verifies('2.7/updated-at-present', 'tasks/get carries updatedAt, not before createdAt', async (c) => {
  const { get } = await results(c);
  c.require('type of updatedAt', typeOf(get.updatedAt), 'string');
  c.check(
    'createdAt <= updatedAt',
    { createdAt: get.createdAt, updatedAt: get.updatedAt },
    is.where('createdAt <= updatedAt', (v) => {
      const t = v as { createdAt: unknown; updatedAt: unknown };
      return Date.parse(String(t.createdAt)) <= Date.parse(String(t.updatedAt));
    }),
  );
});

function stateOfTask(task: JsonObject | undefined): unknown {
  return isObject(task?.status) ? task.status.state : undefined;
}

// The task runs until cancelled (no timing window to hit), so the working snapshot is certain.
verifies('2.7/updated-at-present', 'updatedAt moves forward when a working task is cancelled', async (c) => {
  await requireDirectives(c, 'holding a task in working');
  const stream = await c.stream(
    'message/stream',
    messageParams([directivePart({ runUntilCanceled: true })]),
    {
      totalMs: 10_000,
    },
  );
  let taskId: unknown;
  for await (const ev of stream.events()) {
    const result = isObject(ev.json) && isObject(ev.json.result) ? ev.json.result : undefined;
    taskId = result?.id;
    if (stateOfTask(result) === 'working') break;
  }
  c.require('task id from the stream', typeOf(taskId), 'string');
  const working = resultOf(await c.rpc('tasks/get', { taskId }));
  // Read after the task met its system timeout (the read waited on a slow or rate-limited agent).
  const gone =
    stateOfTask(working) === 'working' ? undefined : readTooLate(c, { taskId: String(taskId), stream });
  if (gone !== undefined) {
    await stream.close();
    c.notExercised(`${gone}: no working task was left to cancel`);
  }
  // Let the target's clock move one tick as its timestamps show it (whole seconds are legal, C-39)
  // before the next change, so a later updatedAt is owed.
  const tick = timestampTickMs(working?.createdAt, working?.updatedAt);
  await sleep(tick + 5);
  await c.rpc('tasks/cancel', { taskId, reason: '2.7 updatedAt check' });
  const canceled = resultOf(await c.rpc('tasks/get', { taskId }));
  await stream.close();
  c.check('state while held', stateOfTask(working), 'working');
  c.check('state after tasks/cancel', stateOfTask(canceled), 'canceled');
  const times = { working: working?.updatedAt, canceled: canceled?.updatedAt };
  c.check(
    `updatedAt after the cancel (${tick + 5} ms later) > updatedAt while working`,
    times,
    is.where('canceled later than working', (v) => {
      const t = v as typeof times;
      return Date.parse(String(t.canceled)) > Date.parse(String(t.working));
    }),
  );
});

// The whole result shapes, listed fields and extras together (C-36): each field has its own check
// above, so a schema miss here is reported beside the fields the target added.
verifies(
  '2/extra-fields-tolerated',
  'send, get and stream results validate with their extra fields',
  async (c) => {
    const r = await results(c);
    checkSchemaWithExtras(c, 'send-result', r.send, 'message/send result');
    checkSchema(c, 'tasks-get-result', r.get, 'tasks/get result');
    (r.streamed ?? []).forEach((e, i) =>
      checkSchema(c, 'stream-task', e, `message/stream event ${i + 1} result`),
    );
  },
  { crossSection: 'section 2 applies to every result: graded on each result type' },
);
