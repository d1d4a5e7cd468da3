// endedBefore(): a refused cancel proves nothing when the harness had already heard the task end
// on its own (its stream's final event, a message/send answer) before the cancel left, or heard the
// system timeout (C-05) end it while the cancel was on its way; otherwise the refusal stays a finding.
// readTooLate(): the same for a tasks/get that read a final state where the check needed a running task,
// or, without a read, the task's stream that showed it ended.
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../core/evidence.ts';
import type { CheckContext } from '../../suites/support/index.ts';
import { endedBefore, readTooLate } from '../../suites/support/ended-first.ts';

const T0 = Date.parse('2026-11-25T10:00:00.000Z');
const at = (ms: number): string => new Date(T0 + ms).toISOString();

function event(atMs: number, state: string, reason?: string) {
  const status = reason === undefined ? { state } : { state, reason };
  return {
    index: 0,
    atMs,
    data: '',
    json: { jsonrpc: '2.0', id: 's', result: { id: 't1', status, final: false } },
  };
}

/** The task's stream, opened at T0, with the given events. */
function stream(events: ReturnType<typeof event>[]): Exchange {
  return {
    id: 'ex-1',
    kind: 'stream',
    request: { method: 'POST', url: 'http://127.0.0.1/a', headers: {}, json: { method: 'message/stream' } },
    timings: { startedAt: at(0), totalMs: 0 },
    transcript: { exchangeId: 'ex-1', events } as never,
  } as Exchange;
}

/** tasks/cancel sent at `sentMs`, answered `tookMs` later with error -32002. */
function cancel(sentMs: number, tookMs = 5): Exchange {
  return {
    id: 'ex-2',
    kind: 'http',
    request: { method: 'POST', url: 'http://127.0.0.1/a', headers: {}, json: { method: 'tasks/cancel' } },
    timings: { startedAt: at(sentMs), totalMs: tookMs },
    response: {
      status: 200,
      headers: {},
      body: '',
      json: { jsonrpc: '2.0', id: 'c', error: { code: -32002 } },
    },
  } as Exchange;
}

function context(exchanges: Exchange[]): CheckContext {
  return { client: { exchanges: () => exchanges } } as unknown as CheckContext;
}

const timedOut = () => [
  event(10, 'submitted'),
  event(20, 'working'),
  event(2_020, 'canceled', 'system timeout'),
];

describe('endedBefore', () => {
  it('names the end the harness heard before the cancel left (the cancel waited on the pace)', () => {
    const c = cancel(4_000);
    const seen = endedBefore(context([stream(timedOut()), c]), { taskId: 't1' }, c);
    expect(seen).toMatch(
      /^the task was already canceled \(reason "system timeout"\), heard from its message\/stream events 1980 ms before the tasks\/cancel left/,
    );
    expect(seen).toContain('answered error -32002');
  });

  it('counts a system timeout that crossed the cancel on the wire', () => {
    const c = cancel(2_000, 50);
    expect(endedBefore(context([stream(timedOut()), c]), { taskId: 't1' }, c)).toMatch(
      /on its way \(30 ms before its answer\)/,
    );
  });

  it('leaves a refusal of a task still running when the cancel left a finding', () => {
    const c = cancel(500);
    expect(endedBefore(context([stream(timedOut()), c]), { taskId: 't1' }, c)).toBeUndefined();
    // An end heard after the cancel left that the timeout did not cause (the agent finished) is no excuse.
    const finished = [event(20, 'working'), event(502, 'completed')];
    expect(
      endedBefore(context([stream(finished), cancel(500, 10)]), { taskId: 't1' }, cancel(500, 10)),
    ).toBeUndefined();
  });

  it("another task's end is no excuse", () => {
    const c = cancel(4_000);
    expect(endedBefore(context([stream(timedOut()), c]), { taskId: 'other' }, c)).toBeUndefined();
  });
});

describe('readTooLate', () => {
  /** tasks/get sent at `sentMs`, answered 5 ms later with `state`. */
  function read(sentMs: number, state: string, reason?: string): Exchange {
    const status = reason === undefined ? { state } : { state, reason };
    return {
      id: `get-${sentMs}`,
      kind: 'http',
      request: { method: 'POST', url: 'http://127.0.0.1/a', headers: {}, json: { method: 'tasks/get' } },
      timings: { startedAt: at(sentMs), totalMs: 5 },
      response: {
        status: 200,
        headers: {},
        body: '',
        json: { jsonrpc: '2.0', id: 'g', result: { id: 't1', status } },
      },
    } as Exchange;
  }

  it('a read that left after the stream heard the system timeout', () => {
    const c = context([stream(timedOut()), read(3_000, 'canceled', 'system timeout')]);
    expect(readTooLate(c, { taskId: 't1' })).toMatch(
      /^the task was already canceled .* before the tasks\/get left/,
    );
  });

  it('a read that met the system timeout on the wire (no stream heard)', () => {
    const c = context([read(2_000, 'canceled', 'system timeout')]);
    expect(readTooLate(c, { taskId: 't1' })).toMatch(/on its way/);
  });

  it('a working read, or a final one no end explains, is left to the check', () => {
    expect(
      readTooLate(context([stream(timedOut()), read(500, 'working')]), { taskId: 't1' }),
    ).toBeUndefined();
    expect(readTooLate(context([read(500, 'completed')]), { taskId: 't1' })).toBeUndefined();
  });

  it('without a read, a final event on the stream the check watched (awaitStateOf)', () => {
    const watched = (events: ReturnType<typeof event>[]) =>
      ({ taskId: 't1', stream: { transcript: { exchangeId: 'ex-1', events } } }) as never;
    expect(readTooLate(context([]), watched(timedOut()))).toMatch(
      /^the task was already canceled \(reason "system timeout"\) on its stream/,
    );
    expect(readTooLate(context([]), watched(timedOut().slice(0, 2)))).toBeUndefined();
    // A read there was decides, as above: the stream does not override it.
    expect(readTooLate(context([read(500, 'submitted')]), watched(timedOut()))).toBeUndefined();
  });
});
