// Field tables 2.7 (Task, per method: send 4.1, stream 4.2, get 4.3), 2.8 (TaskStatus with its
// conditional fields and C-24/C-45 shapes), 2.9 (cancel result) and 2.10 (resubscribe result).
import { describe, it } from 'vitest';
import { TASK_STATES } from '../../schemas/error-codes.ts';
import {
  TS,
  agentMessage,
  completedStatus,
  expectCase,
  expectOnly,
  expectValid,
  progress,
  sendResult,
  type InvalidCase,
} from './fixtures.ts';

const STATUS_BY_STATE = {
  submitted: { state: 'submitted' },
  working: { state: 'working', progress: progress() },
  completed: completedStatus(),
  failed: { state: 'failed', error: { code: 'agent_error', message: 'boom' } },
  canceled: { state: 'canceled', reason: 'Canceled by client' },
} as const;

describe('2.8 TaskStatus', () => {
  for (const state of TASK_STATES) {
    it(`2.8 accepts a ${state} status`, () => expectValid('task-status', STATUS_BY_STATE[state]));
  }

  const cases: InvalidCase[] = [
    { rule: 'state is required', mutate: (s) => delete s.state, path: 'state', keyword: 'required' },
    { rule: 'state is one of the five', mutate: (s) => (s.state = 'done'), path: 'state', keyword: 'enum' },
    {
      rule: 'message present when completed',
      mutate: (s) => delete s.message,
      path: 'message',
      keyword: 'required',
    },
    {
      rule: 'message is an agent reply',
      mutate: (s) => (s.message.role = 'user'),
      path: 'message.role',
      keyword: 'const',
    },
    {
      rule: 'message parts are Parts',
      mutate: (s) => (s.message.parts = [{ type: 'text' }]),
      path: 'message.parts[0].text',
      keyword: 'required',
    },
  ];
  for (const c of cases) it(`2.8 refuses: ${c.rule}`, () => expectCase('task-status', completedStatus, c));

  it('2.8 error present when failed, an object (C-45: string code and message)', () => {
    expectOnly('task-status', { state: 'failed' }, 'error', 'required');
    expectOnly('task-status', { state: 'failed', error: 'boom' }, 'error', 'type');
    expectOnly('task-status', { state: 'failed', error: { message: 7 } }, 'error.message', 'type');
    expectValid('task-status', { state: 'failed', error: {} });
  });

  it('2.8 progress present when working, {current, total, message} with total > 0 (C-24)', () => {
    expectOnly('task-status', { state: 'working' }, 'progress', 'required');
    const working = (p: object) => ({ state: 'working', progress: { ...progress(), ...p } });
    expectOnly('task-status', working({ total: 0 }), 'progress.total', 'exclusiveMinimum');
    expectOnly('task-status', working({ current: -1 }), 'progress.current', 'minimum');
    expectOnly('task-status', working({ message: 1 }), 'progress.message', 'type');
    expectOnly(
      'task-status',
      { state: 'working', progress: { current: 0, total: 1 } },
      'progress.message',
      'required',
    );
  });

  it('2.8 reason is a string', () => {
    expectOnly('task-status', { state: 'canceled', reason: 1 }, 'reason', 'type');
  });
});

