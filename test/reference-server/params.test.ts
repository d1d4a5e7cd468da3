// Invalid params (spec 2.3-2.6, 4.1, 7; C-14, C-15, C-16, C-22): -32602 with data {details, field}
// naming the exact field, on message/send and message/stream alike.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../schemas/error-codes.ts';
import { AGENT_A, filePart, sendParams, startServer, userMessage, type Harness } from './support.ts';

async function expectField(
  h: Harness,
  method: string,
  params: unknown,
  field: string,
): Promise<Record<string, unknown>> {
  const reply = await h.rpc(method, params);
  expect(reply.status).toBe(200);
  expect(reply.headers.get('content-type')).toBe('application/json');
  expect(reply.error?.code, `${method} ${String(JSON.stringify(params)).slice(0, 120)}`).toBe(
    ERROR_CODES.INVALID_PARAMS,
  );
  expect(reply.error?.data?.field).toBe(field);
  expect(typeof reply.error?.data?.details).toBe('string');
  return reply.error?.data ?? {};
}

const base = (): Record<string, unknown> => userMessage('hello');
const withMessage = (patch: Record<string, unknown>): unknown => ({ message: { ...base(), ...patch } });
const withPart = (part: unknown): unknown => withMessage({ parts: [part] });

const MESSAGE_CASES: Array<[string, unknown, string]> = [
  ['params missing', undefined, 'params'],
  ['message missing', {}, 'message'],
  ['message not an object', { message: 'hi' }, 'message'],
  ['role missing', withMessage({ role: undefined }), 'message.role'],
  ['role agent', withMessage({ role: 'agent' }), 'message.role'],
  ['messageId missing', withMessage({ messageId: undefined }), 'message.messageId'],
  ['messageId not UUID v4', withMessage({ messageId: 'abc' }), 'message.messageId'],
  [
    'messageId UUID v1',
    withMessage({ messageId: 'c232ab00-9414-11ec-b3c8-9f6bdeced846' }),
    'message.messageId',
  ],
  ['messageId a number', withMessage({ messageId: 5 }), 'message.messageId'],
  ['parts missing', withMessage({ parts: undefined }), 'message.parts'],
  ['parts an object', withMessage({ parts: {} }), 'message.parts'],
  ['parts empty', withMessage({ parts: [] }), 'message.parts'],
  ['part not an object', withPart('text'), 'message.parts[0]'],
  ['part type missing', withPart({ text: 'x' }), 'message.parts[0].type'],
  ['part type unknown', withPart({ type: 'data', data: {} }), 'message.parts[0].type'],
  ['text part without text', withPart({ type: 'text' }), 'message.parts[0].text'],
  ['text not a string', withPart({ type: 'text', text: 3 }), 'message.parts[0].text'],
  ['file part without file', withPart({ type: 'file' }), 'message.parts[0].file'],
  [
    'file name missing',
    withPart({ type: 'file', file: { mimeType: 'text/plain', bytes: 'aGk=' } }),
    'message.parts[0].file.name',
  ],
  [
    'file mimeType missing',
    withPart({ type: 'file', file: { name: 'a', bytes: 'aGk=' } }),
    'message.parts[0].file.mimeType',
  ],
  [
    'file bytes missing',
    withPart({ type: 'file', file: { name: 'a', mimeType: 'text/plain' } }),
    'message.parts[0].file.bytes',
  ],
  [
    'data: prefix',
    withPart({
      type: 'file',
      file: { name: 'a', mimeType: 'text/plain', bytes: 'data:text/plain;base64,aGk=' },
    }),
    'message.parts[0].file.bytes',
  ],
  [
    'invalid base64',
    withPart({ type: 'file', file: { name: 'a', mimeType: 'text/plain', bytes: 'a$b=' } }),
    'message.parts[0].file.bytes',
  ],
  [
    'base64 with spaces',
    withPart({ type: 'file', file: { name: 'a', mimeType: 'text/plain', bytes: 'aG k=' } }),
    'message.parts[0].file.bytes',
  ],
  [
    'base64url alphabet',
    withPart({ type: 'file', file: { name: 'a', mimeType: 'text/plain', bytes: '-_8=' } }),
    'message.parts[0].file.bytes',
  ],
  [
    'unsupported mime type',
    withPart({ type: 'file', file: { name: 'a', mimeType: 'video/mp4', bytes: 'aGk=' } }),
    'message.parts[0].file.mimeType',
  ],
  ['contextId not a string', { ...sendParams('x'), contextId: 5 }, 'contextId'],
  ['contextId unknown', { ...sendParams('x'), contextId: randomUUID() }, 'contextId'],
  ['sessionId not a string', { ...sendParams('x'), sessionId: [] }, 'sessionId'],
  ['id not a string', { ...sendParams('x'), id: 12 }, 'id'],
];

