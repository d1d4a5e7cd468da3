// The pace below the card's (harness/io/traffic/throttle-pace.ts): a throttle halves the rate the run
// was sending at, once per episode, never below the floor; each answer lets it climb by one over
// itself, and it no longer applies once back at the card's pace. On loopback: a gateway throttle
// the card does not announce (bench/field/front.ts) refuses far fewer requests once the run slows.
import { describe, expect, it } from 'vitest';
import { answerAsFront, Front } from '../../../bench/field/front.ts';
import { completeAnswer } from '../../../harness/io/target/faults.ts';
import { Governor, UnavailableBackoff } from '../../../harness/io/traffic/governor.ts';
import { ThrottlePace } from '../../../harness/io/traffic/throttle-pace.ts';
import { fixtureClients } from '../../support/fixture-client.ts';

/** A pace that sent `n` requests in the second before `at`. */
function sentBefore(p: ThrottlePace, n: number, at: number): void {
  for (let i = 0; i < n; i += 1) p.reserve(at - 900 + (i * 800) / n);
}

describe('the throttled pace (AIMD)', () => {
  it('does not apply until a throttle answers', () => {
    const p = new ThrottlePace(() => 100);
    sentBefore(p, 50, 10_000);
    expect(p.reserve(10_000)).toBe(0);
    expect(p.reserve(10_000, 10_400)).toBe(400);
    expect(p.state()).toEqual({ ratePerS: undefined, decreases: 0, lowestPerS: undefined });
  });

  it('halves the rate the run was sending at, and spaces requests by it', () => {
    const p = new ThrottlePace(() => 100);
    sentBefore(p, 40, 10_000);
    p.throttled(10_000, 11_000);
    expect(p.state().ratePerS).toBe(20);
    expect(p.reserve(12_000)).toBe(0);
    // Each request's turn comes 50 ms after the one reserved before it, however many ask at once.
    expect(p.reserve(12_000)).toBe(50);
    expect(p.reserve(12_030)).toBe(70);
    expect(p.reserve(12_500)).toBe(0);
    // Never before a Retry-After pause ends.
    expect(p.reserve(12_510, 13_000)).toBe(490);
  });

  it('lowers once per episode: answers to requests sent before the pause ends are of the same one', () => {
    const p = new ThrottlePace(() => 100);
    sentBefore(p, 40, 10_000);
    p.throttled(10_000, 11_000);
    p.throttled(10_500, 11_500);
    expect(p.state()).toMatchObject({ ratePerS: 20, decreases: 1 });
    // A new episode: halves the lower of the throttled rate and what the run was sending.
    sentBefore(p, 10, 12_000);
    p.throttled(12_000, 13_000);
    expect(p.state()).toMatchObject({ ratePerS: 5, decreases: 2, lowestPerS: 5 });
  });

  it('never goes below one request in ten seconds', () => {
    const p = new ThrottlePace(() => undefined);
    for (let i = 0; i < 12; i += 1) p.throttled(10_000 * (i + 1), 10_000 * (i + 1));
    expect(p.state().ratePerS).toBe(0.1);
    p.reserve(500_000);
    expect(p.reserve(500_000)).toBe(10_000);
  });

  it('climbs back additively with each answer, and lets go at the ceiling', () => {
    const p = new ThrottlePace(() => 5);
    sentBefore(p, 4, 10_000);
    p.throttled(10_000, 10_000);
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
    expect(p.reserve(20_000)).toBe(0);
    expect(p.reserve(20_000)).toBe(0);
    expect(p.state()).toMatchObject({ decreases: 1, lowestPerS: 2 });
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
