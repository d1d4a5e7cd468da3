// The JSON-RPC envelopes (spec 2.1, 2.2) with the params schema chosen by method (section 4), id
// types (C-13), and the error object of section 7 with the data shape of each code (rulings).
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, METHODS } from '../../schemas/error-codes.ts';
import { validate } from '../../schemas/registry.ts';
import { expectIssue, expectOnly, expectValid, request, userMessage, webhookConfig } from './fixtures.ts';

const VALID_PARAMS: Record<(typeof METHODS)[number], Record<string, unknown>> = {
  'message/send': { message: userMessage() },
  'message/stream': { message: userMessage(), contextId: 'c1' },
  'tasks/get': { taskId: 't1' },
  'tasks/cancel': { taskId: 't1', reason: 'no longer needed' },
  'tasks/resubscribe': { taskId: 't1', includeHistory: true },
  'tasks/pushNotificationConfig/set': { config: webhookConfig(), taskId: 't1' },
  'tasks/pushNotificationConfig/get': { taskId: 't1' },
  'agent/authenticatedExtendedCard': { includeCapabilities: false, includeMetrics: true },
};

/** Params valid for one method but broken for it, with the path the envelope must report. */
const BROKEN_PARAMS: Record<(typeof METHODS)[number], [unknown, string, string]> = {
  'message/send': [{ message: { ...userMessage(), role: 'agent' } }, 'params.message.role', 'const'],
  'message/stream': [{ contextId: 'c1' }, 'params.message', 'required'],
  'tasks/get': [{ taskId: 5 }, 'params.taskId', 'type'],
  'tasks/cancel': [{ reason: 'x' }, 'params.taskId', 'required'],
  'tasks/resubscribe': [{ taskId: 't1', includeHistory: 'yes' }, 'params.includeHistory', 'type'],
  'tasks/pushNotificationConfig/set': [{ config: { url: 'ftp://x' } }, 'params.config.url', 'pattern'],
  'tasks/pushNotificationConfig/get': [{ taskId: null }, 'params.taskId', 'type'],
  'agent/authenticatedExtendedCard': [{ includeMetrics: 1 }, 'params.includeMetrics', 'type'],
};

const PARAMS_OPTIONAL = new Set(['tasks/pushNotificationConfig/get', 'agent/authenticatedExtendedCard']);

describe('2.1 JSON-RPC request envelope', () => {
  for (const method of METHODS) {
    it(`2.1 ${method}: accepts its params and applies its own params schema`, () => {
      expectValid('jsonrpc-request', request(method, VALID_PARAMS[method]));
      const [params, path, keyword] = BROKEN_PARAMS[method];
      expectOnly('jsonrpc-request', request(method, params), path, keyword);
    });

    const required = !PARAMS_OPTIONAL.has(method);
    it(`2.1 ${method}: params ${required ? 'required' : 'optional'}`, () => {
      if (required) expectOnly('jsonrpc-request', request(method), 'params', 'required');
      else expectValid('jsonrpc-request', request(method));
    });
  }

  it('2.1 params of one method are not accepted for another', () => {
    expectOnly(
      'jsonrpc-request',
      request('tasks/get', { message: userMessage() }),
      'params.taskId',
      'required',
    );
    expectOnly('jsonrpc-request', request('message/send', { taskId: 't1' }), 'params.message', 'required');
  });

  it('2.1 params, when present, is an object (C-14)', () => {
    expectOnly('jsonrpc-request', request('tasks/get', ['t1']), 'params', 'type');
    expectOnly('jsonrpc-request', request('agent/authenticatedExtendedCard', 'x'), 'params', 'type');
  });

  it('2.1 method is one of section 4 (an unknown one is reported on method)', () => {
    expectOnly('jsonrpc-request', request('tasks/list', {}), 'method', 'discriminator');
    expectOnly('jsonrpc-request', { jsonrpc: '2.0', id: 'r1' }, 'method', 'discriminator');
  });

  it('2.1 jsonrpc must be 2.0', () => {
    expectOnly(
      'jsonrpc-request',
      { ...request('tasks/get', { taskId: 't' }), jsonrpc: '1.0' },
      'jsonrpc',
      'const',
    );
    const missing = request('tasks/get', { taskId: 't' });
    delete missing.jsonrpc;
    expectOnly('jsonrpc-request', missing, 'jsonrpc', 'required');
  });

  it('2.1 id is required: notifications are refused (C-11)', () => {
    const notification = request('tasks/get', { taskId: 't' });
    delete notification.id;
    expectOnly('jsonrpc-request', notification, 'id', 'required');
  });

  it('2.1 id is a string or an integer (C-13)', () => {
    for (const id of ['r1', '', 7, 0, -3])
      expectValid('jsonrpc-request', request('tasks/get', { taskId: 't' }, id));
    for (const id of [null, true, 1.5, {}, []]) {
      expectOnly('jsonrpc-request', request('tasks/get', { taskId: 't' }, id), 'id', 'type');
    }
  });

  it('2.1 unknown envelope and params fields are ignored (C-36)', () => {
    expectValid('jsonrpc-request', { ...request('tasks/get', { taskId: 't', x: 1 }), extra: true });
  });
});

