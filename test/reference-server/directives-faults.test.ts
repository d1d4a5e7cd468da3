// The fault fields of the a2a:directive contract (docs/directives.md section 2): `streamable: false`
// (tasks/resubscribe -32004, spec 4.5 and 7), `streamError` (an error event after the stream
// started, C-26) and `internalError` (-32603 before any task exists, C-03).
import { describe, expect, it } from 'vitest';
import { NO_DIRECTIVE, parseDirectives } from '../../reference-server/agent/directives.ts';
import { ERROR_CODES } from '../../schemas/error-codes.ts';
import { detach, directive, openStream, sendParams, startServer, stateOf, waitForState } from './support.ts';

describe('directives.md 2 fault fields: parsing', () => {
  it('defaults to a streamable task without faults and reads the three booleans', () => {
    expect(NO_DIRECTIVE).toMatchObject({ streamable: true, streamError: false, internalError: false });
    const parsed = parseDirectives([
      directive({ streamable: false, streamError: true, internalError: true }),
    ]);
    expect(parsed).toMatchObject({
      ok: true,
      directive: { streamable: false, streamError: true, internalError: true },
    });
  });

  it('refuses non-booleans and streamError with a competing outcome', () => {
    for (const fields of [
      { streamable: 'no' },
      { streamError: 1 },
      { internalError: null },
      { streamError: true, fail: 'x' },
      { streamError: true, runUntilCanceled: true },
    ]) {
      expect(parseDirectives([directive(fields)]).ok, JSON.stringify(fields)).toBe(false);
    }
  });
});

describe('directives.md 2 streamable: false', () => {
  it('answers tasks/resubscribe of the live task with -32004 {taskId, reason}', async () => {
    const h = await startServer();
    const params = { ...sendParams(directive({ streamable: false, runUntilCanceled: true })), id: 'ns-1' };
    detach(h.rpc('message/send', params));
    await waitForState(h, 'ns-1', 'working');
    const reply = await h.rpc('tasks/resubscribe', { taskId: 'ns-1' });
    expect(reply.status).toBe(200);
    expect(reply.error).toMatchObject({
      code: ERROR_CODES.SUBSCRIPTION_FAILED,
      message: 'Subscription failed',
      data: { taskId: 'ns-1', reason: expect.any(String) as unknown },
    });
    await h.rpc('tasks/cancel', { taskId: 'ns-1' });
    const final = await h.rpc('tasks/resubscribe', { taskId: 'ns-1' });
    expect(final.result).toMatchObject({ subscribed: false, final: true, status: { state: 'canceled' } });
  });

  it('leaves message/send unaffected', async () => {
    const h = await startServer();
    const reply = await h.rpc('message/send', sendParams('hi', directive({ streamable: false })));
    expect(stateOf(reply.result)).toBe('completed');
  });
});

describe('directives.md 2 streamError', () => {
  it('sends submitted, then one -32603 error event, closes, and fails the task', async () => {
    const h = await startServer();
    const stream = await openStream(h, 'message/stream', {
      ...sendParams('x', directive({ streamError: true })),
      id: 'se-1',
    });
    expect(await stream.nextEvent()).toMatchObject({
      id: 'stream-1',
      result: { id: 'se-1', status: { state: 'submitted' }, final: false },
    });
    const error = await stream.nextEvent();
    expect(error).toMatchObject({
      jsonrpc: '2.0',
      id: 'stream-1',
      error: { code: ERROR_CODES.INTERNAL_ERROR, message: 'Internal error' },
    });
    expect(error).not.toHaveProperty('result');
    expect((await stream.rest()).replaceAll(': ping\n\n', '')).toBe('');
    await waitForState(h, 'se-1', 'failed');
    const task = await h.rpc('tasks/get', { taskId: 'se-1' });
    expect(task.result.status).toMatchObject({ state: 'failed', error: { code: 'internal_error' } });
  });

  it('fails the task of message/send with internal_error', async () => {
    const h = await startServer();
    const reply = await h.rpc('message/send', sendParams(directive({ streamError: true })));
    expect(reply.result.status).toMatchObject({ state: 'failed', error: { code: 'internal_error' } });
  });
});

describe('directives.md 2 internalError', () => {
  for (const method of ['message/send', 'message/stream']) {
    it(`answers ${method} with -32603 {details}, HTTP 200, and creates no task`, async () => {
      const h = await startServer();
      const params = { ...sendParams('x', directive({ internalError: true })), id: `ie-${method}` };
      const reply = await h.rpc(method, params);
      expect(reply.status).toBe(200);
      expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
      expect(reply.error).toEqual({
        code: ERROR_CODES.INTERNAL_ERROR,
        message: 'Internal error',
        data: { details: expect.any(String) as unknown },
      });
      const get = await h.rpc('tasks/get', { taskId: `ie-${method}` });
      expect(get.error?.code).toBe(ERROR_CODES.TASK_NOT_FOUND);
    });
  }
});
