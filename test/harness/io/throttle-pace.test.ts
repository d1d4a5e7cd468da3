// The pace below the card's (harness/io/traffic/throttle-pace.ts): a throttle halves the rate the run
// was sending at, once per episode, never below the floor; each answer lets it climb by one over
// itself, and it no longer applies once back at the card's pace. On loopback: a gateway throttle
// the card does not announce (bench/field/front.ts) refuses far fewer requests once the run slows.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { answerAsFront, Front } from '../../../bench/field/front.ts';
import { completeAnswer } from '../../../harness/io/target/faults.ts';
import { Governor } from '../../../harness/io/traffic/governor.ts';
import { UnavailableBackoff } from '../../../harness/io/traffic/rate-limited.ts';
import { ThrottlePace } from '../../../harness/io/traffic/throttle-pace.ts';
import { fixtureClients } from '../../support/fixture-client.ts';

/** A pace that sent `n` requests in the second before `at`. */
function sentBefore(p: ThrottlePace, n: number, at: number): void {
  for (let i = 0; i < n; i += 1) expect(p.leaveNow(at - 900 + (i * 800) / n)).toBe(true);
}

const refuse = (ms: number): Error => new Error(`late by ${ms} ms`);

/** Queues a request at the throttled pace; records when (fake clock) it was let out, or its refusal. */
function queued(
  p: ThrottlePace,
  name: string,
  log: string[],
  o: { first?: boolean; deadline?: number } = {},
) {
  return p.turn({ first: () => o.first ?? false, deadline: o.deadline, refuse }).then(
    () => log.push(`${name}@${Date.now()}`),
    (e: Error) => log.push(`${name}: ${e.message}`),
  );
}

