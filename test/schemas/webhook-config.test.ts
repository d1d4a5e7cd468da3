// Field tables 2.11 (webhook configuration input with the C-18/C-19 rules), 2.12 (set result) and
// 2.13 (get result: null when unconfigured, never the secret or headers, C-29).
import { describe, it } from 'vitest';
import {
  TS,
  expectCase,
  expectIssue,
  expectOnly,
  expectValid,
  storedConfig,
  webhookConfig,
  type InvalidCase,
} from './fixtures.ts';

describe('2.11 Webhook configuration input', () => {
  it('2.11 accepts a full configuration, the url alone, http URLs and range bounds', () => {
    expectValid('webhook-config-input', webhookConfig());
    expectValid('webhook-config-input', { url: 'http://127.0.0.1:8080/hook?x=1' });
    const bounds = { maxRetries: 0, backoffMultiplier: 1, initialDelay: 3600 };
    expectValid('webhook-config-input', { url: 'https://a.test', retryPolicy: bounds });
    expectValid('webhook-config-input', {
      url: 'https://a.test',
      retryPolicy: { maxRetries: 10, backoffMultiplier: 10 },
    });
    expectValid('webhook-config-input', { url: 'https://a.test', events: ['task.failed', 'task.failed'] });
    expectValid('push-config-set-params', { config: webhookConfig(), taskId: 't1' });
  });

  const cases: InvalidCase[] = [
    { rule: 'url is required', mutate: (c) => delete c.url, path: 'url', keyword: 'required' },
    {
      rule: 'url is http or https',
      mutate: (c) => (c.url = 'ftp://a.test/x'),
      path: 'url',
      keyword: 'pattern',
    },
    { rule: 'url has a host', mutate: (c) => (c.url = 'https:///x'), path: 'url', keyword: 'pattern' },
    {
      rule: 'headers values are strings',
      mutate: (c) => (c.headers.n = 1),
      path: 'headers.n',
      keyword: 'type',
    },
    { rule: 'headers is an object', mutate: (c) => (c.headers = ['a']), path: 'headers', keyword: 'type' },
    {
      rule: 'events is an array',
      mutate: (c) => (c.events = 'task.failed'),
      path: 'events',
      keyword: 'type',
    },
    {
      rule: 'events is not empty (C-18)',
      mutate: (c) => (c.events = []),
      path: 'events',
      keyword: 'minItems',
    },
    {
      rule: 'events are the five names (C-18)',
      mutate: (c) => (c.events = ['task.completed', 'task.done']),
      path: 'events[1]',
      keyword: 'enum',
    },
    {
      rule: 'maxRetries is an integer',
      mutate: (c) => (c.retryPolicy.maxRetries = 1.5),
      path: 'retryPolicy.maxRetries',
      keyword: 'type',
    },
    {
      rule: 'maxRetries is at most 10',
      mutate: (c) => (c.retryPolicy.maxRetries = 11),
      path: 'retryPolicy.maxRetries',
      keyword: 'maximum',
    },
    {
      rule: 'maxRetries is at least 0',
      mutate: (c) => (c.retryPolicy.maxRetries = -1),
      path: 'retryPolicy.maxRetries',
      keyword: 'minimum',
    },
    {
      rule: 'backoffMultiplier is at least 1',
      mutate: (c) => (c.retryPolicy.backoffMultiplier = 0.5),
      path: 'retryPolicy.backoffMultiplier',
      keyword: 'minimum',
    },
    {
      rule: 'backoffMultiplier is at most 10',
      mutate: (c) => (c.retryPolicy.backoffMultiplier = 11),
      path: 'retryPolicy.backoffMultiplier',
      keyword: 'maximum',
    },
    {
      rule: 'initialDelay is greater than 0',
      mutate: (c) => (c.retryPolicy.initialDelay = 0),
      path: 'retryPolicy.initialDelay',
      keyword: 'exclusiveMinimum',
    },
    {
      rule: 'initialDelay is at most 3600 seconds',
      mutate: (c) => (c.retryPolicy.initialDelay = 3601),
      path: 'retryPolicy.initialDelay',
      keyword: 'maximum',
    },
    { rule: 'secret is not empty', mutate: (c) => (c.secret = ''), path: 'secret', keyword: 'minLength' },
    { rule: 'secret is a string', mutate: (c) => (c.secret = 42), path: 'secret', keyword: 'type' },
  ];
  for (const c of cases)
    it(`2.11 refuses: ${c.rule}`, () => expectCase('webhook-config-input', webhookConfig, c));

  it('2.11 url is absolute (reported by format and by the scheme pattern)', () => {
    expectIssue('webhook-config-input', { url: '/hook' }, 'url', 'format');
    expectIssue('webhook-config-input', { url: '/hook' }, 'url', 'pattern');
  });

  it('2.11 header names are HTTP tokens (the name is the last path segment)', () => {
    expectIssue(
      'webhook-config-input',
      { url: 'https://a.test', headers: { 'bad name': 'x' } },
      'headers.bad name',
      'pattern',
    );
  });

  it('2.11 headers may not override the service headers, whatever their case (C-19)', () => {
    for (const name of [
      'Content-Type',
      'content-length',
      'HOST',
      'User-Agent',
      'X-Webhook-Signature',
      'x-webhook-foo',
    ]) {
      expectIssue(
        'webhook-config-input',
        { url: 'https://a.test', headers: { [name]: 'v' } },
        `headers.${name}`,
        'propertyNames',
      );
    }
    expectValid('webhook-config-input', {
      url: 'https://a.test',
      headers: { 'X-Webhooks': 'v', Hosting: 'v' },
    });
  });

  it('2.11 the set params need a config, and report its fields under config', () => {
    expectOnly('push-config-set-params', { taskId: 't1' }, 'config', 'required');
    expectOnly(
      'push-config-set-params',
      { config: { url: 'https://a.test', events: [] } },
      'config.events',
      'minItems',
    );
    expectOnly('push-config-set-params', { config: webhookConfig(), taskId: 3 }, 'taskId', 'type');
    expectValid('push-config-get-params', {});
    expectOnly('push-config-get-params', { taskId: false }, 'taskId', 'type');
  });
});

