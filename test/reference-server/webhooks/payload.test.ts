// Per-event webhook data and the signed byte encoding (spec 6.1, 6.3, 6.4; rulings C-20, C-24, C-34,
// C-43): field sets of the five events, durations in ms, and the HMAC over the exact bytes.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { eventData, payloadBase, serialisePayload } from '../../../reference-server/webhooks/payload.ts';
import { signBody, verifySignature } from '../../../reference-server/webhooks/signer.ts';
import type { TaskSnapshot } from '../../../reference-server/webhooks/types.ts';

const task = (status: TaskSnapshot['status'], extra: Partial<TaskSnapshot> = {}): TaskSnapshot => ({
  id: 'task-1',
  contextId: 'ctx-1',
  status,
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:05.000Z',
  ...extra,
});
const started = { startedAt: '2025-01-01T00:00:01.000Z', finishedAt: '2025-01-01T00:00:03.500Z' };
const reply = { role: 'agent', parts: [{ type: 'text', text: 'hi' }] };

describe('6.1 event data', () => {
  it('task.submitted: taskId, submittedAt, estimatedDuration (ms)', () => {
    const data = eventData('task.submitted', task({ state: 'submitted' }, { estimatedDurationMs: 1500 }));
    expect(data).toEqual({
      taskId: 'task-1',
      submittedAt: '2025-01-01T00:00:00.000Z',
      estimatedDuration: 1500,
    });
  });

  it('task.working: taskId, startedAt, progress (a starting progress when the engine has none yet)', () => {
    const progress = { current: 2, total: 10, message: 'step 2' };
    expect(eventData('task.working', task({ state: 'working', progress }, started))).toEqual({
      taskId: 'task-1',
      startedAt: started.startedAt,
      progress,
    });
    const data = eventData('task.working', task({ state: 'working' }, started));
    expect(data.progress).toEqual({ current: 0, total: 1, message: expect.any(String) });
  });

  it('task.completed: status {state, message}, contextId, duration = finishedAt - startedAt, completedAt', () => {
    expect(eventData('task.completed', task({ state: 'completed', message: reply }, started))).toEqual({
      taskId: 'task-1',
      status: { state: 'completed', message: reply },
      contextId: 'ctx-1',
      duration: 2500,
      completedAt: started.finishedAt,
    });
  });

  it('task.failed: status {state, error}, duration, failedAt', () => {
    const error = { code: 'AGENT_ERROR', message: 'boom' };
    expect(eventData('task.failed', task({ state: 'failed', error }, started))).toEqual({
      taskId: 'task-1',
      status: { state: 'failed', error },
      duration: 2500,
      failedAt: started.finishedAt,
    });
  });

  it('task.canceled: reason (default "Canceled by client", C-34) and canceledAt', () => {
    const finishedAt = '2025-01-01T00:00:02.000Z';
    expect(
      eventData('task.canceled', task({ state: 'canceled', reason: 'system timeout' }, { finishedAt })),
    ).toEqual({
      taskId: 'task-1',
      reason: 'system timeout',
      canceledAt: finishedAt,
    });
    expect(eventData('task.canceled', task({ state: 'canceled' })).reason).toBe('Canceled by client');
  });

  it('a task never started counts its duration from creation; never negative', () => {
    const neverStarted = task({ state: 'failed' }, { finishedAt: '2025-01-01T00:00:00.750Z' });
    expect(eventData('task.failed', neverStarted).duration).toBe(750);
    const skewed = task(
      { state: 'completed' },
      { startedAt: '2025-01-01T00:00:09.000Z', finishedAt: '2025-01-01T00:00:01.000Z' },
    );
    expect(eventData('task.completed', skewed).duration).toBe(0);
  });

  it('data is a copy: mutating the task after emit does not change the payload', () => {
    const live = task(
      { state: 'completed', message: { role: 'agent', parts: [{ type: 'text', text: 'v1' }] } },
      started,
    );
    const base = payloadBase('agent-1', live, 'task.completed');
    (live.status.message as typeof reply).parts[0]!.text = 'v2';
    expect(JSON.stringify(base.data)).toContain('"v1"');
  });
});

describe('6.3 envelope and 6.4 signature', () => {
  it('serialises event, timestamp, agentId, taskId, data and delivery {attempt, maxAttempts}', () => {
    const now = new Date('2025-02-03T04:05:06.789Z');
    const base = payloadBase('agent-1', task({ state: 'submitted' }), 'task.submitted', now);
    const body = serialisePayload(base, 2, 4);
    expect(JSON.parse(body.toString('utf8'))).toEqual({
      event: 'task.submitted',
      timestamp: '2025-02-03T04:05:06.789Z',
      agentId: 'agent-1',
      taskId: 'task-1',
      data: { taskId: 'task-1', submittedAt: '2025-01-01T00:00:00.000Z' },
      delivery: { attempt: 2, maxAttempts: 4 },
    });
  });

  it('signs the exact UTF-8 bytes with HMAC-SHA256, hex, prefixed sha256=', () => {
    const body = Buffer.from('{"text":"héllo ✓"}', 'utf8');
    const expected = createHmac('sha256', 'k3y').update(body).digest('hex');
    expect(signBody('k3y', body)).toBe(`sha256=${expected}`);
    expect(verifySignature('k3y', body, `sha256=${expected}`)).toBe(true);
    expect(verifySignature('k3y', Buffer.from('{"text":"hello ✓"}'), `sha256=${expected}`)).toBe(false);
    expect(verifySignature('other', body, `sha256=${expected}`)).toBe(false);
    expect(verifySignature('k3y', body, undefined)).toBe(false);
  });
});
