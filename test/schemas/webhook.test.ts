// Webhook request headers (spec 6.2, lower-case as Node exposes them) and the payload of each of
// the five events (6.1 data fields inside the 6.3 envelope; C-20 delivery counters, C-43 durations).
import { describe, it } from 'vitest';
import {
  EVENT_NAMES,
  expectCase,
  expectIssue,
  expectOnly,
  expectValid,
  webhookHeaders,
  webhookPayload,
  type EventName,
  type InvalidCase,
} from './fixtures.ts';

describe('6.2 Webhook request headers', () => {
  it('6.2 accepts the service headers plus configured ones, with or without a signature', () => {
    expectValid('webhook-headers', webhookHeaders());
    const unsigned: Record<string, unknown> = webhookHeaders();
    delete unsigned['x-webhook-signature'];
    expectValid('webhook-headers', unsigned);
    expectValid('webhook-headers', {
      ...webhookHeaders(),
      'content-type': 'application/json; charset=utf-8',
    });
  });

  const cases: InvalidCase[] = [
    {
      rule: 'Content-Type is present',
      mutate: (h) => delete h['content-type'],
      path: 'content-type',
      keyword: 'required',
    },
    {
      rule: 'Content-Type is application/json',
      mutate: (h) => (h['content-type'] = 'text/plain'),
      path: 'content-type',
      keyword: 'pattern',
    },
    {
      rule: 'X-Webhook-Event is present',
      mutate: (h) => delete h['x-webhook-event'],
      path: 'x-webhook-event',
      keyword: 'required',
    },
    {
      rule: 'X-Webhook-Event is an event name',
      mutate: (h) => (h['x-webhook-event'] = 'task.done'),
      path: 'x-webhook-event',
      keyword: 'enum',
    },
    {
      rule: 'X-Webhook-Signature is sha256= and 64 lower-case hex digits',
      mutate: (h) => (h['x-webhook-signature'] = `sha256=${'AB'.repeat(32)}`),
      path: 'x-webhook-signature',
      keyword: 'pattern',
    },
    {
      rule: 'X-Webhook-Signature has the sha256= prefix',
      mutate: (h) => (h['x-webhook-signature'] = 'ab'.repeat(32)),
      path: 'x-webhook-signature',
      keyword: 'pattern',
    },
    {
      rule: 'X-Webhook-Delivery is present',
      mutate: (h) => delete h['x-webhook-delivery'],
      path: 'x-webhook-delivery',
      keyword: 'required',
    },
    {
      rule: 'X-Webhook-Delivery is not empty',
      mutate: (h) => (h['x-webhook-delivery'] = ''),
      path: 'x-webhook-delivery',
      keyword: 'minLength',
    },
    {
      rule: 'User-Agent is present',
      mutate: (h) => delete h['user-agent'],
      path: 'user-agent',
      keyword: 'required',
    },
    {
      rule: 'User-Agent is <product>-Webhook/<version>',
      mutate: (h) => (h['user-agent'] = 'undici'),
      path: 'user-agent',
      keyword: 'pattern',
    },
    {
      rule: 'User-Agent names a product',
      mutate: (h) => (h['user-agent'] = '-Webhook/1.0'),
      path: 'user-agent',
      keyword: 'pattern',
    },
  ];
  for (const c of cases) it(`6.2 refuses: ${c.rule}`, () => expectCase('webhook-headers', webhookHeaders, c));
});

