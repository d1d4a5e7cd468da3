// JSON-RPC envelope handling of the reference server (spec 2.1, 2.2, 7; C-02, C-03, C-11, C-12, C-13).
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../schemas/error-codes.ts';
import { startServer } from './support.ts';

const card = { jsonrpc: '2.0', method: 'agent/authenticatedExtendedCard' };

describe('2.1 request envelope', () => {
  it('answers invalid JSON with -32700, id null, HTTP 200', async () => {
    const h = await startServer();
    for (const body of ['{"jsonrpc":', '', 'not json']) {
      const reply = await h.post(body, { raw: true });
      expect(reply.status).toBe(200);
      expect(reply.headers.get('content-type')).toBe('application/json');
      expect(reply.json).toMatchObject({
        jsonrpc: '2.0',
        id: null,
        error: { code: ERROR_CODES.PARSE_ERROR },
      });
    }
  });

  it('refuses batches, the empty array included, with one -32600 object (C-12)', async () => {
    const h = await startServer();
    for (const body of [
      [],
      [
        { ...card, id: 'a' },
        { ...card, id: 'b' },
      ],
    ]) {
      const reply = await h.post(body);
      expect(reply.status).toBe(200);
      expect(reply.json).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: { code: ERROR_CODES.INVALID_REQUEST, message: 'Invalid Request', data: expect.any(Object) },
      });
    }
  });

  it('answers a request without id with -32600 and id null, performing nothing (C-11)', async () => {
    const h = await startServer();
    const reply = await h.post({ jsonrpc: '2.0', method: 'message/send', params: {} });
    expect(reply.json).toMatchObject({ id: null, error: { code: ERROR_CODES.INVALID_REQUEST } });
    const metrics = await h.rpc('agent/authenticatedExtendedCard', { includeMetrics: true });
    expect((metrics.result.metrics as { successRate: number }).successRate).toBe(0);
  });

  it('echoes string ids exactly and integer ids as numbers (C-13)', async () => {
    const h = await startServer();
    for (const id of ['r-1', '', 'ünïcödé "quoted"', 7, 0, -3, Number.MAX_SAFE_INTEGER]) {
      const reply = await h.post({ ...card, id });
      expect(reply.json.id).toStrictEqual(id);
      expect(reply.json.result).toBeDefined();
    }
  });

  it('refuses null, boolean, object, array and fractional ids with -32600 and id null (C-13)', async () => {
    const h = await startServer();
    for (const id of [null, true, { a: 1 }, [1], 1.5, 2 ** 60]) {
      const reply = await h.post({ ...card, id });
      expect(reply.json).toMatchObject({ id: null, error: { code: ERROR_CODES.INVALID_REQUEST } });
    }
  });

  it('requires jsonrpc "2.0" and a string method, echoing the id', async () => {
    const h = await startServer();
    for (const body of [
      { ...card, id: 'x', jsonrpc: '1.0' },
      { id: 'x', method: 'agent/authenticatedExtendedCard' },
      { jsonrpc: '2.0', id: 'x' },
      { jsonrpc: '2.0', id: 'x', method: 5 },
    ]) {
      const reply = await h.post(body);
      expect(reply.status).toBe(200);
      expect(reply.json).toMatchObject({ id: 'x', error: { code: ERROR_CODES.INVALID_REQUEST } });
    }
  });

  it('answers primitive params with -32600 and array params with -32602 field params', async () => {
    const h = await startServer();
    const primitive = await h.post({ ...card, id: 'p', params: 'abc' });
    expect(primitive.json).toMatchObject({ id: 'p', error: { code: ERROR_CODES.INVALID_REQUEST } });
    const array = await h.post({ ...card, id: 'q', params: [true] });
    expect(array.json).toMatchObject({
      id: 'q',
      error: { code: ERROR_CODES.INVALID_PARAMS, data: { field: 'params' } },
    });
  });

  it('answers an unknown method with -32601 and data.method (C-02)', async () => {
    const h = await startServer();
    const reply = await h.rpc('tasks/list', {});
    expect(reply.status).toBe(200);
    expect(reply.error).toEqual({
      code: ERROR_CODES.METHOD_NOT_FOUND,
      message: 'Method not found',
      data: { method: 'tasks/list' },
    });
  });

  it('ignores unknown envelope and params fields (C-36)', async () => {
    const h = await startServer();
    const reply = await h.post({ ...card, id: 'e', extra: 1, params: { includeMetrics: false, other: 'x' } });
    expect(reply.json).toMatchObject({ id: 'e', result: { agent: { id: 'agent-a' } } });
  });

  it('answers a body that is not UTF-8 with -32700', async () => {
    const h = await startServer();
    const response = await fetch(h.url(), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'test-key-a' },
      body: Buffer.from([0x7b, 0xff, 0xfe, 0x7d]),
    });
    expect(await response.json()).toMatchObject({ id: null, error: { code: ERROR_CODES.PARSE_ERROR } });
  });
});
