// tasks/pushNotificationConfig/set and /get of the reference webhook service (spec 2.11-2.13, 4.6,
// 4.7; rulings C-17, C-18, C-19, C-29, C-42): validation fields, scopes, replace, bounds, get shape.
import { afterEach, describe, expect, it } from 'vitest';
import { createWebhookService, type WebhookService } from '../../../reference-server/webhooks/index.ts';
import { WEBHOOK_EVENTS } from '../../../schemas/error-codes.ts';
import { validate } from '../../../schemas/registry.ts';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const URL_OK = 'https://hooks.example.com/a2a';
const anyTask = () => true;

let service: WebhookService;
const make = (extra: Partial<Parameters<typeof createWebhookService>[0]> = {}) =>
  (service = createWebhookService({
    userAgent: 'A2A-Reference-Webhook/test',
    allowPrivateTargets: false,
    ...extra,
  }));
afterEach(() => service?.close());

const setWith = async (config: unknown, taskId?: unknown) =>
  await service.setConfig('agent-1', taskId === undefined ? { config } : { config, taskId }, anyTask);

describe('2.11 / C-18 / C-19 set validation: -32602 naming the exact field', () => {
  const cases: Array<[string, unknown, string]> = [
    ['config missing', undefined, 'config'],
    ['config not an object', 'x', 'config'],
    ['config an array', [URL_OK], 'config'],
    ['url missing', {}, 'config.url'],
    ['url not a string', { url: 42 }, 'config.url'],
    ['url relative', { url: '/hook' }, 'config.url'],
    ['url ftp scheme', { url: 'ftp://example.com/x' }, 'config.url'],
    ['url javascript scheme', { url: 'javascript:alert(1)' }, 'config.url'],
    ['url with credentials', { url: 'https://user:pw@hooks.example.com/' }, 'config.url'],
    ['headers not an object', { url: URL_OK, headers: ['a'] }, 'config.headers'],
    ['header value not a string', { url: URL_OK, headers: { 'X-Token': 5 } }, 'config.headers.X-Token'],
    ['header value with CRLF', { url: URL_OK, headers: { 'X-A': 'a\r\nInjected: 1' } }, 'config.headers.X-A'],
    ['header name not a token', { url: URL_OK, headers: { 'Bad Name': 'v' } }, 'config.headers.Bad Name'],
    [
      'reserved Content-Type',
      { url: URL_OK, headers: { 'content-type': 'text/plain' } },
      'config.headers.content-type',
    ],
    [
      'reserved Content-Length',
      { url: URL_OK, headers: { 'Content-Length': '1' } },
      'config.headers.Content-Length',
    ],
    ['reserved Host', { url: URL_OK, headers: { Host: 'evil' } }, 'config.headers.Host'],
    ['reserved User-Agent', { url: URL_OK, headers: { 'User-Agent': 'x' } }, 'config.headers.User-Agent'],
    [
      'reserved X-Webhook-*',
      { url: URL_OK, headers: { 'x-webhook-signature': 'x' } },
      'config.headers.x-webhook-signature',
    ],
    [
      'hop-by-hop header',
      { url: URL_OK, headers: { 'Transfer-Encoding': 'chunked' } },
      'config.headers.Transfer-Encoding',
    ],
    ['duplicate header names', { url: URL_OK, headers: { 'X-A': '1', 'x-a': '2' } }, 'config.headers.x-a'],
    ['events not an array', { url: URL_OK, events: 'task.completed' }, 'config.events'],
    ['events empty', { url: URL_OK, events: [] }, 'config.events'],
    [
      'unknown event at index 1',
      { url: URL_OK, events: ['task.completed', 'task.done'] },
      'config.events[1]',
    ],
    ['non-string event', { url: URL_OK, events: [7] }, 'config.events[0]'],
    ['retryPolicy not an object', { url: URL_OK, retryPolicy: 3 }, 'config.retryPolicy'],
    [
      'maxRetries fractional',
      { url: URL_OK, retryPolicy: { maxRetries: 1.5 } },
      'config.retryPolicy.maxRetries',
    ],
    ['maxRetries > 10', { url: URL_OK, retryPolicy: { maxRetries: 11 } }, 'config.retryPolicy.maxRetries'],
    ['maxRetries < 0', { url: URL_OK, retryPolicy: { maxRetries: -1 } }, 'config.retryPolicy.maxRetries'],
    [
      'multiplier < 1',
      { url: URL_OK, retryPolicy: { backoffMultiplier: 0.5 } },
      'config.retryPolicy.backoffMultiplier',
    ],
    [
      'multiplier a string',
      { url: URL_OK, retryPolicy: { backoffMultiplier: '2' } },
      'config.retryPolicy.backoffMultiplier',
    ],
    ['initialDelay 0', { url: URL_OK, retryPolicy: { initialDelay: 0 } }, 'config.retryPolicy.initialDelay'],
    [
      'initialDelay > 3600',
      { url: URL_OK, retryPolicy: { initialDelay: 3601 } },
      'config.retryPolicy.initialDelay',
    ],
    ['secret empty', { url: URL_OK, secret: '' }, 'config.secret'],
    ['secret not a string', { url: URL_OK, secret: 1234 }, 'config.secret'],
  ];
  it.each(cases)('%s -> field %s', async (_name, config, field) => {
    make();
    const outcome = await setWith(config);
    expect(outcome).toEqual({
      ok: false,
      error: { code: -32602, message: 'Invalid params', data: { details: expect.any(String), field } },
    });
  });

  it('params not an object -> field params; taskId not a string -> field taskId', async () => {
    make();
    expect(await service.setConfig('agent-1', 'x', anyTask)).toMatchObject({
      ok: false,
      error: { data: { field: 'params' } },
    });
    expect(await setWith({ url: URL_OK }, 12)).toMatchObject({
      ok: false,
      error: { code: -32602, data: { field: 'taskId' } },
    });
  });

  it('accepts the boundary values of retryPolicy and ignores unknown fields (C-36)', async () => {
    make();
    const retryPolicy = { maxRetries: 10, backoffMultiplier: 10, initialDelay: 3600 };
    expect((await await setWith({ url: 'http://hooks.example.com/', retryPolicy, extra: true })).ok).toBe(
      true,
    );
    expect(
      (
        await setWith({
          url: URL_OK,
          retryPolicy: { maxRetries: 0, backoffMultiplier: 1, initialDelay: 0.001 },
        })
      ).ok,
    ).toBe(true);
  });
});

