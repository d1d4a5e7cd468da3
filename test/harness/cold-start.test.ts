// A cold start (harness/runner/first-answer.ts, probe.ts): the probe waits for the target's first
// answer up to --cold-start-ms, says so on the console, resends while nothing answers or a gateway
// answers 503, and reports the first answer's latency apart from the round trip the plan uses. A
// target silent for the whole allowance is still unreachable. A whole run behind such a front:
// cold-start.e2e.test.ts.
import { afterEach, describe, expect, it } from 'vitest';
import { probeTarget } from '../../harness/runner/probe.ts';
import { startFixture, type Fixture } from './io/fixture-server.ts';

const CARD = { jsonrpc: '2.0', id: 1, result: { id: 'agent', name: 'Agent', capabilities: {} } };

let fixture: Fixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

/** A target whose n-th request (from 1) is held `holdMs(n)` before the card answer, or answered 503. */
async function target(opts: { holdMs?: (n: number) => number; unavailable?: (n: number) => boolean }) {
  let n = 0;
  fixture = await startFixture((_req, res) => {
    n += 1;
    const k = n;
    if (opts.unavailable?.(k) === true) {
      res.writeHead(503, { 'content-type': 'text/html' }).end('<h1>503 Service Unavailable</h1>');
      return;
    }
    setTimeout(
      () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(CARD)),
      opts.holdMs?.(k) ?? 0,
    );
  });
  return { baseUrl: fixture.url, agentId: 'agent', auth: { apiKey: 'k' } };
}

describe('the probe waits out a cold start', () => {
  it('a first answer later than --timeout-ms is waited for, said on the console and reported apart', async () => {
    const t = await target({ holdMs: (n) => (n === 1 ? 900 : 0) });
    const lines: string[] = [];
    const probe = await probeTarget({ ...t, timeoutMs: 300, coldStartMs: 10_000 }, undefined, {
      log: (line) => lines.push(line),
    });
    expect(probe.couldNotRun).toBeNull();
    expect(probe.reachability).toMatchObject({ reachable: true, authenticated: true, coldStart: true });
    expect(probe.reachability.firstAnswerMs).toBeGreaterThanOrEqual(300);
    expect(lines).toEqual([expect.stringMatching(/waiting up to 10 s for its first answer/)]);
    // The round trip the plan uses is a second card request, to the warm agent.
    expect(fixture!.seen).toHaveLength(2);
  });

  it("a gateway's 503 while the agent starts is resent, never taken for the agent's answer", async () => {
    const t = await target({ unavailable: (n) => n <= 2 });
    const probe = await probeTarget({ ...t, timeoutMs: 2_000, coldStartMs: 20_000 });
    expect(probe.couldNotRun).toBeNull();
    expect(probe.card).toMatchObject({ id: 'agent' });
    expect(probe.reachability.coldStart).toBe(true);
    expect(fixture!.seen.length).toBeGreaterThanOrEqual(3);
  });

  it('without a cold-start allowance beyond --timeout-ms, a late first answer is no answer (exit 2)', async () => {
    const t = await target({ holdMs: (n) => (n === 1 ? 900 : 0) });
    const lines: string[] = [];
    const probe = await probeTarget({ ...t, timeoutMs: 300, coldStartMs: 300 }, undefined, {
      log: (line) => lines.push(line),
    });
    expect(probe.couldNotRun).toMatch(/^target unreachable/);
    expect(probe.reachability.firstAnswerMs).toBeUndefined();
    expect(lines).toEqual([]);
  });

  it('a target that never answers within the allowance is unreachable, saying how long it waited', async () => {
    const t = await target({ holdMs: () => 60_000 });
    const probe = await probeTarget({ ...t, timeoutMs: 200, coldStartMs: 600 });
    expect(probe.couldNotRun).toMatch(
      /target unreachable.*nothing answered for \d+ s \(--cold-start-ms 600\)/,
    );
    expect(probe.reachability.reachable).toBe(false);
  });
});

describe("the probe's turn is spent of the run's budget", () => {
  // --budget-ms is the whole run's: a turn measured up to --cold-start-ms (capped at the budget) that
  // never completes held the run a whole budget before its suites, which then got one budget more.
  it('a turn the target never answers is waited for no later than the budget end', async () => {
    fixture = await startFixture((_req, res, body) => {
      const method = (JSON.parse(body.toString('utf8')) as { method?: string }).method;
      // The card at once; the turn (message/send) headers and then nothing, like a trickle.
      if (method === 'message/send') res.writeHead(200, { 'content-type': 'application/json' }).write('{');
      else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(CARD));
    });
    const t = { baseUrl: fixture.url, agentId: 'agent', auth: { apiKey: 'k' } };
    const probe = await probeTarget({ ...t, timeoutMs: 300, coldStartMs: 60_000 }, undefined, {
      measureTurn: true,
      endsAt: Date.now() + 1_000,
    });
    expect(probe.couldNotRun).toBeNull();
    expect(probe.card).toMatchObject({ id: 'agent' });
    // Cut by the budget: no turn latency, which a cut answer never is.
    expect(probe.turnLatencyMs).toBeUndefined();
    expect(fixture.seen).toHaveLength(2);
  }, 20_000);

  it('once the budget end passed, the turn is not sent', async () => {
    fixture = await startFixture((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(CARD)),
    );
    const t = { baseUrl: fixture.url, agentId: 'agent', auth: { apiKey: 'k' } };
    const probe = await probeTarget({ ...t, timeoutMs: 300, coldStartMs: 60_000 }, undefined, {
      measureTurn: true,
      endsAt: Date.now() - 1,
    });
    expect(probe.couldNotRun).toBeNull();
    expect(fixture.seen).toHaveLength(1);
  });
});