describe('2.2 JSON-RPC response envelope', () => {
  const success = () => ({ jsonrpc: '2.0', id: 'r1', result: { id: 't1' } });
  const failure = () => ({ jsonrpc: '2.0', id: 'r1', error: { code: -32601, message: 'Method not found' } });

  it('2.2 accepts a success and a failure', () => {
    for (const name of ['jsonrpc-response', 'jsonrpc-success-response'] as const)
      expectValid(name, success());
    for (const name of ['jsonrpc-response', 'jsonrpc-error-response'] as const) expectValid(name, failure());
    expectValid('jsonrpc-response', { ...success(), id: 7 });
  });

  it('2.2 exactly one of result and error', () => {
    expectIssue('jsonrpc-response', { ...success(), error: failure().error }, '', 'oneOf');
    expectIssue('jsonrpc-response', { ...success(), error: failure().error }, 'error', 'false schema');
    expectIssue('jsonrpc-response', { jsonrpc: '2.0', id: 'r1' }, 'result', 'required');
    expectIssue('jsonrpc-response', { jsonrpc: '2.0', id: 'r1' }, 'error', 'required');
    expectOnly('jsonrpc-success-response', { ...success(), error: failure().error }, 'error', 'false schema');
    expectOnly('jsonrpc-error-response', { ...failure(), result: {} }, 'result', 'false schema');
  });

  it('2.2 result is an object', () => {
    expectOnly('jsonrpc-success-response', { ...success(), result: 'ok' }, 'result', 'type');
  });

  it('2.2 id: null only on errors (C-02, C-11, C-13)', () => {
    expectValid('jsonrpc-error-response', { ...failure(), id: null });
    expectOnly('jsonrpc-success-response', { ...success(), id: null }, 'id', 'type');
    expectOnly('jsonrpc-error-response', { ...failure(), id: 1.5 }, 'id', 'type');
    const noId: Record<string, unknown> = failure();
    delete noId.id;
    expectOnly('jsonrpc-error-response', noId, 'id', 'required');
  });

  it('2.2 jsonrpc is always 2.0', () => {
    expectOnly('jsonrpc-success-response', { ...success(), jsonrpc: 2 }, 'jsonrpc', 'const');
  });
});

describe('7 Error object', () => {
  it('7 code and message are required, code an integer, data an object when present (C-40)', () => {
    expectValid('jsonrpc-error', { code: -32603, message: 'Internal error' });
    expectValid('jsonrpc-error', { code: -32601, message: 'Method not found', data: { method: 'x/y' } });
    expectOnly('jsonrpc-error', { message: 'x' }, 'code', 'required');
    expectOnly('jsonrpc-error', { code: -32603 }, 'message', 'required');
    expectOnly('jsonrpc-error', { code: '-32603', message: 'x' }, 'code', 'type');
    expectOnly('jsonrpc-error', { code: -32603.5, message: 'x' }, 'code', 'type');
    expectOnly('jsonrpc-error', { code: -32603, message: 'x', data: 'oops' }, 'data', 'type');
  });

  /** Per code: valid data, then a broken copy with the path and keyword refused. */
  const DATA: Array<[number, Record<string, unknown>, Record<string, unknown>, string, string]> = [
    [
      ERROR_CODES.INVALID_PARAMS,
      { details: 'messageId is required', field: 'message.messageId' },
      { details: 'x' },
      'data.field',
      'required',
    ],
    [
      ERROR_CODES.TASK_NOT_FOUND,
      { taskId: 't1', suggestion: 'Check the id' },
      { taskId: 't1' },
      'data.suggestion',
      'required',
    ],
    [
      ERROR_CODES.TASK_ALREADY_COMPLETED,
      { taskId: 't1', currentState: 'completed' },
      { taskId: 't1', currentState: 'working' },
      'data.currentState',
      'enum',
    ],
    [
      ERROR_CODES.TASK_ALREADY_CANCELED,
      { taskId: 't1', currentState: 'canceled' },
      { taskId: 't1', currentState: 'failed' },
      'data.currentState',
      'const',
    ],
    [
      ERROR_CODES.CANCELLATION_FAILED,
      { taskId: 't1', currentState: 'failed' },
      { currentState: 'failed' },
      'data.taskId',
      'required',
    ],
    [
      ERROR_CODES.SUBSCRIPTION_FAILED,
      { taskId: 't1', reason: 'streaming disabled' },
      { taskId: 't1', reason: 3 },
      'data.reason',
      'type',
    ],
    [ERROR_CODES.UNAUTHORIZED, { reason: 'missing' }, { reason: 'expired' }, 'data.reason', 'enum'],
    [ERROR_CODES.AGENT_NOT_FOUND, { agentId: 'nope' }, {}, 'data.agentId', 'required'],
    [
      ERROR_CODES.RATE_LIMITED,
      { limit: 60, retryAfterSeconds: 12 },
      { limit: 60, retryAfterSeconds: -1 },
      'data.retryAfterSeconds',
      'minimum',
    ],
  ];

  for (const [code, good, bad, path, keyword] of DATA) {
    it(`7 ${code}: data required with its ruled shape`, () => {
      expectValid('jsonrpc-error', { code, message: 'm', data: good });
      expectValid('jsonrpc-error', { code, message: 'm', data: { ...good, extra: 1 } });
      expectOnly('jsonrpc-error', { code, message: 'm' }, 'data', 'required');
      expectOnly('jsonrpc-error', { code, message: 'm', data: bad }, path, keyword);
    });
  }

  it('7 -32001 also covers failed tasks (C-07); -32602 may add limit and actual (C-22)', () => {
    expectValid('jsonrpc-error', {
      code: -32001,
      message: 'm',
      data: { taskId: 't', currentState: 'failed' },
    });
    const data = { details: 'too long', field: 'message.parts[0].text', limit: 10, actual: 12 };
    expectValid('jsonrpc-error', { code: -32602, message: 'm', data });
  });

  it('7 error responses validate the nested error object', () => {
    const result = validate('jsonrpc-error-response', {
      jsonrpc: '2.0',
      id: null,
      error: { code: -32011, message: 'x' },
    });
    expect(result).toEqual({
      valid: false,
      errors: [{ path: 'error.data', keyword: 'required', message: "must have required property 'data'" }],
    });
  });
});