describe('the throttled pace (AIMD)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('does not apply until a throttle answers', () => {
    let pause = 0;
    const p = new ThrottlePace(
      () => 100,
      () => pause,
    );
    sentBefore(p, 50, 10_000);
    expect(p.leaveNow(10_000)).toBe(true);
    expect(p.leaveNow(10_000)).toBe(true);
    // Never before a Retry-After pause ends.
    pause = 10_400;
    expect(p.waitMs(10_000, false)).toBe(400);
    expect(p.leaveNow(10_000)).toBe(false);
    expect(p.state()).toEqual({ ratePerS: undefined, decreases: 0, lowestPerS: undefined, firstLetOut: 0 });
  });

  it('halves the rate the run was sending at, and spaces requests by it', () => {
    const p = new ThrottlePace(() => 100);
    sentBefore(p, 40, 10_000);
    p.throttled(10_000, 11_000);
    expect(p.state().ratePerS).toBe(20);
    expect(p.leaveNow(12_000)).toBe(true);
    // The next turn comes 50 ms after the last request left.
    expect(p.leaveNow(12_000)).toBe(false);
    expect(p.waitMs(12_000, false)).toBe(50);
    expect(p.waitMs(12_030, false)).toBe(20);
    expect(p.leaveNow(12_500)).toBe(true);
  });

  it('lets queued requests out one gap apart, in order, a follow-up on a held task ahead of the rest', async () => {
    vi.useFakeTimers({ now: 12_000 });
    const p = new ThrottlePace(() => 100);
    sentBefore(p, 40, 12_000);
    p.throttled(12_000, 12_000);
    expect(p.leaveNow(12_000)).toBe(true);
    const log: string[] = [];
    const all = [queued(p, 'a', log), queued(p, 'b', log), queued(p, 'c', log)];
    await vi.advanceTimersByTimeAsync(10);
    // Behind the three queued, or behind no other follow-up: the gap left after the last departure.
    expect(p.waitMs(Date.now(), false)).toBe(40 + 3 * 50);
    expect(p.waitMs(Date.now(), true)).toBe(40);
    all.push(queued(p, 'held', log, { first: true }), queued(p, 'held2', log, { first: true }));
    await vi.advanceTimersByTimeAsync(1_000);
    await Promise.all(all);
    expect(log).toEqual(['held@12050', 'held2@12100', 'a@12150', 'b@12200', 'c@12250']);
    expect(p.state().firstLetOut).toBe(2);
  });

  it('refuses a queued request whose turn would come after its deadline, at once', async () => {
    vi.useFakeTimers({ now: 12_000 });
    const p = new ThrottlePace(() => 100);
    sentBefore(p, 20, 12_000);
    p.throttled(12_000, 12_000);
    expect(p.leaveNow(12_000)).toBe(true);
    const log: string[] = [];
    // 10 a second: turns at 12100 and 12200; the second's deadline is 12150.
    const all = [queued(p, 'a', log), queued(p, 'b', log, { deadline: 12_150 })];
    await vi.advanceTimersByTimeAsync(0);
    expect(log).toEqual(['b: late by 200 ms']);
    await vi.advanceTimersByTimeAsync(500);
    await Promise.all(all);
    expect(log).toEqual(['b: late by 200 ms', 'a@12100']);
  });

  it('holds a queued request through a Retry-After pause begun while it waited, and lets an aborted one go', async () => {
    vi.useFakeTimers({ now: 12_000 });
    let pause = 0;
    const p = new ThrottlePace(
      () => 100,
      () => pause,
    );
    sentBefore(p, 20, 12_000);
    p.throttled(12_000, 12_000);
    expect(p.leaveNow(12_000)).toBe(true);
    const log: string[] = [];
    const abort = new AbortController();
    const gone = p.turn({ first: () => false, signal: abort.signal, refuse }).catch((e: Error) => e.message);
    const all = [queued(p, 'a', log)];
    pause = 12_700;
    abort.abort(new Error('check ended'));
    await expect(gone).resolves.toBe('check ended');
    await vi.advanceTimersByTimeAsync(1_000);
    await Promise.all(all);
    expect(log).toEqual(['a@12700']);
  });

  it('lowers once per episode: answers to requests sent before the pause ends are of the same one', () => {
    const p = new ThrottlePace(() => 100);
    sentBefore(p, 40, 10_000);
    p.throttled(10_000, 11_000);
    p.throttled(10_500, 11_500);
    expect(p.state()).toMatchObject({ ratePerS: 20, decreases: 1 });
    // A new episode: halves the lower of the throttled rate and what the run was sending.
    for (let i = 0; i < 10; i += 1) expect(p.leaveNow(11_100 + i * 80)).toBe(true);
    p.throttled(12_000, 13_000);
    expect(p.state()).toMatchObject({ ratePerS: 5, decreases: 2, lowestPerS: 5 });
  });

  it('never goes below one request in ten seconds', () => {
    const p = new ThrottlePace(() => undefined);
    for (let i = 0; i < 12; i += 1) p.throttled(10_000 * (i + 1), 10_000 * (i + 1));
    expect(p.state().ratePerS).toBe(0.1);
    expect(p.leaveNow(500_000)).toBe(true);
    expect(p.waitMs(500_000, false)).toBe(10_000);
  });

  it('climbs back additively with each answer, and lets go at the ceiling', () => {
    const p = new ThrottlePace(() => 5);
    sentBefore(p, 4, 10_000);
    // A gateway's 503: it says nothing of a rate the front refuses.
    p.throttled(10_000, 10_000, false);
    expect(p.state().ratePerS).toBe(2);
    p.answered();
    expect(p.state().ratePerS).toBeCloseTo(2.5);
    p.answered();
    expect(p.state().ratePerS).toBeCloseTo(2.9);
    // About one request per second more for each second's worth of answers: 2.9 -> 5 in a few more.
    let answers = 0;
    while (p.state().ratePerS !== undefined) {
      p.answered();
      answers += 1;
    }
    expect(answers).toBeGreaterThan(3);
    expect(answers).toBeLessThan(12);
    expect(p.leaveNow(20_000)).toBe(true);
    expect(p.leaveNow(20_000)).toBe(true);
    expect(p.state()).toMatchObject({ decreases: 1, lowestPerS: 2 });
  });

  it('climbs ten times slower just below the rate a 429 refused, and as fast as before past it', () => {
    const p = new ThrottlePace(() => 100);
    sentBefore(p, 40, 10_000);
    p.throttled(10_000, 10_000);
    expect(p.state().ratePerS).toBe(20);
    const answersUntil = (rate: number): number => {
      let n = 0;
      for (; (p.state().ratePerS ?? Infinity) < rate; n += 1) p.answered();
      return n;
    };
    // Each answer adds step / rate, so a climb from a to b takes about (b² - a²) / (2 step) answers.
    const fast = answersUntil(34);
    const near = answersUntil(40);
    const past = answersUntil(46);
    expect(fast).toBeGreaterThan(350);
    expect(fast).toBeLessThan(400);
    expect(near).toBeGreaterThan(2_000);
    expect(near).toBeLessThan(2_400);
    expect(past).toBeGreaterThan(240);
    expect(past).toBeLessThan(280);
  });
});

