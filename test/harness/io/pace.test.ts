// The pace (pace.ts) under the run's governor: at most the cap in a sliding window, the run's budget,
// requests that bypass it, and the cap on requests in flight (slots.ts).
import { describe, expect, it } from 'vitest';
import { Governor, RunBudgetError } from '../../../harness/io/traffic/governor.ts';
import {
  describePace,
  PaceBudgetError,
  paceBudgetOptions,
  paceCap,
  PaceWindow,
  requestsPerMinute,
} from '../../../harness/io/traffic/pace.ts';

describe('pace', () => {
  it('keeps at most the cap in a window and waits for the oldest to leave it', async () => {
    // 20 a second: the cap is 19, so the 20th request waits for the window (plus its slack).
    const g = new Governor({ pace: { limit: 20, windowMs: 1000, source: 'option' }, concurrency: 64 });
    expect(paceCap({ limit: 20, windowMs: 1000, source: 'option' })).toBe(19);
    const t0 = Date.now();
    const sent: number[] = [];
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        const release = await g.admit({ turn: false });
        sent.push(Date.now() - t0);
        release();
      }),
    );
    sent.sort((a, b) => a - b);
    expect(sent[18]!).toBeLessThan(900);
    expect(sent[19]!).toBeGreaterThanOrEqual(1900);
    expect(g.total.requests).toBe(20);
    expect(g.heldBackMs()).toBeGreaterThanOrEqual(1900);
  });

  it('refuses a wait that would end after the run deadline', async () => {
    const g = new Governor({
      pace: { limit: 1, windowMs: 60_000, source: 'card' },
      concurrency: 4,
      deadlineAt: Date.now() + 5_000,
    });
    (await g.admit({ turn: true }))();
    await expect(g.admit({ turn: false })).rejects.toBeInstanceOf(PaceBudgetError);
    expect(g.total.agentTurns).toBe(1);
  });

  it('refuses a request let out past the deadline with no wait ahead as the run budget, not the pace', async () => {
    // One slot: the second request waits for it, not for the pace, and leaves after the deadline.
    const g = new Governor({
      pace: { limit: 1000, windowMs: 60_000, source: 'card' },
      concurrency: 1,
      deadlineAt: Date.now() + 50,
    });
    const first = await g.admit({ turn: false });
    const second = g.admit({ turn: false }).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 100));
    first();
    const e = await second;
    expect(e).toBeInstanceOf(RunBudgetError);
    expect((e as Error).message).toMatch(/--budget-ms/);
  });

  it('names --profile smoke as a way out only to a run not already in it', async () => {
    const refusal = async (profile: 'smoke' | 'standard'): Promise<string> => {
      const g = new Governor({
        pace: { limit: 1, windowMs: 60_000, source: 'card' },
        concurrency: 4,
        deadlineAt: Date.now() + 5_000,
        profile,
      });
      (await g.admit({ turn: false }))();
      const e: unknown = await g.admit({ turn: false }).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(PaceBudgetError);
      return (e as Error).message;
    };
    const smoke = await refusal('smoke');
    expect(smoke).toMatch(/a larger --budget-ms or a higher --rate would exercise it/);
    expect(smoke).not.toMatch(/--profile smoke/);
    expect(await refusal('standard')).toMatch(/--budget-ms, --profile smoke or a higher --rate/);
    expect(paceBudgetOptions('smoke')).toBe('--budget-ms or --rate');
    expect(paceBudgetOptions('full')).toBe('--budget-ms, --rate or --profile smoke');
  });

  it('a bypassing request goes out at once but counts in the window', async () => {
    const g = new Governor({
      pace: { limit: 1, windowMs: 60_000, source: 'card' },
      concurrency: 4,
      deadlineAt: Date.now() + 1000,
    });
    (await g.admit({ turn: false, bypass: true }))();
    (await g.admit({ turn: false, bypass: true }))();
    await expect(g.admit({ turn: false })).rejects.toBeInstanceOf(PaceBudgetError);
  });

  it('keeps room for follow-ups: the request waits for it, counts it, and the prepaid ones go at once', async () => {
    // 4 a minute: the cap is 3. A wait would end after the deadline, so it is refused at once.
    const paced = (): Governor =>
      new Governor({
        pace: { limit: 4, windowMs: 60_000, source: 'card' },
        concurrency: 8,
        deadlineAt: Date.now() + 1000,
      });
    const full = paced();
    (await full.admit({ turn: false }))();
    // One sent: no room for this one and two more.
    await expect(full.admit({ turn: true, keep: 2 })).rejects.toBeInstanceOf(PaceBudgetError);
    const g = paced();
    (await g.admit({ turn: true, keep: 2 }))();
    // The two kept places count in the window: a plain request finds it full...
    await expect(g.admit({ turn: false })).rejects.toBeInstanceOf(PaceBudgetError);
    // ...while the follow-ups they were kept for go at once, queued behind no one.
    (await g.admit({ turn: false, prepaid: true }))();
    (await g.admit({ turn: false, prepaid: true }))();
    expect(g.total.requests).toBe(3);
    // More than the cap is never asked: the room is the cap at most.
    (await paced().admit({ turn: false, keep: 10 }))();
  });

  it('holds a prepaid request for a Retry-After pause, refused when it would end after the deadline', async () => {
    const pace = { limit: 4, windowMs: 60_000, source: 'card' as const };
    const window = new PaceWindow({ pace, deadlineAt: Date.now() + 1000 });
    const waits: number[] = [];
    const wait = async (ms: number): Promise<void> => void waits.push(ms);
    await window.prepaid(wait);
    expect(waits).toEqual([]);
    window.pauseUntil(Date.now() + 500);
    await window.prepaid(wait);
    expect(waits).toHaveLength(1);
    expect(waits[0]!).toBeGreaterThan(0);
    window.pauseUntil(Date.now() + 5_000);
    await expect(window.prepaid(wait)).rejects.toBeInstanceOf(PaceBudgetError);
  });

  it('caps requests in flight', async () => {
    const g = new Governor({ pace: null, concurrency: 2 });
    const a = await g.admit({ turn: false });
    const b = await g.admit({ turn: false });
    let third = false;
    const c = g.admit({ turn: false }).then((r) => {
      third = true;
      return r;
    });
    await new Promise((r) => setTimeout(r, 50));
    expect(third).toBe(false);
    a();
    (await c)();
    b();
    expect(third).toBe(true);
    expect(g.total.maxInFlight).toBe(2);
  });
});

