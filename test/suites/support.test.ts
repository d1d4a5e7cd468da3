// The suites' helpers where two drifted copies were reconciled into one (suites/support): a card limit
// is a positive integer (C-46), a wait for a task state stops when its check is aborted, the error of
// an answer is read the same way from a plain JSON body and from an SSE stream's first event (C-26),
// a schema check names its schema, and a file's shared sample is made once and noted by later checks.
import { describe, expect, it } from 'vitest';
import type { AnsweredExchange, CheckContext } from '../../suites/support/index.ts';
import type { Answer } from '../../suites/support/calls.ts';
import { cardLimit, streamingClaimed } from '../../suites/support/card.ts';
import { answerError } from '../../suites/support/errors.ts';
import { NoAnswerError } from '../../harness/check/index.ts';
import type { Exchange } from '../../core/evidence.ts';
import { keptUnlessFault } from '../../suites/support/made-once.ts';
import { sharedSample } from '../../suites/support/samples.ts';
import { checkSchema, requireObject } from '../../suites/support/schemas.ts';
import { awaitState } from '../../suites/support/tasks.ts';

function withCard(card: unknown): CheckContext {
  return { card } as unknown as CheckContext;
}

function exchange(body: string, json?: unknown): AnsweredExchange {
  return { response: { status: 200, headers: {}, body, json } } as unknown as AnsweredExchange;
}

describe('cardLimit (C-46: the card reports its limits as positive integers)', () => {
  it('reads a positive integer', () => {
    const c = withCard({ limits: { concurrentTasks: 3, systemTimeoutMs: 300_000 } });
    expect(cardLimit(c, 'concurrentTasks')).toBe(3);
    expect(cardLimit(c, 'systemTimeoutMs')).toBe(300_000);
  });

  it('takes a fractional, zero, negative or non-number value as no limit reported', () => {
    for (const value of [2.5, 0.5, 0, -4, '3', null]) {
      expect(cardLimit(withCard({ limits: { concurrentTasks: value } }), 'concurrentTasks')).toBeUndefined();
    }
    expect(cardLimit(withCard({}), 'requestsPerMinute')).toBeUndefined();
    expect(cardLimit(withCard(null), 'requestsPerMinute')).toBeUndefined();
  });
});

describe('streamingClaimed (C-41)', () => {
  it('only capabilities.streaming false denies streaming', () => {
    expect(streamingClaimed(withCard({ capabilities: { streaming: false } }))).toBe(false);
    expect(streamingClaimed(withCard({ capabilities: { streaming: true } }))).toBe(true);
    expect(streamingClaimed(withCard({ capabilities: {} }))).toBe(true);
    expect(streamingClaimed(withCard(null))).toBe(true);
  });
});

describe('awaitState', () => {
  it('stops polling once the check is aborted, whatever its window', async () => {
    const controller = new AbortController();
    let reads = 0;
    const c = {
      scaled: (ms: number) => ms,
      pollIntervalMs: () => 0,
      signal: controller.signal,
      rpc: async () => {
        reads += 1;
        if (reads === 2) controller.abort();
        return exchange('', { jsonrpc: '2.0', id: 1, result: { id: 't1', status: { state: 'working' } } });
      },
    } as unknown as CheckContext;
    const t0 = Date.now();
    const task = await awaitState(c, 't1', (s) => s === 'completed', 60_000);
    expect(reads).toBe(2);
    expect(task?.status).toEqual({ state: 'working' });
    expect(Date.now() - t0).toBeLessThan(10_000);
  });

  it('returns the first task whose state is accepted', async () => {
    const states = ['submitted', 'working', 'completed'];
    let reads = 0;
    const c = {
      scaled: (ms: number) => ms,
      pollIntervalMs: () => 0,
      signal: new AbortController().signal,
      rpc: async () => {
        const state = states[Math.min(reads, states.length - 1)];
        reads += 1;
        return exchange('', { jsonrpc: '2.0', id: 1, result: { id: 't1', status: { state } } });
      },
    } as unknown as CheckContext;
    const task = await awaitState(c, 't1', (s) => s === 'working', 5_000);
    expect(task?.status).toEqual({ state: 'working' });
    expect(reads).toBe(2);
  });

  it("polls no faster than the check's share of the agent's pace", async () => {
    const at: number[] = [];
    const c = {
      scaled: (ms: number) => ms,
      pollIntervalMs: () => 150,
      signal: new AbortController().signal,
      rpc: async () => {
        at.push(Date.now());
        return exchange('', { jsonrpc: '2.0', id: 1, result: { id: 't1', status: { state: 'working' } } });
      },
    } as unknown as CheckContext;
    await awaitState(c, 't1', (s) => s === 'completed', 400);
    // 20 ms apart without the pace (20 reads in 400 ms); 150 ms apart with it.
    expect(at.length).toBeLessThanOrEqual(4);
    for (let i = 1; i < at.length; i += 1) expect(at[i]! - at[i - 1]!).toBeGreaterThanOrEqual(145);
  });
});