describe('2.12 set result and C-17 scopes', () => {
  it('returns configured, a UUID v4 configId, the url and the effective events (all five by default)', async () => {
    make();
    const outcome = await setWith({ url: URL_OK });
    expect(outcome).toEqual({
      ok: true,
      result: {
        configured: true,
        configId: expect.stringMatching(UUID_V4),
        url: URL_OK,
        events: [...WEBHOOK_EVENTS],
      },
    });
  });

  it('C-18 collapses duplicate events, keeping first-occurrence order', async () => {
    make();
    const events = ['task.failed', 'task.completed', 'task.failed'];
    expect(await setWith({ url: URL_OK, events })).toMatchObject({
      result: { events: ['task.failed', 'task.completed'] },
    });
  });

  it('unknown taskId -> -32000 with {taskId, suggestion}', async () => {
    make();
    const outcome = await service.setConfig(
      'agent-1',
      { config: { url: URL_OK }, taskId: 'nope' },
      (id) => id === 'known',
    );
    expect(outcome).toEqual({
      ok: false,
      error: {
        code: -32000,
        message: 'Task not found',
        data: { taskId: 'nope', suggestion: expect.any(String) },
      },
    });
  });

  it('validation errors win over an unknown taskId', async () => {
    make();
    const outcome = await service.setConfig(
      'agent-1',
      { config: { url: 'nope' }, taskId: 'nope' },
      () => false,
    );
    expect(outcome).toMatchObject({ ok: false, error: { code: -32602, data: { field: 'config.url' } } });
  });

  it('a set on the same scope replaces the config with a new configId; get follows it', async () => {
    make();
    const first = await setWith({ url: URL_OK });
    const second = await setWith({ url: 'https://other.example.com/h', events: ['task.completed'] });
    if (!first.ok || !second.ok) throw new Error('set failed');
    expect(second.result.configId).not.toBe(first.result.configId);
    expect(await service.getConfig('agent-1', undefined)).toMatchObject({
      result: {
        configId: second.result.configId,
        config: { url: 'https://other.example.com/h', events: ['task.completed'] },
      },
    });
  });

  it('get returns exactly the requested scope, never falling back to the agent-level config', async () => {
    make();
    const agentLevel = await setWith({ url: URL_OK });
    const taskLevel = await setWith({ url: 'https://task.example.com/h' }, 't1');
    if (!agentLevel.ok || !taskLevel.ok) throw new Error('set failed');
    expect(await service.getConfig('agent-1', {})).toMatchObject({
      result: { configId: agentLevel.result.configId },
    });
    expect(await service.getConfig('agent-1', { taskId: 't1' })).toMatchObject({
      result: { configId: taskLevel.result.configId },
    });
    expect(await service.getConfig('agent-1', { taskId: 't2' })).toEqual({
      ok: true,
      result: { config: null, configId: null, active: false },
    });
    expect(await service.getConfig('agent-2', undefined)).toEqual({
      ok: true,
      result: { config: null, configId: null, active: false },
    });
  });

  it('C-42 bounds task-level configs per agent; replacing one and other agents are unaffected', async () => {
    make({ maxTaskConfigsPerAgent: 2 });
    expect((await await setWith({ url: URL_OK }, 't1')).ok).toBe(true);
    expect((await await setWith({ url: URL_OK }, 't2')).ok).toBe(true);
    expect(await setWith({ url: URL_OK }, 't3')).toMatchObject({
      ok: false,
      error: { code: -32602, data: { field: 'taskId' } },
    });
    expect((await await setWith({ url: URL_OK }, 't1')).ok).toBe(true);
    expect((await await setWith({ url: URL_OK })).ok).toBe(true);
    expect((await service.setConfig('agent-2', { config: { url: URL_OK }, taskId: 't3' }, anyTask)).ok).toBe(
      true,
    );
    service.forgetTask('agent-1', 't2');
    expect((await await setWith({ url: URL_OK }, 't3')).ok).toBe(true);
  });
});

