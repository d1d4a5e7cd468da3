// SSE of message/stream and tasks/resubscribe (spec 4.2, 4.5, 6.6; C-09, C-10, C-26, C-27, C-31,
// C-41, C-42): exact framing, event order, one final event then close, resubscribe with/without history.
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../schemas/error-codes.ts';
import {
  AGENT_A,
  detach,
  directive,
  KEY,
  openStream,
  sendParams,
  sseResults,
  startServer,
  stateOf,
  waitFor,
  waitForState,
} from './support.ts';

function expectExactFraming(text: string): Array<Record<string, unknown>> {
  const frames = text.split('\n\n');
  expect(frames.pop()).toBe('');
  const events = frames.map((frame) => {
    expect(frame.startsWith('data: ')).toBe(true);
    expect(frame.includes('\n')).toBe(false);
    return JSON.parse(frame.slice(6)) as Record<string, unknown>;
  });
  // Compact JSON: re-serialising reproduces the exact bytes.
  expect(events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join('')).toBe(text);
  return events;
}

describe('4.2 message/stream', () => {
  it('streams submitted, working with progress, then one final event, in exact framing, and closes', async () => {
    const h = await startServer();
    const reply = await h.post(
      {
        jsonrpc: '2.0',
        id: 'st1',
        method: 'message/stream',
        params: sendParams('hi', directive({ delayMs: 40, progressSteps: 2 })),
      },
      { headers: { accept: 'text/event-stream' } },
    );
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toBe('text/event-stream');
    expect(reply.headers.get('cache-control')).toBe('no-cache');
    const events = expectExactFraming(reply.text);
    for (const event of events) expect(event).toMatchObject({ jsonrpc: '2.0', id: 'st1' });
    const results = events.map((event) => event.result as Record<string, unknown>);
    expect(results.map((result) => [stateOf(result), result.final])).toEqual([
      ['submitted', false],
      ['working', false],
      ['working', false],
      ['working', false],
      ['completed', true],
    ]);
    expect(results.map((result) => (result.status as { progress?: unknown }).progress)).toEqual([
      undefined,
      { current: 0, total: 2, message: 'step 0 of 2' },
      { current: 1, total: 2, message: 'step 1 of 2' },
      { current: 2, total: 2, message: 'step 2 of 2' },
      undefined,
    ]);
    expect(new Set(results.map((result) => result.id)).size).toBe(1);
    expect(results[4]?.status).toMatchObject({
      message: { role: 'agent', parts: [{ type: 'text', text: 'echo "hi"' }] },
    });
  });

  it('answers SSE whatever the Accept header and echoes an integer id in every event (C-13, C-27)', async () => {
    const h = await startServer();
    const reply = await h.post({ jsonrpc: '2.0', id: 42, method: 'message/stream', params: sendParams('x') });
    expect(reply.headers.get('content-type')).toBe('text/event-stream');
    for (const event of expectExactFraming(reply.text)) expect(event.id).toBe(42);
  });

  it('sends `: ping` keep-alives on idle streams and ends with the cancel event (C-31)', async () => {
    const h = await startServer({ agents: [{ ...AGENT_A, keepAliveMs: 30 }] });
    const stream = await openStream(h, 'message/stream', {
      ...sendParams(directive({ runUntilCanceled: true })),
      id: 'ping-1',
    });
    expect(stateOf((await stream.nextEvent()).result as Record<string, unknown>)).toBe('submitted');
    expect(stateOf((await stream.nextEvent()).result as Record<string, unknown>)).toBe('working');
    expect(await stream.nextFrame(1000)).toBe(': ping');
    await h.rpc('tasks/cancel', { taskId: 'ping-1', reason: 'enough' });
    const final = await stream.nextEvent();
    expect(final).toMatchObject({
      id: 'stream-1',
      result: { final: true, status: { state: 'canceled', reason: 'enough' } },
    });
    expect((await stream.rest()).replaceAll(': ping\n\n', '')).toBe('');
  });

  it('sends errors found before the stream starts as plain JSON (C-26)', async () => {
    const h = await startServer();
    const reply = await h.post(
      { jsonrpc: '2.0', id: 'e1', method: 'message/stream', params: { message: {} } },
      { headers: { accept: 'text/event-stream' } },
    );
    expect(reply.headers.get('content-type')).toBe('application/json');
    expect(reply.json).toMatchObject({
      id: 'e1',
      error: { code: ERROR_CODES.INVALID_PARAMS, data: { field: 'message.role' } },
    });
  });

  it('refuses streams beyond maxStreams with 503 -32603 and frees the slot when a client leaves (C-42)', async () => {
    const h = await startServer({ agents: [{ ...AGENT_A, maxStreams: 1 }] });
    const first = await openStream(h, 'message/stream', {
      ...sendParams(directive({ runUntilCanceled: true })),
      id: 'held',
    });
    await first.nextEvent();
    const refused = await h.post({
      jsonrpc: '2.0',
      id: 'm2',
      method: 'message/stream',
      params: { ...sendParams('x'), id: 'refused' },
    });
    expect(refused.status).toBe(503);
    expect(refused.json).toMatchObject({
      id: 'm2',
      error: { code: ERROR_CODES.INTERNAL_ERROR, data: { reason: 'too many streams' } },
    });
    expect((await h.rpc('tasks/get', { taskId: 'refused' })).error?.code).toBe(ERROR_CODES.TASK_NOT_FOUND);
    await first.cancel();
    await waitFor(
      async () =>
        (await h.post({ jsonrpc: '2.0', id: 'm3', method: 'message/stream', params: sendParams('y') }))
          .status === 200,
    );
    // The task outlives its stream.
    expect(stateOf((await h.rpc('tasks/get', { taskId: 'held' })).result)).toBe('working');
  });

  it('ends open streams when the server closes', async () => {
    const h = await startServer();
    const stream = await openStream(h, 'message/stream', sendParams(directive({ runUntilCanceled: true })));
    await stream.nextEvent();
    await h.server.close();
    await expect(stream.rest()).resolves.toBeTypeOf('string');
  });
});

