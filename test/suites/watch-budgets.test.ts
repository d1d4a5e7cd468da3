// The budgets of a stream that watches the rest of a task the harness scripted (suites/support/
// streams.ts watchBudgets): never shorter than the script, whatever the pace was when the watch opened.
// The live task's script was grown by a pace wait of ~54 s (a 600/min agent's window, filled by the
// rate-limit burst); its resubscribes, opened a moment later, were given the unpaced 3 s idle budget
// and ended before the task's first 27 s slice did.
import { describe, expect, it } from 'vitest';
import type { CheckContext } from '../../suites/support/index.ts';
import { STREAM_BUDGETS, watchBudgets, type StreamedTask } from '../../suites/support/streams.ts';

function context(grow: number): CheckContext {
  return { scaled: (ms: number) => ms + grow } as unknown as CheckContext;
}

function live(scriptedMs: number): StreamedTask {
  return { scriptedMs, scripted: scriptedMs > 0, taskId: 't' } as unknown as StreamedTask;
}

describe('watchBudgets', () => {
  it('waits one slice of the script between events, and the whole script in all', () => {
    expect(watchBudgets(context(0), live(54_000))).toEqual({
      firstEventMs: STREAM_BUDGETS.firstEventMs,
      idleMs: 27_000 + STREAM_BUDGETS.idleMs,
      totalMs: 54_000 + STREAM_BUDGETS.totalMs,
    });
  });

  it('keeps the stream budgets grown by the agent when they are longer, or nothing is scripted', () => {
    expect(watchBudgets(context(9_000), live(300))).toEqual({
      firstEventMs: STREAM_BUDGETS.firstEventMs + 9_000,
      idleMs: STREAM_BUDGETS.idleMs + 9_000,
      totalMs: STREAM_BUDGETS.totalMs + 9_000,
    });
    expect(watchBudgets(context(5_000), live(0))).toEqual({
      firstEventMs: STREAM_BUDGETS.firstEventMs + 5_000,
      idleMs: STREAM_BUDGETS.idleMs + 5_000,
      totalMs: STREAM_BUDGETS.totalMs + 5_000,
    });
  });
});
