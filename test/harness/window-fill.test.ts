// The rate window filled ahead of the rate-limit burst (harness/runner/window-fill.ts): only when the
// pace is the card's and the run before the burst fits in a window, never more than the pace leaves
// beside what the checks have still to send, only in idle request slots, and it stops at a refusal.
import { afterEach, describe, expect, it } from 'vitest';
import { Governor } from '../../harness/io/traffic/governor.ts';
import type { Pace } from '../../harness/io/traffic/pace.ts';
import type { RunPlan } from '../../harness/runner/plan.ts';
import {
  FILL_HORIZON_MS,
  startWindowFill,
  windowFillGoal,
  type FillGoal,
} from '../../harness/runner/window-fill.ts';
import { startFixture, type Fixture } from './io/fixture-server.ts';

const CARD: Pace = { limit: 6_000, windowMs: 60_000, source: 'card' };

function planOf(aheadRequests: number, aheadMs: number, fits: RunPlan['fits'] = 'everything'): RunPlan {
  // windowFillGoal reads what runs before the burst and whether everything fits.
  return { fits, ahead: { requests: aheadRequests, turns: 0, ms: aheadMs } } as RunPlan;
}

const goalInput = { pace: CARD, plan: planOf(2_000, 20_000), burst: true, inWindow: 3 };

describe('how many requests the fill may send', () => {
  it('the pace the run keeps, less what the checks will send, a tenth of it and what the window holds', () => {
    // paceCap: 95% of 6,000.
    expect(windowFillGoal(goalInput)).toEqual({
      requests: 5_700 - 2_000 - 570 - 3,
      ahead: 2_000,
      margin: 570,
      cap: 5_700,
    });
  });

  it('none without a burst, under --rate, without a pace, or with a budget that does not fit everything', () => {
    expect(windowFillGoal({ ...goalInput, burst: false }).requests).toBe(0);
    expect(windowFillGoal({ ...goalInput, pace: { ...CARD, source: 'option' } }).requests).toBe(0);
    expect(windowFillGoal({ ...goalInput, pace: null }).requests).toBe(0);
    expect(windowFillGoal({ ...goalInput, plan: undefined }).requests).toBe(0);
    expect(windowFillGoal({ ...goalInput, plan: planOf(2_000, 20_000, 'coverage') }).requests).toBe(0);
    expect(windowFillGoal({ ...goalInput, plan: planOf(2_000, 20_000, 'part') }).requests).toBe(0);
  });

  it('none when the run before the burst may outlast the window (the fill would leave it first)', () => {
    expect(windowFillGoal({ ...goalInput, plan: planOf(2_000, FILL_HORIZON_MS) }).requests).toBeGreaterThan(
      0,
    );
    expect(windowFillGoal({ ...goalInput, plan: planOf(2_000, FILL_HORIZON_MS + 1) }).requests).toBe(0);
  });

  it('none above the limit the burst exercises (it is not sent)', () => {
    expect(windowFillGoal({ ...goalInput, pace: { ...CARD, limit: 6_001 } }).requests).toBe(0);
    expect(windowFillGoal({ ...goalInput, pace: { ...CARD, limit: 100_000 } }).requests).toBe(0);
  });

  it('none when the checks leave the pace too little room (a 600 a minute card)', () => {
    expect(windowFillGoal({ ...goalInput, pace: { ...CARD, limit: 600 } }).requests).toBe(0);
    expect(windowFillGoal({ ...goalInput, plan: planOf(5_100, 20_000) }).requests).toBe(0);
  });
});

let fixture: Fixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

const card = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { agent: { name: 'a' } } });

/** A card server: answers each request after `delayMs`, and with 429 once `refuseFrom` were served. */
async function cardServer(o: { delayMs?: number; refuseFrom?: number } = {}): Promise<Fixture> {
  let served = 0;
  fixture = await startFixture((_req, res) => {
    setTimeout(() => {
      if (o.refuseFrom !== undefined && served >= o.refuseFrom) {
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '30' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: -32012, message: 'rate limited' } }));
        return;
      }
      served += 1;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(card);
    }, o.delayMs ?? 0);
  });
  return fixture;
}

const goal = (requests: number, over: Partial<FillGoal> = {}): FillGoal => ({
  requests,
  ahead: 0,
  margin: 0,
  cap: 10_000,
  ...over,
});

function fillAt(f: Fixture, g: FillGoal, governor = new Governor({ pace: CARD, concurrency: 8 })) {
  const target = { baseUrl: f.url, agentId: 'a', auth: { apiKey: 'k' }, timeoutMs: 5_000 };
  return { governor, fill: startWindowFill({ goal: g, governor, target }) };
}

async function until(done: () => boolean, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!done()) {
    if (Date.now() > end) throw new Error('condition not met');
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('the fill', () => {
  it('sends card requests up to its goal, counted in its tally and in the pace window', async () => {
    const f = await cardServer();
    const { governor, fill } = fillAt(f, goal(40));
    await fill.done;
    const report = await fill.stop();
    expect(report).toMatchObject({ requests: 40, served: 40, goal: 40, ended: 'goal' });
    expect(f.seen).toHaveLength(40);
    expect(JSON.parse(f.seen[0]!.body.toString()).method).toBe('agent/authenticatedExtendedCard');
    expect(fill.tally.requests).toBe(40);
    expect(governor.inPaceWindow()).toBe(40);
  });

  it('stops at the first rate-limited answer', async () => {
    const f = await cardServer({ refuseFrom: 10 });
    const { fill } = fillAt(f, goal(1_000));
    await fill.done;
    const report = await fill.stop();
    expect(report.ended).toBe('refused');
    expect(report.served).toBe(10);
    // Lanes already under way when the refusal came end with theirs.
    expect(report.requests).toBeLessThanOrEqual(10 + 4);
  });

  it('leaves the pace room for what the checks have still to send', async () => {
    const f = await cardServer();
    // The checks will send 30 more of a pace of 100, and 10 stay free: the fill sends 60.
    const { fill } = fillAt(f, goal(1_000, { ahead: 30, margin: 10, cap: 100 }));
    await fill.done;
    const report = await fill.stop();
    expect(report.requests).toBe(60);
    expect(report.ended).toBe('goal');
  });

  it('sends only in idle request slots: none while the checks hold more than three quarters', async () => {
    const f = await cardServer();
    const governor = new Governor({ pace: CARD, concurrency: 8 });
    const held = await Promise.all(Array.from({ length: 7 }, () => governor.admit({ turn: false })));
    const { fill } = fillAt(f, goal(20), governor);
    await new Promise((r) => setTimeout(r, 100));
    expect(f.seen).toHaveLength(0);
    for (const release of held) release();
    await fill.done;
    expect((await fill.stop()).served).toBe(20);
  });

  it('stop() ends it with the requests in flight, before its goal', async () => {
    const f = await cardServer({ delayMs: 2_000 });
    const { governor, fill } = fillAt(f, goal(1_000));
    await until(() => governor.inFlightNow > 0);
    const t0 = Date.now();
    const report = await fill.stop();
    expect(Date.now() - t0).toBeLessThan(1_000);
    expect(report.ended).toBe('burst');
    expect(report.served).toBe(0);
    expect(governor.inFlightNow).toBe(0);
  });
});
