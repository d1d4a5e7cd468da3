// 2.1 id member (C-11 request without id, C-13 id types) and batches (C-12), with 2.2's id null when
// the id cannot be read. "Nothing performed" is observed black-box: the refused request asked for a
// task under a fresh client task id (2.6 `id`, C-16), and tasks/get must not find it afterwards.
import { randomUUID } from 'node:crypto';
import { ERROR_CODES, is, SIDE_BY_SIDE, suiteFile, typeOf, verifies } from '../support/index.ts';
import type { AnsweredExchange, CheckContext } from '../support/index.ts';
import { messageParams, textPart } from '../support/messages.ts';
import { CARD, errorOf, requestId, responseOf } from '../support/rpc.ts';

suiteFile({
  cost: { requests: 1, turns: 0 },
  // Each check names its own fresh task id and reads only its own answers.
  concurrent: true,
});

function sendEnvelope(taskId: string): Record<string, unknown> {
  const params = messageParams([textPart('must not run')], { id: taskId });
  return { jsonrpc: '2.0', id: requestId(), method: 'message/send', params };
}

/** JSON-RPC error -32600 with id null, as a single response object on HTTP 200 (C-11, C-12, C-13). */
function expectInvalidRequestNullId(c: CheckContext, ex: AnsweredExchange, label = ''): void {
  const at = label === '' ? '' : `${label}: `;
  c.check(`${at}type of the response body`, typeOf(ex.response.json), 'object');
  c.check(`${at}error.code`, errorOf(ex)?.code, ERROR_CODES.INVALID_REQUEST);
  c.check(`${at}id`, responseOf(ex)?.id, null);
  c.check(`${at}result`, responseOf(ex)?.result, is.absent());
  c.check(`${at}HTTP status`, ex.response.status, 200);
}

/**
 * A message/send of a fresh task id, its envelope sent as `body` makes it: refused with -32600 and id
 * null, and not run (a tasks/get of the task id it named: task not found).
 */
async function expectRefusedNotRun(
  c: CheckContext,
  body: (envelope: Record<string, unknown>) => unknown,
): Promise<void> {
  const taskId = randomUUID();
  const ex = await c.rpc('message/send', undefined, { rawBody: JSON.stringify(body(sendEnvelope(taskId))) });
  expectInvalidRequestNullId(c, ex);
  c.check(
    `tasks/get of the task id the refused request named (${taskId})`,
    errorOf(await c.rpc('tasks/get', { taskId }))?.code,
    ERROR_CODES.TASK_NOT_FOUND,
  );
}

/** The cost of expectRefusedNotRun: the send, then the read. */
const SEND_THEN_READ = { cost: { requests: 2, turns: 0 } };

verifies(
  '2.1/id-required',
  'a message/send without id gets -32600 with id null and creates no task',
  async (c) => {
    await expectRefusedNotRun(c, ({ id: _id, ...notification }) => notification);
  },
  SEND_THEN_READ,
);

/** A small positive integer first: the id a client that counts its requests sends. */
const INTEGER_IDS = [7, 0, -12, 9007199254740991];

verifies(
  '2.1/id-types',
  'an integer id is echoed as the same JSON number',
  async (c) => {
    await c.each(
      'each integer id',
      INTEGER_IDS,
      async (id) => {
        const ex = await c.rpc(CARD, undefined, { id });
        c.check(`id echoed for request id ${id}`, responseOf(ex)?.id, id);
        c.check(`result for request id ${id}`, typeOf(responseOf(ex)?.result), 'object');
      },
      SIDE_BY_SIDE,
    );
  },
  { property: { requests: 1, turns: 0, cases: INTEGER_IDS.length } },
);

const REFUSED_IDS: ReadonlyArray<[string, unknown]> = [
  ['null', null],
  ['true', true],
  ['an object', { a: 1 }],
  ['an array', ['x']],
  ['a fractional number', 1.5],
];

verifies(
  '2.1/id-types',
  'null, boolean, object, array and fractional ids get -32600 with id null',
  async (c) => {
    await c.each(
      'each id type JSON-RPC refuses',
      REFUSED_IDS,
      async ([label, id]) => {
        expectInvalidRequestNullId(c, await c.rpc(CARD, undefined, { id }), `id ${label}`);
      },
      SIDE_BY_SIDE,
    );
  },
  { property: { requests: 1, turns: 0, cases: REFUSED_IDS.length } },
);

verifies(
  '2.1/id-types',
  'a message/send with an object id creates no task',
  async (c) => {
    await expectRefusedNotRun(c, (envelope) => ({ ...envelope, id: {} }));
  },
  SEND_THEN_READ,
);

verifies(
  '2.1/batch-not-supported',
  'a one-element batch gets one -32600 with id null and is not run',
  async (c) => {
    await expectRefusedNotRun(c, (envelope) => [envelope]);
  },
  SEND_THEN_READ,
);

verifies(
  '2.1/batch-not-supported',
  'empty and two-element batches get one -32600 object with id null',
  async (c) => {
    const call = { jsonrpc: '2.0', method: CARD };
    const batches: ReadonlyArray<[string, string]> = [
      ['empty batch []', '[]'],
      [
        'two-element batch',
        JSON.stringify([
          { ...call, id: 'b1' },
          { ...call, id: 'b2' },
        ]),
      ],
    ];
    await c.each(
      'each batch',
      batches,
      async ([label, body]) => {
        expectInvalidRequestNullId(c, await c.rpc(CARD, undefined, { rawBody: body }), label);
      },
      SIDE_BY_SIDE,
    );
  },
  { property: { requests: 1, turns: 0, cases: 2 } },
);

verifies(
  '2.2/id-null-when-unreadable',
  'invalid requests with no readable id are answered with id null',
  async (c) => {
    const cases: Array<[string, () => Promise<AnsweredExchange>]> = [
      ['an array id', () => c.rpc(CARD, undefined, { id: ['unreadable'] })],
      ['a body that is a JSON string', () => c.rpc(CARD, undefined, { rawBody: '"jsonrpc 2.0"' })],
    ];
    await c.each(
      'each request without a readable id',
      cases,
      async ([label, send]) => {
        const ex = await send();
        c.check(`${label}: type of the response body`, typeOf(ex.response.json), 'object');
        c.check(`${label}: error.code`, errorOf(ex)?.code, ERROR_CODES.INVALID_REQUEST);
        c.check(`${label}: id`, responseOf(ex)?.id, null);
      },
      SIDE_BY_SIDE,
    );
  },
  { property: { requests: 1, turns: 0, cases: 2 } },
);
