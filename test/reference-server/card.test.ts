// agent/authenticatedExtendedCard (spec 2.14, 4.8; C-30, C-41, C-46): fields, flags, live metrics,
// and the served method set following the capability flags.
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, METHODS } from '../../schemas/error-codes.ts';
import { AGENT_A, startServer } from './support.ts';

describe('4.8 extended card', () => {
  it('reports agent, capabilities and limits with the documented defaults, without metrics', async () => {
    const h = await startServer();
    const reply = await h.rpc('agent/authenticatedExtendedCard');
    expect(reply.result).toEqual({
      agent: {
        id: 'agent-a',
        name: 'agent-a',
        description: expect.any(String),
        version: '1.0.0',
        type: 'workflow',
        status: 'active',
      },
      capabilities: {
        supportedMethods: [...METHODS],
        fileUpload: {
          supported: true,
          maxFileSize: 5242880,
          supportedTypes: [
            'text/plain',
            'application/json',
            'image/png',
            'application/pdf',
            'application/octet-stream',
          ],
        },
        streaming: true,
        multiTurn: true,
        webhooks: true,
      },
      limits: {
        requestsPerMinute: 600,
        concurrentTasks: 4,
        maxMessageLength: 100000,
        systemTimeoutMs: 300000,
      },
    });
  });

  it('omits capabilities when includeCapabilities is false and adds live metrics on request (C-30)', async () => {
    const h = await startServer();
    await h.rpc('tasks/get', { taskId: 'missing' });
    await h.rpc('agent/authenticatedExtendedCard');
    const reply = await h.rpc('agent/authenticatedExtendedCard', {
      includeCapabilities: false,
      includeMetrics: true,
    });
    expect(Object.keys(reply.result).sort()).toEqual(['agent', 'limits', 'metrics']);
    const metrics = reply.result.metrics as {
      totalRequests: number;
      averageResponseTime: number;
      successRate: number;
    };
    expect(metrics.totalRequests).toBe(2);
    expect(metrics.successRate).toBe(50);
    expect(metrics.averageResponseTime).toBeGreaterThanOrEqual(0);
    const later = await h.rpc('agent/authenticatedExtendedCard', { includeMetrics: true });
    expect((later.result.metrics as { totalRequests: number }).totalRequests).toBe(3);
  });

  it('reports configured identity and serves exactly the configured methods (C-41)', async () => {
    const h = await startServer({
      agents: [
        {
          ...AGENT_A,
          name: 'Echo',
          type: 'llm',
          status: 'maintenance',
          version: '2.3.4',
          capabilities: { supportedMethods: ['message/send', 'agent/authenticatedExtendedCard'] },
        },
      ],
    });
    const card = (await h.rpc('agent/authenticatedExtendedCard')).result;
    expect(card.agent).toMatchObject({ name: 'Echo', type: 'llm', status: 'maintenance', version: '2.3.4' });
    expect((card.capabilities as { supportedMethods: string[] }).supportedMethods).toEqual([
      'message/send',
      'agent/authenticatedExtendedCard',
    ]);
    const unlisted = await h.rpc('tasks/get', { taskId: 'x' });
    expect(unlisted.error).toMatchObject({
      code: ERROR_CODES.METHOD_NOT_FOUND,
      data: { method: 'tasks/get' },
    });
  });

  it('drops the webhook methods when webhooks is false', async () => {
    const h = await startServer({ agents: [{ ...AGENT_A, capabilities: { webhooks: false } }] });
    const card = (await h.rpc('agent/authenticatedExtendedCard')).result;
    const methods = (card.capabilities as { supportedMethods: string[] }).supportedMethods;
    expect(methods).not.toContain('tasks/pushNotificationConfig/set');
    expect(methods).toHaveLength(6);
    for (const method of ['tasks/pushNotificationConfig/set', 'tasks/pushNotificationConfig/get']) {
      expect((await h.rpc(method, { config: { url: 'https://example.com/hook' } })).error?.code).toBe(
        ERROR_CODES.METHOD_NOT_FOUND,
      );
    }
  });
});