describe('answerError (C-26: an error as plain JSON or as one SSE event)', () => {
  const error = { code: -32001, message: 'Task not found' };

  it('reads a plain JSON body and an SSE body of a recorded exchange', () => {
    expect(answerError(exchange('', { jsonrpc: '2.0', id: 1, error }))).toEqual(error);
    const sse = `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: 1, error })}\n\n`;
    expect(answerError(exchange(sse))).toEqual(error);
    expect(answerError(exchange('', { jsonrpc: '2.0', id: 1, result: {} }))).toBeUndefined();
  });

  it('reads an answer() of a plain or a streaming method alike', () => {
    const plain = { json: { jsonrpc: '2.0', id: 1, error }, eventStream: false, served: false } as Answer;
    const streamed = { json: [{ jsonrpc: '2.0', id: 1, error }], eventStream: true, served: false } as Answer;
    expect(answerError(plain)).toEqual(error);
    expect(answerError(streamed)).toEqual(error);
    const notAnObject = { json: { jsonrpc: '2.0', id: 1, error: 'no' }, eventStream: false, served: false };
    expect(answerError(notAnObject as Answer)).toBeUndefined();
  });
});

interface Recorded {
  label: string;
  actual: unknown;
  expected: unknown;
}

function recordingContext(
  id: string,
  infos: string[] = [],
  checks: Recorded[] = [],
  sent: unknown[] = [],
  cited: unknown[] = [],
  /** The maker's signal of each wait on what another check made (c.awaitShared). */
  awaited: unknown[] = [],
  signal = new AbortController().signal,
): CheckContext {
  return {
    requirement: { id },
    signal,
    awaitShared: (made: Promise<unknown>, maker: AbortSignal) => (awaited.push(maker), made),
    exchanges: () => [...sent],
    cite: (exchanges: unknown[]) => cited.push(...exchanges),
    info: (text: string) => infos.push(text),
    check: (label: string, actual: unknown, expected: { describe?: () => string; test?: unknown }) => {
      checks.push({ label, actual, expected });
      return actual === 'valid';
    },
  } as unknown as CheckContext;
}

describe('checkSchema', () => {
  it('records valid, or the issues, under a label naming the schema', () => {
    const checks: Recorded[] = [];
    const c = recordingContext('2.7/task', [], checks);
    expect(checkSchema(c, 'text-part', { type: 'text', text: 'hi' }, 'part')).toBe(true);
    expect(checkSchema(c, 'text-part', { type: 'text' })).toBe(false);
    expect(checks[0]).toMatchObject({ label: 'part: valid against schemas/text-part.schema.json' });
    expect(checks[0]!.actual).toBe('valid');
    expect(checks[1]!.label).toBe('valid against schemas/text-part.schema.json');
    expect(Array.isArray(checks[1]!.actual)).toBe(true);
  });
});