describe('2.12 Webhook configuration result (set)', () => {
  const set = () => ({
    configured: true,
    configId: 'cfg-1',
    url: 'https://a.test/hook',
    events: ['task.completed'],
  });

  it('2.12 accepts a set result', () => expectValid('push-config-set-result', set()));

  const cases: InvalidCase[] = [
    {
      rule: 'configured is present',
      mutate: (r) => delete r.configured,
      path: 'configured',
      keyword: 'required',
    },
    {
      rule: 'configured is a boolean',
      mutate: (r) => (r.configured = 1),
      path: 'configured',
      keyword: 'type',
    },
    { rule: 'configId is a string', mutate: (r) => (r.configId = null), path: 'configId', keyword: 'type' },
    { rule: 'url is present', mutate: (r) => delete r.url, path: 'url', keyword: 'required' },
    {
      rule: 'events are event names',
      mutate: (r) => (r.events = ['all']),
      path: 'events[0]',
      keyword: 'enum',
    },
  ];
  for (const c of cases) it(`2.12 refuses: ${c.rule}`, () => expectCase('push-config-set-result', set, c));
});

describe('2.13 Webhook configuration result (get)', () => {
  const get = () => ({ config: storedConfig(), configId: 'cfg-1', active: true });
  const none = () => ({ config: null, configId: null, active: false });

  it('2.13 accepts a configured and an unconfigured result', () => {
    expectValid('push-config-get-result', get());
    expectValid('push-config-get-result', none());
    expectValid('push-config-get-result', { ...get(), config: { ...storedConfig(), lastUsed: TS } });
    expectValid('push-config-get-result', { ...get(), active: false });
  });

  it('2.13 unconfigured: configId null and active false', () => {
    expectOnly('push-config-get-result', { ...none(), configId: 'cfg-1' }, 'configId', 'type');
    expectOnly('push-config-get-result', { ...none(), active: true }, 'active', 'const');
  });

  it('2.13 configured: configId is a string', () => {
    expectOnly('push-config-get-result', { ...get(), configId: null }, 'configId', 'type');
  });

  it('2.13 the secret and headers are never returned (C-29)', () => {
    const withSecret = { ...get(), config: { ...storedConfig(), secret: 's' } };
    expectIssue('push-config-get-result', withSecret, 'config.secret', 'false schema');
    const withHeaders = { ...get(), config: { ...storedConfig(), headers: {} } };
    expectIssue('push-config-get-result', withHeaders, 'config.headers', 'false schema');
    expectOnly('push-config-get-result', { ...get(), secret: 's' }, 'secret', 'false schema');
  });

  const cases: InvalidCase[] = [
    { rule: 'config is present', mutate: (r) => delete r.config, path: 'config', keyword: 'required' },
    { rule: 'active is a boolean', mutate: (r) => (r.active = 'yes'), path: 'active', keyword: 'type' },
  ];
  for (const c of cases) it(`2.13 refuses: ${c.rule}`, () => expectCase('push-config-get-result', get, c));

  const configCases: Array<[string, Record<string, unknown>, string, string]> = [
    ['url is present', { url: undefined }, 'config.url', 'required'],
    ['events are event names', { events: ['x'] }, 'config.events[0]', 'enum'],
    [
      'retryPolicy is the effective one (C-29)',
      { retryPolicy: { maxRetries: 3 } },
      'config.retryPolicy.initialDelay',
      'required',
    ],
    ['createdAt is ISO 8601', { createdAt: 'now' }, 'config.createdAt', 'format'],
    ['lastUsed is null or ISO 8601', { lastUsed: 5 }, 'config.lastUsed', 'type'],
  ];
  for (const [rule, patch, path, keyword] of configCases) {
    it(`2.13 refuses: ${rule}`, () => {
      expectIssue(
        'push-config-get-result',
        { ...get(), config: { ...storedConfig(), ...patch } },
        path,
        keyword,
      );
    });
  }
});