describe('4.1 / 4.2 message params (C-14)', () => {
  for (const method of ['message/send', 'message/stream']) {
    it(`${method}: names the exact invalid field`, async () => {
      const h = await startServer();
      for (const [, params, field] of MESSAGE_CASES) await expectField(h, method, params, field);
    });
  }

  it('names the second part when only it is wrong, and reports details for unknown contextId (C-15)', async () => {
    const h = await startServer();
    await expectField(
      h,
      'message/send',
      withMessage({ parts: [{ type: 'text', text: 'ok' }, { type: 'text' }] }),
      'message.parts[1].text',
    );
    const data = await expectField(h, 'message/send', { ...sendParams('x'), contextId: 'nope' }, 'contextId');
    expect(data.details).toBe('unknown contextId');
  });

  it('accepts an empty text, unknown fields and a charset parameter on the MIME type (C-36)', async () => {
    const h = await startServer();
    const file = {
      type: 'file',
      file: { name: 'a.txt', mimeType: 'text/plain; charset=utf-8', bytes: 'aGk=' },
      extra: 1,
    };
    const reply = await h.rpc('message/send', {
      message: { ...userMessage(''), parts: [{ type: 'text', text: '' }, file], x: 1 },
      y: 2,
    });
    expect(reply.error).toBeUndefined();
    expect((reply.result.status as { state: string }).state).toBe('completed');
  });
});

describe('8 limits (C-22)', () => {
  it('counts maxMessageLength in code points across text parts and names the crossing part', async () => {
    const h = await startServer({ agents: [{ ...AGENT_A, limits: { maxMessageLength: 5 } }] });
    const atLimit = await h.rpc('message/send', sendParams('😀😀😀', 'ab'));
    expect(atLimit.error).toBeUndefined();
    const data = await expectField(
      h,
      'message/send',
      sendParams('ab', 'cd', 'ef', 'gh'),
      'message.parts[2].text',
    );
    expect(data).toMatchObject({ limit: 5, actual: 8 });
  });

  it('refuses a file over maxFileSize with {limit, actual} and accepts one at the limit', async () => {
    const h = await startServer({
      agents: [{ ...AGENT_A, capabilities: { fileUpload: { maxFileSize: 10 } } }],
    });
    const ok = await h.rpc(
      'message/send',
      sendParams('f', filePart('a.bin', 'application/octet-stream', Buffer.alloc(10))),
    );
    expect(ok.error).toBeUndefined();
    const params = sendParams('f', filePart('a.bin', 'application/octet-stream', Buffer.alloc(11)));
    const data = await expectField(h, 'message/send', params, 'message.parts[1].file.bytes');
    expect(data).toMatchObject({ limit: 10, actual: 11 });
  });

  it('refuses any file part when fileUpload.supported is false', async () => {
    const h = await startServer({
      agents: [{ ...AGENT_A, capabilities: { fileUpload: { supported: false } } }],
    });
    await expectField(
      h,
      'message/send',
      sendParams('f', filePart('a.txt', 'text/plain', 'hi')),
      'message.parts[1]',
    );
  });

  it('honours wildcard supportedTypes', async () => {
    const h = await startServer({
      agents: [{ ...AGENT_A, capabilities: { fileUpload: { supportedTypes: ['image/*'] } } }],
    });
    expect(
      (await h.rpc('message/send', sendParams(filePart('a.gif', 'image/gif', 'GIF89a')))).error,
    ).toBeUndefined();
    await expectField(
      h,
      'message/send',
      sendParams(filePart('a.txt', 'text/plain', 'x')),
      'message.parts[0].file.mimeType',
    );
  });
});

describe('2.6 client task ids (C-16)', () => {
  it('honours a fresh id and refuses an existing one, per agent', async () => {
    const h = await startServer();
    const first = await h.rpc('message/send', { ...sendParams('one'), id: 'my-task' });
    expect(first.result.id).toBe('my-task');
    const data = await expectField(h, 'message/send', { ...sendParams('two'), id: 'my-task' }, 'id');
    expect(data.details).toBe('task id already exists');
    const other = await h.rpc(
      'message/send',
      { ...sendParams('three'), id: 'my-task' },
      { agentId: 'agent-b' },
    );
    expect(other.result.id).toBe('my-task');
  });
});

describe('4.3-4.8 task and card params', () => {
  it('validates taskId, reason, includeHistory and the card flags', async () => {
    const h = await startServer();
    for (const method of ['tasks/get', 'tasks/cancel', 'tasks/resubscribe']) {
      await expectField(h, method, undefined, 'params');
      await expectField(h, method, {}, 'taskId');
      await expectField(h, method, { taskId: 5 }, 'taskId');
      await expectField(h, method, { taskId: '' }, 'taskId');
    }
    await expectField(h, 'tasks/cancel', { taskId: 't', reason: 5 }, 'reason');
    await expectField(h, 'tasks/resubscribe', { taskId: 't', includeHistory: 'yes' }, 'includeHistory');
    await expectField(h, 'agent/authenticatedExtendedCard', { includeMetrics: 1 }, 'includeMetrics');
    await expectField(
      h,
      'agent/authenticatedExtendedCard',
      { includeCapabilities: 'no' },
      'includeCapabilities',
    );
    await expectField(h, 'agent/authenticatedExtendedCard', [], 'params');
  });
});