describe('sharedSample', () => {
  it('is made once, by the first check that asks; later checks await it apart from their budget, note where it came from and cite its exchanges', async () => {
    let made = 0;
    const earlier = { id: 'ex-0' };
    const sent: unknown[] = [earlier];
    const sample = sharedSample('a finished task', { requests: 1, turns: 1 }, async () => {
      made += 1;
      sent.push({ id: 'ex-1' }, { id: 'ex-2' });
      return 'task-1';
    });
    const first: string[] = [];
    const later: string[] = [];
    const firstCited: unknown[] = [];
    const laterCited: unknown[] = [];
    const firstAwaited: unknown[] = [];
    const laterAwaited: unknown[] = [];
    const maker = new AbortController().signal;
    await expect(
      sample(recordingContext('3/final', first, [], sent, firstCited, firstAwaited, maker)),
    ).resolves.toBe('task-1');
    await expect(sample(recordingContext('4.3/get', later, [], [], laterCited, laterAwaited))).resolves.toBe(
      'task-1',
    );
    expect(made).toBe(1);
    // The later check waits without spending its budget, and stops should the maker's budget end.
    expect(firstAwaited).toEqual([]);
    expect(laterAwaited).toEqual([maker]);
    expect(first).toEqual([]);
    expect(firstCited).toEqual([]);
    expect(later).toEqual([
      "a finished task: the file's shared sample, first recorded as evidence by the check of 3/final",
    ]);
    // The exchanges made while the sample was made, not those the first check sent before.
    expect(laterCited).toEqual([{ id: 'ex-1' }, { id: 'ex-2' }]);
  });

  it('is made again by the next check that asks when making it met a transport fault', async () => {
    let made = 0;
    const sample = sharedSample('a reset sample', { requests: 1, turns: 1 }, async () => {
      made += 1;
      if (made === 1) throw reset();
      return 'task-2';
    });
    await expect(sample(recordingContext('3/final', [], [], [], []))).rejects.toThrow(NoAnswerError);
    await expect(sample(recordingContext('3/final', [], [], [], []))).resolves.toBe('task-2');
    expect(made).toBe(2);
  });
});

/** A NoAnswerError as a reset message/send gives it. */
function reset(): NoAnswerError {
  return new NoAnswerError({
    request: { method: 'POST', url: 'http://127.0.0.1:1/a2a' },
    error: { kind: 'reset', message: 'read ECONNRESET' },
  } as unknown as Exchange);
}

describe("keptUnlessFault (a file's shared answers)", () => {
  it('sends once and shares the answer; forgets one that met a fault, keeps any other', async () => {
    const kept = new Map<string, Promise<string>>();
    let sent = 0;
    const send = (outcome: 'answer' | 'fault' | 'refused') => async () => {
      sent += 1;
      if (outcome === 'fault') throw reset();
      if (outcome === 'refused') throw new Error('not exercised');
      return `answer ${sent}`;
    };
    const first = keptUnlessFault(kept, 'k', send('answer'));
    expect(first.shared).toBe(false);
    await expect(first.answer).resolves.toBe('answer 1');
    const again = keptUnlessFault(kept, 'k', send('answer'));
    expect(again.shared).toBe(true);
    await expect(again.answer).resolves.toBe('answer 1');
    // A fault is no answer to share: the next ask (a case run again) sends anew.
    await expect(keptUnlessFault(kept, 'f', send('fault')).answer).rejects.toThrow(NoAnswerError);
    const resent = keptUnlessFault(kept, 'f', send('answer'));
    expect(resent.shared).toBe(false);
    await expect(resent.answer).resolves.toBe('answer 3');
    await expect(keptUnlessFault(kept, 'r', send('refused')).answer).rejects.toThrow('not exercised');
    await expect(keptUnlessFault(kept, 'r', send('answer')).answer).rejects.toThrow('not exercised');
    expect(sent).toBe(4);
  });
});

describe('requireObject', () => {
  it("records the value's JSON type under the label and returns the object; anything else ends the check", () => {
    const required: Array<[string, unknown, unknown]> = [];
    const c = {
      require: (label: string, actual: unknown, expected: unknown) => {
        required.push([label, actual, expected]);
        if (actual !== expected) throw new Error(`${label}: ${String(actual)}`);
      },
    } as unknown as CheckContext;
    const task = { id: 't1' };
    expect(requireObject(c, 'type of result', task)).toBe(task);
    expect(() => requireObject(c, 'type of result', [task])).toThrow('type of result: array');
    expect(() => requireObject(c, 'type of result', undefined)).toThrow();
    expect(required.slice(0, 2)).toEqual([
      ['type of result', 'object', 'object'],
      ['type of result', 'array', 'object'],
    ]);
  });
});
