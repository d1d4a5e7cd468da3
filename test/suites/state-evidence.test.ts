// The state checks grade what the agent showed, not the harness's windows (suites/support/tasks.ts,
// live-tasks.ts, streams.ts): a stream the harness cut short is no evidence of a missing state, a task
// still submitted or working when the harness stopped watching is not-exercised, and every window and
// scripted length grows with the agent's measured turn latency (c.scaled, harness/check/context.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCheck } from '../../harness/check/run-check.ts';
import { scaledToAgent } from '../../harness/check/agent-time.ts';
import { CheckRecorder } from '../../harness/check/recorder.ts';
import { runGovernor } from '../../harness/check/run-governor.ts';
import { emptyTranscript } from '../../harness/io/target/sse-transcript.ts';
import type { SseEvent, StreamTranscript } from '../../core/evidence.ts';
import type { SseStream } from '../../harness/io/target/sse-reader.ts';
import { FULL_SPEED, type ProvidedRun } from '../../harness/provided.ts';
import { testRequirement, testRun } from '../support/check-run.ts';
import type { CheckContext } from '../../suites/support/index.ts';
import { requireWorking } from '../../suites/support/live-tasks.ts';
import {
  checkSeenStates,
  checkStreamStates,
  liveDelayMs,
  streamBudgets,
  streamSeen,
  type StreamSeen,
} from '../../suites/support/streams.ts';
import { awaitState, awaitStateOf, notSeenIn } from '../../suites/support/tasks.ts';
import { startFixture, type Fixture } from '../harness/fixtures/jsonrpc-fixture.ts';

const EXPECTED = ['submitted', 'working', 'canceled'];

function event(index: number, state: string, final = false): SseEvent {
  return {
    index,
    data: '',
    json: { jsonrpc: '2.0', id: 1, result: { id: 't1', status: { state }, final } },
    isFinal: final,
    isError: false,
    atMs: index * 10,
  } as unknown as SseEvent;
}

/** A finished stream of these states, ended as `how` says (a final event when the last is final). */
function stream(states: string[], how: Partial<StreamTranscript>): SseStream {
  const t: StreamTranscript = { ...emptyTranscript('ex-1'), ...how };
  t.events = states.map((s, i) => event(i, s, ['completed', 'failed', 'canceled'].includes(s)));
  const last = t.events.at(-1);
  t.finalIndex = last?.isFinal === true ? last.index : null;
  return { transcript: t, done: Promise.resolve(t) } as unknown as SseStream;
}

const CUT_BY_BUDGET = { closedBy: 'budget', budgetExceeded: 'total' } as const;
const CLOSED_BY_AGENT = { closedBy: 'server', closedByServer: true } as const;
const ENDED = { closedBy: 'server', closedByServer: true } as const;

/** A context over a real recorder; `turnMs` stands for the agent's measured turn latency. */
function context(recorder: CheckRecorder, turnMs = 0, states: string[] = []): CheckContext {
  let read = 0;
  return {
    check: (label: string, actual: unknown, expected: unknown) => recorder.check(label, actual, expected),
    require: (label: string, actual: unknown, expected: unknown) => recorder.require(label, actual, expected),
    info: (message: string, data?: unknown) => recorder.info(message, data),
    notExercised: (reason: string) => recorder.notExercised(reason),
    turnLatencyMs: () => turnMs,
    pollIntervalMs: () => 0,
    scaled: (ms: number) => scaledToAgent(ms, { turnLatencyMs: turnMs }),
    rpc: async () => {
      const state = states[Math.min(read, states.length - 1)];
      read += 1;
      return {
        response: {
          status: 200,
          headers: {},
          body: '',
          json: { jsonrpc: '2.0', id: 1, result: { id: 't1', status: { state } } },
        },
      };
    },
  } as unknown as CheckContext;
}

