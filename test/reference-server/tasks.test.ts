// Task lifecycle over HTTP (spec 3, 4.1, 4.3, 4.4; C-05..C-08, C-21, C-25, C-34, C-35, C-44, C-45).
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../schemas/error-codes.ts';
import { AGENT_A, detach, directive, sendParams, startServer, stateOf, waitForState } from './support.ts';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('4.1 message/send', () => {
  it('blocks until completed and returns the reply with final true', async () => {
    const h = await startServer();
    const reply = await h.rpc('message/send', sendParams('hello'));
    expect(reply.result).toMatchObject({ final: true, status: { state: 'completed' } });
    expect(typeof reply.result.id).toBe('string');
    expect(typeof reply.result.contextId).toBe('string');
    const message = (
      reply.result.status as { message: { role: string; messageId: string; parts: unknown[] } }
    ).message;
    expect(message.role).toBe('agent');
    expect(message.messageId).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(message.parts).toEqual([{ type: 'text', text: 'echo "hello"' }]);
  });

  it('returns failed with status.error {code, message} for a fail directive (C-45)', async () => {
    const h = await startServer();
    const reply = await h.rpc('message/send', sendParams('x', directive({ fail: 'boom' })));
    expect(reply.result).toMatchObject({
      final: true,
      status: { state: 'failed', error: { code: 'agent_error', message: 'boom' } },
    });
    expect((reply.result.status as Record<string, unknown>).message).toBeUndefined();
  });

  it('returns canceled with reason "system timeout" when the system timeout ends the task (C-05, C-25)', async () => {
    const h = await startServer({ agents: [{ ...AGENT_A, systemTimeoutMs: 100 }] });
    const started = Date.now();
    const reply = await h.rpc('message/send', sendParams(directive({ runUntilCanceled: true })));
    expect(Date.now() - started).toBeGreaterThanOrEqual(95);
    expect(reply.result).toMatchObject({
      final: true,
      status: { state: 'canceled', reason: 'system timeout' },
    });
  });
});

describe('4.3 tasks/get (C-35)', () => {
  it('returns id, contextId, status, createdAt <= updatedAt, and updatedAt moves with each state change', async () => {
    const h = await startServer();
    const send = h.rpc('message/send', { ...sendParams(directive({ delayMs: 150 })), id: 'get-1' });
    await waitForState(h, 'get-1', 'working');
    const working = (await h.rpc('tasks/get', { taskId: 'get-1' })).result;
    expect(working).toMatchObject({
      id: 'get-1',
      status: { state: 'working', progress: { current: 0, total: 1 } },
    });
    expect(working.createdAt).toMatch(ISO);
    await send;
    const done = (await h.rpc('tasks/get', { taskId: 'get-1' })).result;
    expect(Object.keys(done).sort()).toEqual(['contextId', 'createdAt', 'id', 'status', 'updatedAt']);
    expect(done.createdAt).toBe(working.createdAt);
    expect((done.updatedAt as string) > (working.updatedAt as string)).toBe(true);
    expect((done.createdAt as string) <= (done.updatedAt as string)).toBe(true);
    expect((done.status as Record<string, unknown>).progress).toBeUndefined();
  });

  it('answers an unknown task with -32000 {taskId, suggestion}', async () => {
    const h = await startServer();
    const reply = await h.rpc('tasks/get', { taskId: 'missing' });
    expect(reply.error).toMatchObject({
      code: ERROR_CODES.TASK_NOT_FOUND,
      message: 'Task not found',
      data: { taskId: 'missing' },
    });
    expect(typeof reply.error?.data?.suggestion).toBe('string');
  });

  it('evicts the oldest finished task beyond maxTasks (C-44)', async () => {
    const h = await startServer({ agents: [{ ...AGENT_A, maxTasks: 2 }] });
    for (const id of ['t1', 't2', 't3']) await h.rpc('message/send', { ...sendParams(id), id });
    expect((await h.rpc('tasks/get', { taskId: 't1' })).error?.code).toBe(ERROR_CODES.TASK_NOT_FOUND);
    expect(stateOf((await h.rpc('tasks/get', { taskId: 't3' })).result)).toBe('completed');
  });
});