describe("the wait after a front's 503", () => {
  it('is its Retry-After, doubled while the front stays unavailable right after each wait', () => {
    const b = new UnavailableBackoff();
    expect(b.waitMs(10_000, 2_000)).toBe(2_000);
    // During the wait: the same episode, no longer than what is left of it.
    expect(b.waitMs(11_000, 2_000)).toBe(2_000);
    expect(b.waitMs(11_500, undefined)).toBe(1_000);
    // Right after it ended, still down (a deploy longer than its Retry-After): twice as long.
    expect(b.waitMs(12_100, 2_000)).toBe(4_000);
    expect(b.waitMs(16_200, 2_000)).toBe(8_000);
    // After a quiet spell as long as the last wait: back to what the front asks.
    expect(b.waitMs(60_000, 2_000)).toBe(2_000);
    // Without Retry-After: a second; never more than two minutes.
    const c = new UnavailableBackoff();
    expect(c.waitMs(0, undefined)).toBe(1_000);
    expect(c.waitMs(0, 600_000)).toBe(120_000);
  });
});

const io = fixtureClients((url) => ({ baseUrl: url, agentId: 'agent-1', auth: { apiKey: 'k' } }));

describe('a throttled front on loopback', () => {
  it("slows the run below the card's pace: a throttle of 10 a second refuses few of 30 reads", async () => {
    const front = new Front({ throttle: { limit: 10, windowMs: 1_000 } });
    let refused = 0;
    const governor = new Governor({
      pace: { limit: 6_000, windowMs: 60_000, source: 'card' },
      concurrency: 8,
      taskCap: null,
    });
    const c = await io.setup(
      (_req, res, body) => {
        const action = front.next();
        if (action.kind === 'answer') {
          refused += 1;
          answerAsFront(res, action);
          return;
        }
        const id = (JSON.parse(body.toString()) as { id: unknown }).id;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id, result: { id: 't', status: { state: 'working' } } }));
      },
      { governor },
    );
    const all = await Promise.all(Array.from({ length: 30 }, () => c.rpc('tasks/get', { id: 't' })));
    expect(all.every((ex) => completeAnswer(ex) && ex.response.status === 200)).toBe(true);
    // At the card's pace alone, the requests in flight beyond each second's ten meet the throttle
    // again and again; at the lowered pace, those of the first second and few more.
    expect(refused).toBeLessThanOrEqual(12);
    const state = governor.throttleState();
    expect(state.decreases).toBeGreaterThanOrEqual(1);
    expect(state.lowestPerS).toBeLessThan(100);
  }, 30_000);

  it("holds the run until a gateway's 503 Retry-After and lowers the pace, without resending the send", async () => {
    const governor = new Governor({ pace: null, concurrency: 4, taskCap: null });
    let n = 0;
    const c = await io.setup(
      (_req, res, body) => {
        n += 1;
        if (n === 1) {
          res.writeHead(503, { 'content-type': 'text/html', 'retry-after': '1' }).end('<h1>deploying</h1>');
          return;
        }
        const id = (JSON.parse(body.toString()) as { id: unknown }).id;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id, result: { id: 't', status: { state: 'working' } } }));
      },
      { governor },
    );
    const sent = await c.rpc('message/send', { message: { role: 'user', parts: [] } });
    const answeredAt = Date.now();
    expect(sent.error?.kind).toBe('gateway');
    const next = await c.rpc('tasks/get', { id: 't' });
    expect(next.response?.status).toBe(200);
    expect(
      io.fixture().seen.map((r) => (JSON.parse(r.body.toString()) as { method: string }).method),
    ).toEqual(['message/send', 'tasks/get']);
    expect(Date.parse(next.timings.startedAt) - answeredAt).toBeGreaterThanOrEqual(900);
    expect(governor.throttleState().decreases).toBe(1);
    expect(governor.total.rateLimitedAnswers).toBe(0);
  });
});