async function outcome(
  fn: (c: CheckContext, r: CheckRecorder) => Promise<unknown> | unknown,
  c?: CheckContext,
) {
  const r = new CheckRecorder();
  let thrown: unknown;
  try {
    await fn(c ?? context(r), r);
  } catch (e) {
    thrown = e;
  }
  return { ...r.finish(thrown), notes: r.notes };
}

describe('checkStreamStates: no fail without a violating exchange', () => {
  it('a stream the harness cut short after a beginning that agrees is noted, not failed', async () => {
    const o = await outcome((c) =>
      checkStreamStates(c, 'stream states', stream(['submitted'], CUT_BY_BUDGET), EXPECTED),
    );
    expect(o.status).toBe('not-exercised'); // nothing was asserted: no pass either
    expect(o.notes.join()).toMatch(/\["submitted"\] before the harness's total budget ran out/);
  });

  it('a state out of line fails even in a cut stream', async () => {
    const cut = stream(['submitted', 'completed'], { ...CUT_BY_BUDGET });
    cut.transcript.finalIndex = null;
    const o = await outcome((c) => checkStreamStates(c, 'stream states', cut, EXPECTED));
    expect(o.status).toBe('fail');
    expect(o.actual).toEqual(['submitted', 'completed']);
  });

  it('a stream the agent closed before its final event, or a complete one that differs, fails', async () => {
    const closed = await outcome((c) =>
      checkStreamStates(c, 'stream states', stream(['submitted'], CLOSED_BY_AGENT), EXPECTED),
    );
    expect(closed.status).toBe('fail');
    const other = await outcome((c) =>
      checkStreamStates(c, 'stream states', stream(['submitted', 'completed'], ENDED), EXPECTED),
    );
    expect(other.status).toBe('fail');
    const same = await outcome((c) =>
      checkStreamStates(c, 'stream states', stream(['submitted', 'working', 'canceled'], ENDED), EXPECTED),
    );
    expect(same.status).toBe('pass');
  });

  it('streamSeen says why a stream stopped short', async () => {
    const seen: StreamSeen = await streamSeen(stream(['submitted'], { closedBy: 'client' }));
    expect(seen).toMatchObject({ complete: false, whole: false, cut: 'the harness closed it' });
    const r = new CheckRecorder();
    expect(checkSeenStates(context(r), 'x', seen, ['submitted', 'canceled'])).toBe(true);
    expect(r.assertions).toHaveLength(0);
  });
});

describe('windows the harness chose are no evidence of absence', () => {
  it('notSeenIn ends the check not-exercised, naming what was seen and the window', async () => {
    const o = await outcome((c) => notSeenIn(c, 'its start once a slot freed', 'submitted', 5_000));
    expect(o.status).toBe('not-exercised');
    expect(o.message).toMatch(/still submitted 5000 ms into the harness's wait for its start/);
  });

  it('requireWorking: a task still submitted when the window ended is not-exercised, not failed', async () => {
    const r = new CheckRecorder();
    const c = context(r, 0, ['submitted']);
    const scaled: number[] = [];
    (c as { scaled: (ms: number) => number }).scaled = (ms) => (scaled.push(ms), 0);
    const o = await outcome(() => requireWorking(c, { taskId: 't1' }, 300), c);
    expect(o.status).toBe('not-exercised');
    // The window was grown by the agent's turn latency (c.scaled) before it was used.
    expect(scaled).toContain(3_000);
  });

  it('requireWorking: another state than working after submitted still fails', async () => {
    const r = new CheckRecorder();
    const o = await outcome(
      () => requireWorking(context(r, 0, ['bogus']), { taskId: 't1' }, 300),
      context(r),
    );
    expect(o.status).toBe('fail');
  });

  it('awaitState grows its window by the turn latency', async () => {
    const r = new CheckRecorder();
    const c = context(r, 0, ['working']);
    const asked: number[] = [];
    (c as { scaled: (ms: number) => number }).scaled = (ms) => (asked.push(ms), 0);
    await awaitState(c, 't1', (s) => s === 'completed', 2_000);
    expect(asked).toEqual([2_000]);
  });
});

/** A stream of these states that stays open (`open`) or has ended, read as a live task's stream. */
function liveStream(states: string[], open: boolean): SseStream {
  const t = stream(states, open ? {} : ENDED).transcript;
  return {
    transcript: t,
    done: new Promise(() => {}),
    async *events() {
      yield* t.events;
      if (open) await new Promise(() => {});
    },
  } as unknown as SseStream;
}

/** context() that counts its tasks/get reads. */
function counted(states: string[]): { c: CheckContext; reads: () => number } {
  const c = context(new CheckRecorder(), 0, states);
  let reads = 0;
  const rpc = c.rpc.bind(c);
  Object.assign(c, {
    signal: new AbortController().signal,
    rpc: (...args: Parameters<CheckContext['rpc']>) => ((reads += 1), rpc(...args)),
  });
  return { c, reads: () => reads };
}

describe("a precondition's wait reads the task's own stream first (awaitStateOf)", () => {
  const started = (s: unknown): boolean => s !== 'submitted';

  it('a stream showing working answers without a request', async () => {
    const { c, reads } = counted(['submitted']);
    const task = { taskId: 't1', stream: liveStream(['submitted', 'working'], true) };
    expect(await awaitStateOf(c, task, started, 50)).toBe('working');
    expect(reads()).toBe(0);
  });

  it("the stream's newest state counts, not the first one accepted", async () => {
    const { c, reads } = counted([]);
    const task = { taskId: 't1', stream: liveStream(['submitted', 'working', 'completed'], false) };
    expect(await awaitStateOf(c, task, started, 50)).toBe('completed');
    expect(reads()).toBe(0);
  });

  it('a stream silent past the window leaves the answer to tasks/get', async () => {
    const { c, reads } = counted(['working']);
    const task = { taskId: 't1', stream: liveStream(['submitted'], true) };
    expect(await awaitStateOf(c, task, started, 30)).toBe('working');
    expect(reads()).toBe(1);
  });

  it('without a stream it polls tasks/get as awaitState does', async () => {
    const { c, reads } = counted(['submitted', 'submitted', 'working']);
    expect(await awaitStateOf(c, { taskId: 't1' }, started, 2_000)).toBe('working');
    expect(reads()).toBe(3);
  });
});

describe('scripted lengths grow with the turn latency', () => {
  it("a live task's delay and the area's stream budgets", () => {
    const c = context(new CheckRecorder(), 1_500);
    expect(liveDelayMs(c)).toBe(3_300);
    expect(streamBudgets(c)).toEqual({ firstEventMs: 6_000, idleMs: 6_000, totalMs: 11_000 });
    expect(liveDelayMs(context(new CheckRecorder(), 0))).toBe(300);
  });
});

describe('c.scaled reads the turn latency the run measured', () => {
  let fx: Fixture;
  let run: ProvidedRun;
  const requirement = testRequirement();

  beforeAll(async () => {
    fx = await startFixture();
    // Its own deadline makes its own governor (sharedGovernor's key).
    run = testRun(fx, { field: { ...FULL_SPEED, deadlineAt: Date.now() + 3_600_000 } });
  });
  afterAll(async () => {
    await fx.close();
  });

  it('0 before any turn, twice the p95 of the turns answered after', async () => {
    const seen: number[] = [];
    const spec = {
      requirement,
      title: 'reads the scale',
      fn: (c: CheckContext) => {
        seen.push(c.turnLatencyMs(), c.scaled(300));
        c.check('ran', true, true);
      },
    };
    await runCheck(spec, run);
    const governor = runGovernor(run);
    for (let i = 0; i < 20; i += 1) governor.turnAnswered(1_500, undefined);
    await runCheck(spec, run);
    expect(seen).toEqual([0, 300, 1_500, 3_300]);
  });
});
