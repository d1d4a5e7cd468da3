// The mutant proxy: with no hook it relays JSON-RPC answers and SSE streams unchanged; its hooks
// rewrite a JSON answer per method, each SSE event as it passes, and the response head.
import { afterEach, describe, expect, it } from 'vitest';
import { startMutant } from '../../mutants/proxy.ts';
import type { MutantTarget } from '../../mutants/types.ts';

let target: MutantTarget | undefined;
afterEach(async () => {
  await target?.close();
  target = undefined;
});

async function post(t: MutantTarget, method: string, params: unknown): Promise<Response> {
  return fetch(`${t.baseUrl}/api/v1/a2a/${t.agentId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': t.apiKey },
    body: JSON.stringify({ jsonrpc: '2.0', id: 'r1', method, params }),
  });
}

const message = (text: string) => ({
  message: {
    role: 'user',
    messageId: '6f1f7a52-3d5c-4d7e-9b1a-2c3d4e5f6a7b',
    parts: [{ type: 'text', text }],
  },
});

function dataEvents(text: string): Array<{ result: { status: { state: string }; final: boolean } }> {
  return text
    .split('\n\n')
    .filter((f) => f.startsWith('data: '))
    .map((f) => JSON.parse(f.slice(6)));
}

describe('mutant proxy', () => {
  it('relays a JSON answer and an SSE stream unchanged when no hook is given', async () => {
    target = await startMutant();
    const sent = await post(target, 'message/send', message('hello'));
    expect(sent.status).toBe(200);
    const body = (await sent.json()) as { id: string; result: { status: { state: string } } };
    expect([body.id, body.result.status.state]).toEqual(['r1', 'completed']);
    const streamed = await post(target, 'message/stream', message('hello'));
    expect(streamed.headers.get('content-type')).toBe('text/event-stream');
    expect(dataEvents(await streamed.text()).map((e) => [e.result.status.state, e.result.final])).toEqual([
      ['submitted', false],
      ['working', false],
      ['completed', true],
    ]);
  });

  it('applies the json, sseEvent and head hooks', async () => {
    target = await startMutant({
      json: { 'tasks/get': (b) => void (b.error.code = 1) },
      sseEvent: (p) => (p.result.status.state === 'working' ? '' : undefined),
      head: (h) => void (h.headers['x-mutant'] = 'yes'),
    });
    const got = (await (await post(target, 'tasks/get', { taskId: 'none' })).json()) as {
      error: { code: number };
    };
    expect(got.error.code).toBe(1);
    const streamed = await post(target, 'message/stream', message('hi'));
    expect(streamed.headers.get('x-mutant')).toBe('yes');
    expect(dataEvents(await streamed.text()).map((e) => e.result.status.state)).toEqual([
      'submitted',
      'completed',
    ]);
  });
});
