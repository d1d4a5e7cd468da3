// The pieces of the legal variants: other JSON texts of the same value parse back to it, split SSE
// frames and chunked JSON arrive whole, and opaque ids are mapped both ways (a task found again by
// its opaque id, a client-chosen id left alone), in answers and streams alike.
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { heavyEscape, stringifyWith } from '../../mutants/legal-kit.ts';
import { loadLegalVariants } from '../../mutants/legal-run.ts';
import type { MutantTarget } from '../../mutants/types.ts';
import { createTargetClient } from '../../harness/io/target/target-client.ts';

let target: MutantTarget | undefined;
afterEach(async () => {
  await target?.close();
  target = undefined;
});

const variants = await loadLegalVariants();
async function start(name: string): Promise<MutantTarget> {
  const v = variants.find((x) => x.name === name);
  if (v === undefined) throw new Error(`no legal variant ${name}`);
  target = await v.start();
  return target;
}

async function post(t: MutantTarget, method: string, params: unknown): Promise<Response> {
  return fetch(`${t.baseUrl}/api/v1/a2a/${t.agentId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': t.apiKey },
    body: JSON.stringify({ jsonrpc: '2.0', id: 'r1', method, params }),
  });
}

const message = (text: string, extra: object = {}) => ({
  ...extra,
  message: {
    role: 'user',
    messageId: '6f1f7a52-3d5c-4d7e-9b1a-2c3d4e5f6a7b',
    parts: [{ type: 'text', text }],
  },
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('legal-kit', () => {
  it('stringifyWith(heavyEscape) is another JSON text of the same value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const text = stringifyWith(v, heavyEscape, ' ');
        expect(text).not.toMatch(/[^\x20-\x7e]/);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(v)));
      }),
      { numRuns: 200 },
    );
  });

  it('ids-task-opaque: the task id is opaque, found again by tasks/get, in the stream too', async () => {
    const t = await start('ids-task-opaque');
    const sent = (await (await post(t, 'message/send', message('hi'))).json()) as { result: { id: string } };
    expect(sent.result.id).toMatch(/^tsk_/);
    const got = (await (await post(t, 'tasks/get', { taskId: sent.result.id })).json()) as {
      result: { id: string; status: { state: string } };
    };
    expect([got.result.id, got.result.status.state]).toEqual([sent.result.id, 'completed']);
    const streamed = await (await post(t, 'message/stream', message('hi'))).text();
    const ids = [...streamed.matchAll(/"result":\{"id":"([^"]+)"/g)].map((m) => m[1]);
    expect(ids.length).toBe(3);
    expect(new Set(ids).size).toBe(1);
    expect(ids[0]).toMatch(/^tsk_/);
  });

  it('ids-task-opaque: a client-chosen task id (C-16) comes back as sent', async () => {
    const t = await start('ids-task-opaque');
    const id = '0b6e3c1a-1111-4222-8333-444455556666';
    const sent = (await (await post(t, 'message/send', message('hi', { id }))).json()) as {
      result: { id: string };
    };
    expect(sent.result.id).toBe(id);
  });

  it('ids-context-opaque: a context id continues a conversation by its opaque form', async () => {
    const t = await start('ids-context-opaque');
    const first = (await (await post(t, 'message/send', message('one'))).json()) as {
      result: { contextId: string };
    };
    expect(first.result.contextId).toMatch(/^conversation:\d+$/);
    expect(first.result.contextId).not.toMatch(UUID);
    const next = (await (
      await post(t, 'message/send', message('two', { contextId: first.result.contextId }))
    ).json()) as { result?: { contextId: string }; error?: unknown };
    expect(next.error).toBeUndefined();
    expect(next.result?.contextId).toBe(first.result.contextId);
  });

  it('json-chunked-transfer: the answer comes without Content-Length and parses whole', async () => {
    const t = await start('json-chunked-transfer');
    const res = await post(t, 'tasks/get', { taskId: 'unknown-task' });
    expect(res.headers.get('content-length')).toBeNull();
    expect(res.headers.get('transfer-encoding')).toBe('chunked');
    expect(((await res.json()) as { error: { code: number } }).error.code).toBe(-32000);
  });

  it('sse-events-split-across-reads: the pieces make the same three events', async () => {
    const t = await start('sse-events-split-across-reads');
    const text = await (await post(t, 'message/stream', message('héllo'))).text();
    const states = text
      .split('\n\n')
      .filter((f) => f.startsWith('data: '))
      .map((f) => (JSON.parse(f.slice(6)) as { result: { status: { state: string } } }).result.status.state);
    expect(states).toEqual(['submitted', 'working', 'completed']);
  });

  it('base-url-under-path: the agent answers under /gw/a2a only; the gateway answers 404 elsewhere', async () => {
    const t = await start('base-url-under-path');
    expect(t.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/gw\/a2a$/);
    const ok = await post(t, 'tasks/get', { taskId: 'nope' });
    expect(((await ok.json()) as { error: { code: number } }).error.code).toBe(-32000);
    const outside = await fetch(`${new URL(t.baseUrl).origin}/api/v1/a2a/${t.agentId}`, { method: 'POST' });
    expect([outside.status, outside.headers.get('content-type')]).toEqual([404, 'text/plain']);
    await t.close();
    target = undefined;
    const trailing = await start('base-url-under-path-trailing-slash');
    expect(trailing.baseUrl.endsWith('/gw/a2a/')).toBe(true);
  });

  it('base-url-under-path-whole-path-in-errors: data.path names the whole request path', async () => {
    const t = await start('base-url-under-path-whole-path-in-errors');
    const res = await fetch(`${t.baseUrl}/api/v1/nowhere`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': t.apiKey },
      body: '{}',
    });
    expect(((await res.json()) as { error: { data: { path: string } } }).error.data.path).toBe(
      '/agents/v3/api/v1/nowhere',
    );
  });

  it.each([
    ['answers-gzip', 'gzip', 'gzip'],
    ['streams-br-answers-deflate', 'deflate', 'br'],
  ])('%s: JSON answers in %s and SSE streams in %s, read whole by the harness', async (name, json, sse) => {
    const t = await start(name);
    const client = createTargetClient({ baseUrl: t.baseUrl, agentId: t.agentId, auth: { apiKey: t.apiKey } });
    try {
      const ex = await client.rpc('message/send', message('hi'));
      expect(ex.response?.headers['content-encoding']).toBe(json);
      expect((ex.response?.json as { result: { status: { state: string } } }).result.status.state).toBe(
        'completed',
      );
      const stream = await (await client.stream('message/stream', message('hi'))).done;
      expect(stream.headers['content-encoding']).toBe(sse);
      expect(stream.events.map((e) => e.isFinal)).toEqual([false, false, true]);
    } finally {
      await client.close();
    }
  });
});
