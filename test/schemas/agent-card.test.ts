// Field table 2.14 (agent extended card) and the params of 4.8: agent and limits always,
// capabilities and metrics optional (C-30), positive limits (C-46), successRate a percentage.
import { describe, it } from 'vitest';
import { expectCase, expectOnly, expectValid, extendedCard, type InvalidCase } from './fixtures.ts';

describe('2.14 Agent extended card', () => {
  it('2.14 accepts a full card and one without capabilities or metrics (C-30)', () => {
    expectValid('agent-extended-card', extendedCard());
    const { agent, limits } = extendedCard();
    expectValid('agent-extended-card', { agent, limits });
  });

  const cases: InvalidCase[] = [
    { rule: 'agent is present', mutate: (c) => delete c.agent, path: 'agent', keyword: 'required' },
    { rule: 'limits is present', mutate: (c) => delete c.limits, path: 'limits', keyword: 'required' },
    { rule: 'agent.id is present', mutate: (c) => delete c.agent.id, path: 'agent.id', keyword: 'required' },
    {
      rule: 'agent.version is a string',
      mutate: (c) => (c.agent.version = 1),
      path: 'agent.version',
      keyword: 'type',
    },
    {
      rule: 'agent.status is active, inactive or maintenance',
      mutate: (c) => (c.agent.status = 'down'),
      path: 'agent.status',
      keyword: 'enum',
    },
    {
      rule: 'supportedMethods is an array of strings',
      mutate: (c) => (c.capabilities.supportedMethods = [1]),
      path: 'capabilities.supportedMethods[0]',
      keyword: 'type',
    },
    {
      rule: 'fileUpload.supported is a boolean',
      mutate: (c) => (c.capabilities.fileUpload.supported = 'yes'),
      path: 'capabilities.fileUpload.supported',
      keyword: 'type',
    },
    {
      rule: 'fileUpload.maxFileSize is positive (C-46)',
      mutate: (c) => (c.capabilities.fileUpload.maxFileSize = 0),
      path: 'capabilities.fileUpload.maxFileSize',
      keyword: 'exclusiveMinimum',
    },
    {
      rule: 'capabilities.streaming is present',
      mutate: (c) => delete c.capabilities.streaming,
      path: 'capabilities.streaming',
      keyword: 'required',
    },
    {
      rule: 'limits.requestsPerMinute is a number',
      mutate: (c) => (c.limits.requestsPerMinute = '60'),
      path: 'limits.requestsPerMinute',
      keyword: 'type',
    },
    {
      rule: 'limits.concurrentTasks is positive (C-46)',
      mutate: (c) => (c.limits.concurrentTasks = 0),
      path: 'limits.concurrentTasks',
      keyword: 'exclusiveMinimum',
    },
    {
      rule: 'limits.maxMessageLength is present',
      mutate: (c) => delete c.limits.maxMessageLength,
      path: 'limits.maxMessageLength',
      keyword: 'required',
    },
    {
      rule: 'metrics.successRate is a percentage',
      mutate: (c) => (c.metrics.successRate = 101),
      path: 'metrics.successRate',
      keyword: 'maximum',
    },
    {
      rule: 'metrics.averageResponseTime is present',
      mutate: (c) => delete c.metrics.averageResponseTime,
      path: 'metrics.averageResponseTime',
      keyword: 'required',
    },
  ];
  for (const c of cases)
    it(`2.14 refuses: ${c.rule}`, () => expectCase('agent-extended-card', extendedCard, c));

  it('4.8 params are optional booleans', () => {
    expectValid('extended-card-params', {});
    expectValid('extended-card-params', { includeCapabilities: true, includeMetrics: false });
    expectOnly('extended-card-params', { includeCapabilities: 'false' }, 'includeCapabilities', 'type');
  });
});
