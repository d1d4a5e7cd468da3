// C-52: the service keeps no memory of request ids. A repeated id, one request after the other or
// both at once, is served as a new request and echoed; a retry's idempotency goes through params.id.
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../schemas/error-codes.ts';
import { directive, sendParams, startServer, stateOf } from './support.ts';

type Reply = { id: unknown; result?: Record<string, unknown>; error?: { code: number } };

describe('C-52 repeated request ids', () => {
  it('serves a repeated id as a new request: two tasks, each answer echoing the id', async () => {
    const h = await startServer();
    const send = async (): Promise<Reply> =>
      (await h.post({ jsonrpc: '2.0', id: 'same', method: 'message/send', params: sendParams('again') }))
        .json as Reply;
    const first = await send();
    const second = await send();
    expect([first.id, second.id]).toEqual(['same', 'same']);
    expect(stateOf(first.result!)).toBe('completed');
    expect(stateOf(second.result!)).toBe('completed');
    expect(second.result!.id).not.toBe(first.result!.id);
  });

  it('answers two requests with one id sent at the same time, each with its own result', async () => {
    const h = await startServer();
    const params = (text: string) => sendParams(text, directive({ delayMs: 150 }));
    const envelope = (text: string) => ({
      jsonrpc: '2.0',
      id: 7,
      method: 'message/send',
      params: params(text),
    });
    const [a, b] = await Promise.all([h.post(envelope('first')), h.post(envelope('second'))]);
    const replies = [a.json as Reply, b.json as Reply];
    expect(replies.map((r) => r.id)).toEqual([7, 7]);
    const texts = replies.map((r) => JSON.stringify((r.result!.status as { message: unknown }).message));
    expect(texts[0]).toContain('first');
    expect(texts[1]).toContain('second');
  });

  it('refuses a repeated params.id instead: the task id is the idempotency key (C-16)', async () => {
    const h = await startServer();
    const first = await h.rpc('message/send', { ...sendParams('once'), id: 'client-task-1' });
    expect(first.result.id).toBe('client-task-1');
    const retry = await h.rpc('message/send', { ...sendParams('once'), id: 'client-task-1' });
    expect(retry.error).toMatchObject({ code: ERROR_CODES.INVALID_PARAMS, data: { field: 'id' } });
  });
});
