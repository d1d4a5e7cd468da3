// C-53: an empty string is present but names nothing. An empty text part is valid; an empty
// identifier, name or MIME type is -32602 naming its field; an empty cancel reason is no reason.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../schemas/error-codes.ts';
import {
  detach,
  directive,
  filePart,
  sendParams,
  startServer,
  stateOf,
  userMessage,
  waitForState,
} from './support.ts';

const SET = 'tasks/pushNotificationConfig/set';
const GET = 'tasks/pushNotificationConfig/get';
const HOOK = 'http://127.0.0.1:9/hook';
const file = (fields: Record<string, string>) => ({
  message: userMessage({
    type: 'file',
    file: { name: 'a.txt', mimeType: 'text/plain', bytes: 'aGk=', ...fields },
  }),
});

const REFUSED: ReadonlyArray<[label: string, method: string, params: unknown, field: string]> = [
  ['messageId', 'message/send', { message: { ...userMessage('x'), messageId: '' } }, 'message.messageId'],
  ['role', 'message/send', { message: { ...userMessage('x'), role: '' } }, 'message.role'],
  [
    'part type',
    'message/send',
    { message: { ...userMessage('x'), parts: [{ type: '', text: 'x' }] } },
    'message.parts[0].type',
  ],
  ['file name', 'message/send', file({ name: '' }), 'message.parts[0].file.name'],
  ['file mimeType', 'message/send', file({ mimeType: '' }), 'message.parts[0].file.mimeType'],
  ['contextId', 'message/send', { ...sendParams('x'), contextId: '' }, 'contextId'],
  ['sessionId', 'message/send', { ...sendParams('x'), sessionId: '' }, 'sessionId'],
  ['client task id', 'message/send', { ...sendParams('x'), id: '' }, 'id'],
  ['message/stream contextId', 'message/stream', { ...sendParams('x'), contextId: '' }, 'contextId'],
  ['tasks/get taskId', 'tasks/get', { taskId: '' }, 'taskId'],
  ['tasks/cancel taskId', 'tasks/cancel', { taskId: '' }, 'taskId'],
  ['tasks/resubscribe taskId', 'tasks/resubscribe', { taskId: '' }, 'taskId'],
  ['set taskId', SET, { taskId: '', config: { url: HOOK } }, 'taskId'],
  ['get taskId', GET, { taskId: '' }, 'taskId'],
  ['config.url', SET, { config: { url: '' } }, 'config.url'],
  ['config.secret', SET, { config: { url: HOOK, secret: '' } }, 'config.secret'],
];

describe('C-53 empty strings', () => {
  it.each(REFUSED)(
    'an empty %s is -32602 naming the field, before anything is done',
    async (_l, method, params, field) => {
      const h = await startServer({ allowPrivateWebhookTargets: true });
      const reply = await h.rpc(method, params);
      expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
      expect(reply.error).toMatchObject({ code: ERROR_CODES.INVALID_PARAMS, data: { field } });
      expect(String(reply.error?.data?.details)).toContain(field);
    },
  );

  it('an empty text part is valid: the task completes', async () => {
    const h = await startServer();
    const reply = await h.rpc('message/send', sendParams(''));
    expect(reply.error).toBeUndefined();
    expect(stateOf(reply.result)).toBe('completed');
    const alongside = await h.rpc('message/send', {
      message: userMessage('', filePart('a.txt', 'text/plain', 'hi')),
    });
    expect(stateOf(alongside.result)).toBe('completed');
  });

  it('an empty cancel reason is no reason: the default one (C-34)', async () => {
    const h = await startServer();
    const taskId = randomUUID();
    detach(
      h.rpc('message/send', { ...sendParams('hold', directive({ runUntilCanceled: true })), id: taskId }),
    );
    await waitForState(h, taskId, 'working');
    const canceled = await h.rpc('tasks/cancel', { taskId, reason: '' });
    expect(canceled.result.status).toEqual({ state: 'canceled', reason: 'Canceled by client' });
  });
});