describe('4.5 tasks/resubscribe', () => {
  it('answers a final task with plain JSON {id, status, subscribed false, final true} (C-09)', async () => {
    const h = await startServer();
    await h.rpc('message/send', { ...sendParams('done'), id: 'r-done' });
    const reply = await h.rpc(
      'tasks/resubscribe',
      { taskId: 'r-done', includeHistory: true },
      { headers: { accept: 'text/event-stream' } },
    );
    expect(reply.headers.get('content-type')).toBe('application/json');
    expect(reply.result).toMatchObject({
      id: 'r-done',
      subscribed: false,
      final: true,
      status: { state: 'completed' },
    });
    expect((reply.result.status as { message: unknown }).message).toBeDefined();
  });

  it('starts at the current status without history, then follows live to the final event (C-10)', async () => {
    const h = await startServer();
    detach(
      h.rpc('message/send', {
        ...sendParams(directive({ runUntilCanceled: true, progressSteps: 1 })),
        id: 'r-live',
      }),
    );
    await waitFor(async () => {
      const status = (await h.rpc('tasks/get', { taskId: 'r-live' })).result.status as {
        progress?: { current: number };
      };
      return status.progress?.current === 1;
    });
    const stream = await openStream(h, 'tasks/resubscribe', { taskId: 'r-live' });
    expect(stream.headers.get('content-type')).toBe('text/event-stream');
    expect(await stream.nextEvent()).toMatchObject({
      id: 'stream-1',
      result: {
        id: 'r-live',
        subscribed: true,
        final: false,
        status: { state: 'working', progress: { current: 1 } },
      },
    });
    await h.rpc('tasks/cancel', { taskId: 'r-live' });
    expect(await stream.nextEvent()).toMatchObject({
      result: { subscribed: true, final: true, status: { state: 'canceled' } },
    });
    expect((await stream.rest()).replaceAll(': ping\n\n', '')).toBe('');
  });

  it('replays every earlier status in order with includeHistory true (C-10)', async () => {
    const h = await startServer();
    detach(
      h.rpc('message/send', {
        ...sendParams(directive({ runUntilCanceled: true, progressSteps: 2 })),
        id: 'r-hist',
      }),
    );
    await waitFor(async () => {
      const status = (await h.rpc('tasks/get', { taskId: 'r-hist' })).result.status as {
        progress?: { current: number };
      };
      return status.progress?.current === 2;
    });
    const stream = await openStream(h, 'tasks/resubscribe', { taskId: 'r-hist', includeHistory: true });
    const replayed = [];
    for (let i = 0; i < 4; i += 1)
      replayed.push((await stream.nextEvent()).result as Record<string, unknown>);
    expect(
      replayed.map((result) => [
        stateOf(result),
        (result.status as { progress?: { current: number } }).progress?.current,
        result.final,
      ]),
    ).toEqual([
      ['submitted', undefined, false],
      ['working', 0, false],
      ['working', 1, false],
      ['working', 2, false],
    ]);
    await h.rpc('tasks/cancel', { taskId: 'r-hist' });
    expect(stateOf((await stream.nextEvent()).result as Record<string, unknown>)).toBe('canceled');
  });

  it('answers -32000 for an unknown task', async () => {
    const h = await startServer();
    expect((await h.rpc('tasks/resubscribe', { taskId: 'nope' })).error?.code).toBe(
      ERROR_CODES.TASK_NOT_FOUND,
    );
  });
});