describe('2.7 Task and its per-method forms', () => {
  it('2.7 a task needs id and status; the other fields are typed when present', () => {
    expectValid('task', { id: 't1', status: { state: 'submitted' } });
    expectValid('task', { ...sendResult(), createdAt: TS, updatedAt: TS });
    expectOnly('task', { status: { state: 'submitted' } }, 'id', 'required');
    expectOnly('task', { id: 't1' }, 'status', 'required');
    expectOnly('task', { id: 't1', status: { state: 'submitted' }, final: 'yes' }, 'final', 'type');
    expectOnly(
      'task',
      { id: 't1', status: { state: 'submitted' }, createdAt: 'yesterday' },
      'createdAt',
      'format',
    );
  });

  const sendCases: InvalidCase[] = [
    {
      rule: 'contextId is present',
      mutate: (r) => delete r.contextId,
      path: 'contextId',
      keyword: 'required',
    },
    { rule: 'final is present', mutate: (r) => delete r.final, path: 'final', keyword: 'required' },
    { rule: 'final is always true', mutate: (r) => (r.final = false), path: 'final', keyword: 'const' },
    {
      rule: 'state is completed, working, failed or canceled',
      mutate: (r) => (r.status = { state: 'submitted' }),
      path: 'status.state',
      keyword: 'enum',
    },
    { rule: 'id is a string', mutate: (r) => (r.id = 1), path: 'id', keyword: 'type' },
  ];
  it('4.1 accepts a send result in each documented state', () => {
    for (const state of ['completed', 'working', 'failed', 'canceled'] as const) {
      expectValid('send-result', { ...sendResult(), status: STATUS_BY_STATE[state] });
    }
  });
  for (const c of sendCases)
    it(`4.1 send result refuses: ${c.rule}`, () => expectCase('send-result', sendResult, c));

  it('4.2 a streamed task carries a boolean final; the event is a JSON-RPC success response', () => {
    const task = { id: 't1', status: STATUS_BY_STATE.working, final: false };
    expectValid('stream-task', task);
    expectOnly('stream-task', { id: 't1', status: STATUS_BY_STATE.working }, 'final', 'required');
    const event = { jsonrpc: '2.0', id: 'r1', result: task };
    expectValid('stream-event', event);
    expectValid('stream-event', { ...event, id: 3 });
    expectOnly('stream-event', { ...event, result: { ...task, final: 'no' } }, 'result.final', 'type');
    expectOnly(
      'stream-event',
      { ...event, result: { ...task, status: { state: 'working' } } },
      'result.status.progress',
      'required',
    );
    expectOnly('stream-event', { ...event, error: { code: -32603, message: 'x' } }, 'error', 'false schema');
    expectOnly('stream-event', { jsonrpc: '2.0', id: 'r1' }, 'result', 'required');
  });

  it('4.3 a tasks/get result has createdAt and updatedAt as ISO 8601 with a zone (C-39)', () => {
    const got = { id: 't1', contextId: 'c1', status: completedStatus(), createdAt: TS, updatedAt: TS };
    expectValid('tasks-get-result', got);
    expectValid('tasks-get-result', { ...got, contextId: undefined, final: true });
    expectOnly('tasks-get-result', { ...got, createdAt: undefined }, 'createdAt', 'required');
    expectOnly('tasks-get-result', { ...got, updatedAt: '2025-01-01T12:00:00' }, 'updatedAt', 'format');
    expectOnly('tasks-get-result', { ...got, updatedAt: 1735732800000 }, 'updatedAt', 'type');
  });
});

describe('2.9 Cancel result', () => {
  const canceled = () => ({
    id: 't1',
    status: { state: 'canceled', reason: 'Canceled by client' },
    canceled: true,
  });

  it('2.9 accepts a cancel result', () => expectValid('cancel-result', canceled()));

  const cases: InvalidCase[] = [
    {
      rule: 'state is canceled',
      mutate: (r) => (r.status = { ...completedStatus(), reason: 'late' }),
      path: 'status.state',
      keyword: 'const',
    },
    {
      rule: 'reason is given',
      mutate: (r) => delete r.status.reason,
      path: 'status.reason',
      keyword: 'required',
    },
    { rule: 'canceled is present', mutate: (r) => delete r.canceled, path: 'canceled', keyword: 'required' },
    {
      rule: 'canceled is a boolean',
      mutate: (r) => (r.canceled = 'true'),
      path: 'canceled',
      keyword: 'type',
    },
    { rule: 'id is present', mutate: (r) => delete r.id, path: 'id', keyword: 'required' },
  ];
  for (const c of cases) it(`2.9 refuses: ${c.rule}`, () => expectCase('cancel-result', canceled, c));
});

describe('2.10 Resubscribe result', () => {
  const result = () => ({ id: 't1', status: completedStatus(), subscribed: false, final: true });

  it('2.10 accepts the final status of a finished task (C-09)', () =>
    expectValid('resubscribe-result', result()));

  const cases: InvalidCase[] = [
    {
      rule: 'subscribed is present',
      mutate: (r) => delete r.subscribed,
      path: 'subscribed',
      keyword: 'required',
    },
    { rule: 'final is a boolean', mutate: (r) => (r.final = 1), path: 'final', keyword: 'type' },
    {
      rule: 'status is a TaskStatus',
      mutate: (r) => (r.status = { state: 'x' }),
      path: 'status.state',
      keyword: 'enum',
    },
    {
      rule: 'a completed status carries the reply',
      mutate: (r) => (r.status.message = undefined),
      path: 'status.message',
      keyword: 'required',
    },
  ];
  for (const c of cases) it(`2.10 refuses: ${c.rule}`, () => expectCase('resubscribe-result', result, c));

  it('2.10 an agent message in a status needs parts', () => {
    expectOnly(
      'resubscribe-result',
      { ...result(), status: { state: 'completed', message: { role: 'agent' } } },
      'status.message.parts',
      'required',
    );
    expectValid('resubscribe-result', {
      ...result(),
      status: { state: 'completed', message: agentMessage() },
    });
  });
});
