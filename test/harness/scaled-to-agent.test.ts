// What a length the harness scripts grows by (scaledToAgent, c.scaled): the agent's turn latency and
// what a request lately waited on its pace, capped by half its system timeout (C-05); and the pace
// wait the governor measures (PaceWindow.recentWaitMs) and hands to the suites' workers.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { scaledToAgent } from '../../harness/check/agent-time.ts';
import { Governor } from '../../harness/io/traffic/governor.ts';
import { FileLock, fileLockCalls } from '../../harness/runner/file-lock.ts';
import { RemoteGovernor, serveWorkerLink } from '../../harness/io/links/worker-link.ts';

describe('scaledToAgent', () => {
  it('leaves a length alone on a fast agent the run never waited for', () => {
    expect(scaledToAgent(300, { turnLatencyMs: 0 })).toBe(300);
    expect(scaledToAgent(300, { turnLatencyMs: 0, paceWaitMs: 0, systemTimeoutMs: 2_000 })).toBe(300);
  });

  it('grows a length by twice the turn latency, and never shortens it', () => {
    expect(scaledToAgent(300, { turnLatencyMs: 1500 })).toBe(3300);
    expect(scaledToAgent(2_000, { turnLatencyMs: 40 })).toBe(2_080);
    expect(scaledToAgent(300, { turnLatencyMs: -5, paceWaitMs: -5 })).toBe(300);
  });

  it("grows a length by what a request lately waited on the agent's pace", () => {
    // 60 requests/min, four workers: the next request reached the agent 45 s after the last one.
    expect(scaledToAgent(300, { turnLatencyMs: 20, paceWaitMs: 45_000, systemTimeoutMs: 300_000 })).toBe(
      45_340,
    );
    expect(scaledToAgent(1_000, { turnLatencyMs: 0, paceWaitMs: 2_500 })).toBe(3_500);
  });

  it("grows a length by the pace no further than the run's deadline", () => {
    const agent = { turnLatencyMs: 20, paceWaitMs: 45_000, systemTimeoutMs: 300_000 };
    // 10 s left of the run: a 45 s pace wait adds 10 s at most, so the run still ends by itself.
    expect(scaledToAgent(300, { ...agent, untilDeadlineMs: 10_000 })).toBe(10_340);
    expect(scaledToAgent(300, { ...agent, untilDeadlineMs: -5_000 })).toBe(340);
    expect(scaledToAgent(300, { ...agent, untilDeadlineMs: 60_000 })).toBe(45_340);
  });

  it("is grown no further than half the agent's system timeout, and never below the length", () => {
    expect(scaledToAgent(300, { turnLatencyMs: 0, paceWaitMs: 200_000, systemTimeoutMs: 300_000 })).toBe(
      150_000,
    );
    expect(scaledToAgent(300, { turnLatencyMs: 500, paceWaitMs: 5_000, systemTimeoutMs: 2_000 })).toBe(1_000);
    expect(scaledToAgent(3_000, { turnLatencyMs: 500, paceWaitMs: 5_000, systemTimeoutMs: 2_000 })).toBe(
      3_000,
    );
  });
});

describe("the governor's pace wait", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("grows by the probe's turn until the run's first turn is answered, then by the run's own", () => {
    const g = new Governor({ pace: null, concurrency: 8, probedTurnMs: 1_500 });
    expect(g.turnAllowanceMs()).toBe(1_500);
    g.total.turnLatencyMs.push(40);
    expect(g.turnAllowanceMs()).toBe(40);
    expect(new Governor({ pace: null, concurrency: 8 }).turnAllowanceMs()).toBe(0);
  });

  it('is 0 on an unpaced agent, however many requests went out', async () => {
    const g = new Governor({ pace: null, concurrency: 8 });
    for (let i = 0; i < 100; i += 1) (await g.admit({ turn: false }))();
    expect(g.paceWaitMs()).toBe(0);
  });

  it('is the longest wait of the pace window, a wait in progress included, and is forgotten after it', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'] });
    // 3 a second: the cap is 2, and a full window holds the next request for the window and its 1 s slack.
    const g = new Governor({ pace: { limit: 3, windowMs: 1_000, source: 'option' }, concurrency: 8 });
    (await g.admit({ turn: false }))();
    (await g.admit({ turn: false }))();
    expect(g.paceWaitMs()).toBe(0);
    const third = g.admit({ turn: false });
    await vi.advanceTimersByTimeAsync(500);
    expect(g.paceWaitMs()).toBe(500); // still waiting
    await vi.advanceTimersByTimeAsync(1_600);
    (await third)();
    const waited = g.paceWaitMs();
    expect(waited).toBeGreaterThanOrEqual(2_000);
    expect(waited).toBeLessThan(2_100);
    // A request let out at once afterwards does not hide the longer wait of the same window.
    await vi.advanceTimersByTimeAsync(1_500);
    expect(g.paceWaitMs()).toBe(waited);
    // One window (and its slack) after it, the wait no longer counts.
    await vi.advanceTimersByTimeAsync(600);
    expect(g.paceWaitMs()).toBe(0);
  });

  it("reaches the suites' workers with every answer of the link", async () => {
    const g = new Governor({ pace: { limit: 1, windowMs: 300, source: 'option' }, concurrency: 4 });
    const link = await serveWorkerLink(g, fileLockCalls(new FileLock()));
    try {
      const remote = new RemoteGovernor(link.url);
      expect(remote.paceWaitMs()).toBe(0);
      (await remote.admit({ turn: false }))();
      // The window holds one request: the second waits out the window and its slack (1.3 s).
      (await remote.admit({ turn: false }))();
      expect(remote.paceWaitMs()).toBeGreaterThanOrEqual(1_000);
      expect(remote.paceWaitMs()).toBe(g.paceWaitMs());
    } finally {
      await link.close();
    }
  });
});
