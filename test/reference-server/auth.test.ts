// Authentication (spec 5; C-01, C-37): either header form, both valid when both sent, Bearer
// case-insensitive, per-agent credentials, 401 + WWW-Authenticate + -32010 with the id echoed.
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../schemas/error-codes.ts';
import { definedHeaders, KEY, KEY_B, type HeaderTable, sendParams, startServer, TOKEN } from './support.ts';

const card = { jsonrpc: '2.0', id: 'auth-1', method: 'agent/authenticatedExtendedCard' };

async function postWith(url: string, headers: HeaderTable, body: unknown = card): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: definedHeaders({ 'content-type': 'application/json', ...headers }),
    body: JSON.stringify(body),
  });
}

describe('5 authentication', () => {
  it('accepts x-api-key and Authorization: Bearer in any scheme case', async () => {
    const h = await startServer();
    for (const headers of [
      { 'x-api-key': KEY },
      { authorization: `Bearer ${TOKEN}` },
      { authorization: `bearer ${TOKEN}` },
      { authorization: `BEARER ${TOKEN}` },
      { 'x-api-key': KEY, authorization: `Bearer ${TOKEN}` },
    ]) {
      const response = await postWith(h.url(), headers);
      expect(response.status, JSON.stringify(headers)).toBe(200);
    }
  });

  it('answers a missing credential with 401, WWW-Authenticate and -32010 reason missing, id echoed', async () => {
    const h = await startServer();
    const response = await postWith(h.url(), {});
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="a2a", ApiKey header="x-api-key"');
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({
      jsonrpc: '2.0',
      id: 'auth-1',
      error: { code: ERROR_CODES.UNAUTHORIZED, message: 'Unauthorized', data: { reason: 'missing' } },
    });
  });

  it('answers invalid credentials with 401 reason invalid', async () => {
    const h = await startServer();
    for (const headers of [
      { 'x-api-key': 'nope' },
      { 'x-api-key': '' },
      { authorization: 'Bearer nope' },
      { authorization: `Basic ${Buffer.from(`u:${KEY}`).toString('base64')}` },
      { authorization: 'Bearer' },
      { authorization: `Bearer ${KEY}` },
      { 'x-api-key': TOKEN },
      { 'x-api-key': KEY, authorization: 'Bearer nope' },
      { 'x-api-key': 'nope', authorization: `Bearer ${TOKEN}` },
    ]) {
      const response = await postWith(h.url(), headers);
      expect(response.status, JSON.stringify(headers)).toBe(401);
      expect(await response.json()).toMatchObject({
        error: { code: ERROR_CODES.UNAUTHORIZED, data: { reason: 'invalid' } },
      });
    }
  });

  it('keeps credentials per agent: a key of agent-b never opens agent-a and vice versa', async () => {
    const h = await startServer();
    expect((await postWith(h.url('agent-a'), { 'x-api-key': KEY_B })).status).toBe(401);
    expect((await postWith(h.url('agent-b'), { 'x-api-key': KEY })).status).toBe(401);
    expect((await postWith(h.url('agent-b'), { 'x-api-key': KEY_B })).status).toBe(200);
  });

  it('performs nothing for an unauthenticated message/send and echoes a readable id', async () => {
    const h = await startServer();
    const send = {
      jsonrpc: '2.0',
      id: 9,
      method: 'message/send',
      params: { ...sendParams('hi'), id: 'unauth-task' },
    };
    const response = await postWith(h.url(), { 'x-api-key': 'nope' }, send);
    expect(await response.json()).toMatchObject({ id: 9, error: { code: ERROR_CODES.UNAUTHORIZED } });
    const get = await h.rpc('tasks/get', { taskId: 'unauth-task' });
    expect(get.error?.code).toBe(ERROR_CODES.TASK_NOT_FOUND);
  });

  it('answers id null when the unauthenticated body is not readable', async () => {
    const h = await startServer();
    const response = await fetch(h.url(), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{oops',
    });
    expect(await response.json()).toMatchObject({ id: null, error: { code: ERROR_CODES.UNAUTHORIZED } });
  });
});