describe('2.13 / C-29 get result', () => {
  it('has url, effective events, effective retryPolicy, createdAt, lastUsed null; never secret or headers', async () => {
    make();
    await await setWith({
      url: URL_OK,
      secret: 's3cret',
      headers: { Authorization: 'Bearer x' },
      retryPolicy: { maxRetries: 5 },
    });
    const outcome = await service.getConfig('agent-1', undefined);
    expect(outcome).toEqual({
      ok: true,
      result: {
        config: {
          url: URL_OK,
          events: [...WEBHOOK_EVENTS],
          retryPolicy: { maxRetries: 5, backoffMultiplier: 2, initialDelay: 1 },
          createdAt: expect.stringMatching(ISO),
          lastUsed: null,
        },
        configId: expect.stringMatching(UUID_V4),
        active: true,
      },
    });
    expect(outcome.ok && validate('push-config-get-result', outcome.result)).toEqual({ valid: true });
    const empty = await service.getConfig('agent-1', { taskId: 'none' });
    expect(empty.ok && validate('push-config-get-result', empty.result)).toEqual({ valid: true });
    expect(JSON.stringify(outcome)).not.toMatch(/s3cret|Bearer|headers|secret/);
  });

  it('invalid get params -> -32602 (taskId not a string, params not an object)', async () => {
    make();
    expect(await service.getConfig('agent-1', { taskId: 3 })).toMatchObject({
      ok: false,
      error: { code: -32602, data: { field: 'taskId' } },
    });
    expect(await service.getConfig('agent-1', [1])).toMatchObject({
      ok: false,
      error: { code: -32602, data: { field: 'params' } },
    });
  });
});
