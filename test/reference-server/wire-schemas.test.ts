// Self-check of the reference server's wire output against the project's JSON Schemas (spec 2, 4,
// 7; C-36, C-39, C-40, C-45): one response of every method and every error family conforms.
import { describe, expect, it } from 'vitest';
import { validate, type SchemaName } from '../../schemas/registry.ts';
import {
  AGENT_B,
  detach,
  directive,
  filePart,
  sendParams,
  startServer,
  waitForState,
  type Harness,
  type PostInit,
} from './support.ts';

function expectConforms(name: SchemaName, value: unknown): void {
  const outcome = validate(name, value);
  expect(outcome.valid ? [] : outcome.errors, `${name}: ${JSON.stringify(value).slice(0, 300)}`).toEqual([]);
}

async function resultOf(
  h: Harness,
  method: string,
  params?: unknown,
  init?: PostInit,
): Promise<Record<string, unknown>> {
  const reply = await h.rpc(method, params, init);
  expectConforms('jsonrpc-success-response', reply.json);
  return reply.result;
}

describe('2 / 4 results conform to the wire schemas', () => {
  it('message/send (completed, failed, canceled), tasks/get, tasks/cancel, resubscribe, card', async () => {
    const h = await startServer({
      // agent-a ends a held task at once (50 ms); agent-b's task stays working until the test cancels it.
      agents: [{ id: 'agent-a', apiKeys: ['test-key-a'], systemTimeoutMs: 50 }, AGENT_B],
    });
    expectConforms(
      'send-result',
      await resultOf(h, 'message/send', {
        ...sendParams('hi', filePart('a.txt', 'text/plain', 'x')),
        id: 's1',
      }),
    );
    expectConforms('send-result', await resultOf(h, 'message/send', sendParams(directive({ fail: 'boom' }))));
    expectConforms(
      'send-result',
      await resultOf(h, 'message/send', sendParams(directive({ runUntilCanceled: true }))),
    );
    expectConforms('tasks-get-result', await resultOf(h, 'tasks/get', { taskId: 's1' }));
    expectConforms('resubscribe-result', await resultOf(h, 'tasks/resubscribe', { taskId: 's1' }));
    const b = { agentId: 'agent-b' };
    detach(h.rpc('message/send', { ...sendParams(directive({ runUntilCanceled: true })), id: 'c1' }, b));
    await waitForState(h, 'c1', 'working', 'agent-b');
    expectConforms('tasks-get-result', await resultOf(h, 'tasks/get', { taskId: 'c1' }, b));
    expectConforms('cancel-result', await resultOf(h, 'tasks/cancel', { taskId: 'c1' }, b));
    expectConforms(
      'agent-extended-card',
      await resultOf(h, 'agent/authenticatedExtendedCard', { includeMetrics: true }),
    );
  });

  it('every SSE event of message/stream', async () => {
    const h = await startServer();
    const reply = await h.post({
      jsonrpc: '2.0',
      id: 'x',
      method: 'message/stream',
      params: sendParams(directive({ progressSteps: 2 })),
    });
    const frames = reply.text.split('\n\n').filter((frame) => frame.startsWith('data: '));
    expect(frames.length).toBe(5);
    for (const frame of frames) expectConforms('stream-event', JSON.parse(frame.slice(6)));
  });

  it('webhook set and get results', async () => {
    const h = await startServer({ allowPrivateWebhookTargets: true });
    expectConforms(
      'push-config-set-result',
      await resultOf(h, 'tasks/pushNotificationConfig/set', { config: { url: 'http://127.0.0.1:9/hook' } }),
    );
    expectConforms('push-config-get-result', await resultOf(h, 'tasks/pushNotificationConfig/get'));
  });
});

describe('7 error responses conform', () => {
  it('parse, envelope, method, params, task and transport errors', async () => {
    const h = await startServer();
    const bodies: unknown[] = [
      (await h.post('{', { raw: true })).json,
      (await h.post([])).json,
      (await h.rpc('nope')).json,
      (await h.rpc('message/send', {})).json,
      (await h.rpc('tasks/get', { taskId: 'missing' })).json,
      (await h.post({}, { headers: { 'x-api-key': 'bad' } })).json,
      (await h.post({}, { agentId: 'nobody' })).json,
    ];
    for (const body of bodies) expectConforms('jsonrpc-error-response', body);
  });
});