describe('6.3 Webhook payload envelope', () => {
  const payload = () => webhookPayload('task.completed');

  const cases: InvalidCase[] = [
    { rule: 'event is present', mutate: (p) => delete p.event, path: 'event', keyword: 'discriminator' },
    {
      rule: 'event is one of the five',
      mutate: (p) => (p.event = 'task.done'),
      path: 'event',
      keyword: 'discriminator',
    },
    {
      rule: 'timestamp is present',
      mutate: (p) => delete p.timestamp,
      path: 'timestamp',
      keyword: 'required',
    },
    {
      rule: 'timestamp is ISO 8601',
      mutate: (p) => (p.timestamp = 'Jan 1'),
      path: 'timestamp',
      keyword: 'format',
    },
    { rule: 'agentId is present', mutate: (p) => delete p.agentId, path: 'agentId', keyword: 'required' },
    { rule: 'taskId is a string', mutate: (p) => (p.taskId = 1), path: 'taskId', keyword: 'type' },
    { rule: 'data is present', mutate: (p) => delete p.data, path: 'data', keyword: 'required' },
    { rule: 'delivery is present', mutate: (p) => delete p.delivery, path: 'delivery', keyword: 'required' },
    {
      rule: 'delivery.attempt starts at 1 (C-20)',
      mutate: (p) => (p.delivery.attempt = 0),
      path: 'delivery.attempt',
      keyword: 'minimum',
    },
    {
      rule: 'delivery.maxAttempts is an integer',
      mutate: (p) => (p.delivery.maxAttempts = 1.5),
      path: 'delivery.maxAttempts',
      keyword: 'type',
    },
    {
      rule: 'delivery.maxAttempts is present',
      mutate: (p) => delete p.delivery.maxAttempts,
      path: 'delivery.maxAttempts',
      keyword: 'required',
    },
  ];
  for (const c of cases) it(`6.3 refuses: ${c.rule}`, () => expectCase('webhook-payload', payload, c));
});

/** Per event: each 6.1 data field, removed, is reported; plus one wrong value. */
const DATA_FIELDS: Record<EventName, { fields: string[]; wrong: [string, unknown, string, string] }> = {
  'task.submitted': {
    fields: ['taskId', 'submittedAt', 'estimatedDuration'],
    wrong: ['estimatedDuration', -1, 'data.estimatedDuration', 'minimum'],
  },
  'task.working': {
    fields: ['taskId', 'startedAt', 'progress'],
    wrong: ['progress', { current: 0, total: 0, message: '' }, 'data.progress.total', 'exclusiveMinimum'],
  },
  'task.completed': {
    fields: ['taskId', 'status', 'contextId', 'duration', 'completedAt'],
    wrong: ['status', { state: 'completed' }, 'data.status.message', 'required'],
  },
  'task.failed': {
    fields: ['taskId', 'status', 'duration', 'failedAt'],
    wrong: ['status', { state: 'failed', error: 'boom' }, 'data.status.error', 'type'],
  },
  'task.canceled': {
    fields: ['taskId', 'reason', 'canceledAt'],
    wrong: ['canceledAt', '2025-01-01', 'data.canceledAt', 'format'],
  },
};

describe('6.1 Webhook payload data per event', () => {
  for (const event of EVENT_NAMES) {
    const { fields, wrong } = DATA_FIELDS[event];
    it(`6.1 ${event}: accepts its payload`, () => expectValid('webhook-payload', webhookPayload(event)));
    for (const field of fields) {
      it(`6.1 ${event}: data.${field} is required`, () => {
        const payload = webhookPayload(event);
        delete payload.data[field];
        expectOnly('webhook-payload', payload, `data.${field}`, 'required');
      });
    }
    it(`6.1 ${event}: data.${wrong[0]} is checked`, () => {
      const payload = webhookPayload(event);
      payload.data[wrong[0]] = wrong[1];
      expectOnly('webhook-payload', payload, wrong[2], wrong[3]);
    });
  }

  it('6.1 the data shape follows the event name, not the other way round', () => {
    const payload = { ...webhookPayload('task.canceled'), event: 'task.completed' };
    expectIssue('webhook-payload', payload, 'data.status', 'required');
  });

  it('6.3 completed status.state, when given, is completed', () => {
    const payload = webhookPayload('task.completed');
    (payload.data.status as Record<string, unknown>).state = 'working';
    expectOnly('webhook-payload', payload, 'data.status.state', 'const');
  });
});