describe('4.4 tasks/cancel', () => {
  it('cancels a working task with the default reason; the blocked send returns canceled (C-34)', async () => {
    const h = await startServer();
    const send = h.rpc('message/send', { ...sendParams(directive({ runUntilCanceled: true })), id: 'c-1' });
    await waitForState(h, 'c-1', 'working');
    const cancel = await h.rpc('tasks/cancel', { taskId: 'c-1' });
    expect(cancel.result).toMatchObject({
      id: 'c-1',
      canceled: true,
      status: { state: 'canceled', reason: 'Canceled by client' },
    });
    expect((await send).result).toMatchObject({
      final: true,
      status: { state: 'canceled', reason: 'Canceled by client' },
    });
  });

  it('cancels a queued (submitted) task with the supplied reason (C-21, C-34)', async () => {
    const h = await startServer({ agents: [{ ...AGENT_A, limits: { concurrentTasks: 1 } }] });
    detach(h.rpc('message/send', { ...sendParams(directive({ runUntilCanceled: true })), id: 'busy' }));
    await waitForState(h, 'busy', 'working');
    detach(h.rpc('message/send', { ...sendParams('queued'), id: 'queued' }));
    await waitForState(h, 'queued', 'submitted');
    const cancel = await h.rpc('tasks/cancel', { taskId: 'queued', reason: 'not needed' });
    expect(cancel.result).toMatchObject({
      canceled: true,
      status: { state: 'canceled', reason: 'not needed' },
    });
    expect((await h.rpc('tasks/get', { taskId: 'queued' })).result.status).toEqual({
      state: 'canceled',
      reason: 'not needed',
    });
    expect(stateOf((await h.rpc('tasks/get', { taskId: 'busy' })).result)).toBe('working');
  });

  it('refuses final tasks: -32001 completed/failed, -32002 canceled, with currentState (C-06, C-07)', async () => {
    const h = await startServer();
    await h.rpc('message/send', { ...sendParams('done'), id: 'done' });
    await h.rpc('message/send', { ...sendParams(directive({ fail: 'x' })), id: 'failed' });
    detach(h.rpc('message/send', { ...sendParams(directive({ runUntilCanceled: true })), id: 'gone' }));
    await waitForState(h, 'gone', 'working');
    await h.rpc('tasks/cancel', { taskId: 'gone' });
    const cases: Array<[string, number, string]> = [
      ['done', ERROR_CODES.TASK_ALREADY_COMPLETED, 'completed'],
      ['failed', ERROR_CODES.TASK_ALREADY_COMPLETED, 'failed'],
      ['gone', ERROR_CODES.TASK_ALREADY_CANCELED, 'canceled'],
    ];
    for (const [taskId, code, currentState] of cases) {
      const reply = await h.rpc('tasks/cancel', { taskId, reason: 'again' });
      expect(reply.error).toMatchObject({ code, data: { taskId, currentState } });
      const after = (await h.rpc('tasks/get', { taskId })).result.status as Record<string, unknown>;
      expect(after.state).toBe(currentState);
      if (currentState === 'canceled') expect(after.reason).toBe('Canceled by client');
    }
    expect((await h.rpc('tasks/cancel', { taskId: 'nope' })).error?.code).toBe(ERROR_CODES.TASK_NOT_FOUND);
  });

  it('answers -32003 when the task completes or fails while the cancel is applied (C-08)', async () => {
    const h = await startServer();
    for (const [id, extra, state] of [
      ['race-ok', {}, 'completed'],
      ['race-fail', { fail: 'late' }, 'failed'],
    ] as const) {
      const send = h.rpc('message/send', {
        ...sendParams(directive({ delayMs: 5000, finishOnCancel: true, ...extra })),
        id,
      });
      await waitForState(h, id, 'working');
      const cancel = await h.rpc('tasks/cancel', { taskId: id });
      expect(cancel.error).toMatchObject({
        code: ERROR_CODES.CANCELLATION_FAILED,
        data: { taskId: id, currentState: state },
      });
      expect(stateOf((await send).result)).toBe(state);
      expect(stateOf((await h.rpc('tasks/get', { taskId: id })).result)).toBe(state);
    }
  });
});

describe('3 queue and system timeout (C-05, C-21)', () => {
  it('keeps extra tasks submitted, dequeues FIFO, and never times out queued tasks', async () => {
    const h = await startServer({
      agents: [{ ...AGENT_A, systemTimeoutMs: 150, limits: { concurrentTasks: 1 } }],
    });
    const first = h.rpc('message/send', { ...sendParams(directive({ runUntilCanceled: true })), id: 'q1' });
    await waitForState(h, 'q1', 'working');
    const second = h.rpc('message/send', { ...sendParams(directive({ delayMs: 50 })), id: 'q2' });
    const third = h.rpc('message/send', { ...sendParams('third'), id: 'q3' });
    await waitForState(h, 'q3', 'submitted');
    expect(stateOf((await h.rpc('tasks/get', { taskId: 'q2' })).result)).toBe('submitted');
    expect((await first).result.status).toEqual({ state: 'canceled', reason: 'system timeout' });
    const [r2, r3] = await Promise.all([second, third]);
    expect(stateOf(r2.result)).toBe('completed');
    expect(stateOf(r3.result)).toBe('completed');
    // FIFO: q2 (queued first) finished before q3 started.
    expect((r2.result.updatedAt as string) <= (r3.result.updatedAt as string)).toBe(true);
    expect((r2.result.createdAt as string) < (r2.result.updatedAt as string)).toBe(true);
  });
});