describe('2.14 streaming capability off (C-41)', () => {
  it('removes message/stream and answers -32004 for resubscribe on a live task', async () => {
    const h = await startServer({ agents: [{ ...AGENT_A, capabilities: { streaming: false } }] });
    expect((await h.rpc('message/stream', sendParams('x'))).error).toEqual({
      code: ERROR_CODES.METHOD_NOT_FOUND,
      message: 'Method not found',
      data: { method: 'message/stream' },
    });
    detach(h.rpc('message/send', { ...sendParams(directive({ runUntilCanceled: true })), id: 'no-sse' }));
    await waitForState(h, 'no-sse', 'working');
    const live = await h.rpc('tasks/resubscribe', { taskId: 'no-sse' });
    expect(live.error).toMatchObject({ code: ERROR_CODES.SUBSCRIPTION_FAILED, data: { taskId: 'no-sse' } });
    expect(typeof live.error?.data?.reason).toBe('string');
    await h.rpc('tasks/cancel', { taskId: 'no-sse' });
    const final = await h.rpc('tasks/resubscribe', { taskId: 'no-sse' });
    expect(final.result).toMatchObject({ subscribed: false, final: true, status: { state: 'canceled' } });
  });
});

describe('6.6 stream events of every method share the request id', () => {
  it('keeps the envelope id in replayed and live resubscribe events', async () => {
    const h = await startServer();
    detach(h.rpc('message/send', { ...sendParams(directive({ delayMs: 60 })), id: 'ids' }));
    await waitForState(h, 'ids', 'working');
    const response = await fetch(h.url(), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': KEY },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 'rid-7',
        method: 'tasks/resubscribe',
        params: { taskId: 'ids', includeHistory: true },
      }),
    });
    const text = await response.text();
    const results = sseResults(text);
    expect(results.at(-1)).toMatchObject({ final: true, status: { state: 'completed' } });
    expect(
      text
        .split('\n\n')
        .filter((frame) => frame.startsWith('data: '))
        .every((frame) => frame.includes('"id":"rid-7"')),
    ).toBe(true);
  });
});

describe('an agent turn (turnMs: a slow model, the field conditions)', () => {
  it('announces the task at once and sends its final event only after the turn', async () => {
    const turnMs = 300;
    const h = await startServer({ agents: [{ ...AGENT_A, turnMs }] });
    const t0 = Date.now();
    const s = await openStream(h, 'message/stream', sendParams('hi'));
    const first = (await s.nextEvent()).result as Record<string, unknown>;
    expect([stateOf(first), first.final]).toEqual(['submitted', false]);
    const working = (await s.nextEvent()).result as Record<string, unknown>;
    expect([stateOf(working), working.final]).toEqual(['working', false]);
    const last = (await s.nextEvent()).result as Record<string, unknown>;
    expect([stateOf(last), last.final]).toEqual(['completed', true]);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(turnMs);
  });

  it('is canceled mid-turn like any working task', async () => {
    const h = await startServer({ agents: [{ ...AGENT_A, turnMs: 60_000 }] });
    const s = await openStream(h, 'message/stream', sendParams('hi'));
    const task = (await s.nextEvent()).result as Record<string, unknown>;
    await s.nextEvent();
    const cancel = await h.rpc('tasks/cancel', { taskId: task.id });
    expect(stateOf(cancel.result)).toBe('canceled');
  });
});
