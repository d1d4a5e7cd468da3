// Turns longer than the request budget (harness/io/target/agent-turn.ts turnBudgetMs, target-client.ts): a
// task-making request is given --timeout-ms plus the agent's measured turn, and never less than two
// turns, so an agent whose turns take longer than --timeout-ms is answered in full, never cut by the
// harness and graded for it. A request that makes no task keeps --timeout-ms.
import { afterEach, describe, expect, it } from 'vitest';
import { turnBudgetMs } from '../../harness/io/target/agent-turn.ts';
import { streamBudgetsOf, streamTurnMs } from '../../harness/io/target/turns.ts';
import type { StreamTranscript } from '../../core/evidence.ts';
import { Governor } from '../../harness/io/traffic/governor.ts';
import { createTargetClient, type TargetClient } from '../../harness/io/target/target-client.ts';
import { startFixture, type Fixture } from './io/fixture-server.ts';

describe('turnBudgetMs', () => {
  it('is the base with no measured turn, the base plus the turn otherwise', () => {
    expect(turnBudgetMs(10_000, 0)).toBe(10_000);
    expect(turnBudgetMs(10_000, 3_000)).toBe(13_000);
  });

  it('is never below two turns: a turn a little longer than the one measured is still waited for', () => {
    expect(turnBudgetMs(10_000, 12_000)).toBe(24_000);
    expect(turnBudgetMs(1_000, 15_000)).toBe(30_000);
  });
});

describe('streamTurnMs', () => {
  // A stream that announced its task at 5 ms and ended it at 16 s.
  const t = {
    headersMs: 4,
    events: [{ atMs: 5 }, { atMs: 16_000 }],
    finalIndex: 1,
  } as unknown as StreamTranscript;
  const body = (text: string): string =>
    JSON.stringify({ method: 'message/stream', params: { message: { parts: [{ kind: 'text', text }] } } });

  it("lasts to the final event of a task that scripts nothing: the agent's turn after the announcement", () => {
    expect(streamTurnMs(t, body('hello'))).toBe(16_000);
  });

  it('lasts to the first event of a scripted task (its delay is the script, not the turn) or one not ended', () => {
    expect(streamTurnMs(t, body('a2a:directive {"delayMs":15000}'))).toBe(5);
    expect(streamTurnMs({ ...t, finalIndex: null }, body('hello'))).toBe(5);
  });
});

describe('streamBudgetsOf', () => {
  const given = { firstEventMs: 3_000, idleMs: 3_000, totalMs: 8_000 };
  const grown = { firstEventMs: 32_000, idleMs: 32_000, totalMs: 32_000 };

  it("grows the budgets of a task-making stream and of a resubscribe (the rest of the agent's turn)", () => {
    expect(streamBudgetsOf('message/stream', true, given, 16_000)).toEqual(grown);
    expect(streamBudgetsOf('tasks/resubscribe', false, given, 16_000)).toEqual(grown);
  });

  it('keeps the budgets of any other stream, and of every stream before a turn was measured', () => {
    expect(streamBudgetsOf('message/stream', false, given, 16_000)).toEqual(given);
    expect(streamBudgetsOf('tasks/resubscribe', false, given, 0)).toEqual(given);
  });
});

let fixture: Fixture | undefined;
let client: TargetClient | undefined;
afterEach(async () => {
  await client?.close();
  await fixture?.close();
  client = undefined;
  fixture = undefined;
});

const TASK = { id: 't1', contextId: 'c1', status: { state: 'completed' } };

/** An agent whose message/send answers after `turnMs`, every other method at once. */
async function slowTurns(turnMs: number): Promise<string> {
  fixture = await startFixture((_req, res, body) => {
    const call = JSON.parse(body.toString()) as { id: unknown; method: string };
    const answer = () =>
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(
          JSON.stringify({ jsonrpc: '2.0', id: call.id, result: call.method === 'message/send' ? TASK : {} }),
        );
    if (call.method === 'message/send') setTimeout(answer, turnMs);
    else answer();
  });
  return fixture.url;
}

const message = {
  message: {
    role: 'user',
    messageId: '7d3e3c4e-2f0a-4b5e-9c1d-0a6b2f3e4d5c',
    parts: [{ type: 'text', text: 'hi' }],
  },
};

describe('a task-making request on an agent whose turn is longer than --timeout-ms', () => {
  it('is answered in full once the probe measured the turn, even a turn longer than the one measured', async () => {
    // --timeout-ms 200 plus the measured 1 s would cut it at 1.2 s; two measured turns wait 2 s.
    const baseUrl = await slowTurns(1_500);
    const governor = new Governor({ pace: null, concurrency: 8, probedTurnMs: 1_000 });
    client = createTargetClient({ baseUrl, agentId: 'a', auth: { apiKey: 'k' }, timeoutMs: 200, governor });
    const ex = await client.rpc('message/send', message);
    expect(ex.error).toBeUndefined();
    expect(ex.response?.json).toMatchObject({ result: { id: 't1' } });
  });

  it('is cut by --timeout-ms when no turn was measured (what the probe prevents)', async () => {
    const baseUrl = await slowTurns(1_500);
    const governor = new Governor({ pace: null, concurrency: 8 });
    client = createTargetClient({ baseUrl, agentId: 'a', auth: { apiKey: 'k' }, timeoutMs: 200, governor });
    const ex = await client.rpc('message/send', message);
    expect(ex.error?.kind).toBeDefined();
  });
});