describe("the run's budget (--budget-ms)", () => {
  it('admits no request after it ends, one that waited for a slot included', async () => {
    const g = new Governor({ pace: null, concurrency: 1, endsAt: Date.now() + 150 });
    const first = await g.admit({ turn: false });
    const waiting = g.admit({ turn: false });
    await new Promise((r) => setTimeout(r, 250));
    first();
    await expect(waiting).rejects.toBeInstanceOf(RunBudgetError);
    await expect(g.admit({ turn: false, bypass: true })).rejects.toThrow(/run budget spent.*--budget-ms/);
    expect(g.total.requests).toBe(1);
    // The refused request gave its slot back.
    expect(g.inFlightNow).toBe(0);
  });
});

describe('how a pace reads', () => {
  it('per second, minute or hour, else in ms; and as requests per minute', () => {
    expect(describePace({ limit: 60, windowMs: 60_000, source: 'card' })).toBe('60/m');
    expect(describePace({ limit: 5, windowMs: 1000, source: 'option' })).toBe('5/s');
    expect(describePace({ limit: 5, windowMs: 1500, source: 'option' })).toBe('5 requests per 1500 ms');
    expect(requestsPerMinute({ limit: 5, windowMs: 1000, source: 'option' })).toBe(300);
    expect(requestsPerMinute(null)).toBeNull();
  });
});

describe('a governor that stops admitting (an interrupt of the run)', () => {
  it('refuses every request after it, and ends the waits on the pace at once', async () => {
    const g = new Governor({ pace: { limit: 1, windowMs: 60_000, source: 'option' }, concurrency: 8 });
    (await g.admit({ turn: false }))();
    // The window is full for a minute: the next request waits on the pace.
    const waiting = g.admit({ turn: false });
    g.stopAdmitting('interrupted (SIGINT): no request is sent after it');
    const refused = await waiting.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(RunBudgetError);
    expect((refused as RunBudgetError).interrupted).toBe(true);
    await expect(g.admit({ turn: false })).rejects.toThrow(/^interrupted \(SIGINT\)/);
    expect(new RunBudgetError().interrupted).toBe(false);
  });
});
