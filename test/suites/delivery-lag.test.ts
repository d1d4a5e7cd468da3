// A delivery's lag is the agent's time only: `since` is when the request that caused the event left
// the harness (sentAt), after any wait on the agent's pace. Measured from before that wait, a paced
// run's lags grew by its window (up to a minute at 60 requests/min), and so did the grace period the
// run waits at its end for late deliveries (twice the slowest lag).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCheck } from '../../harness/check/run-check.ts';
import { closeSharedReceiver } from '../../harness/check/webhooks.ts';
import { newTally } from '../../harness/io/traffic/tallies.ts';
import { FULL_SPEED } from '../../harness/provided.ts';
import { defaultAgent, generateApiKey, startReferenceServer } from '../../reference-server/index.ts';
import type { ReferenceServer } from '../../reference-server/types.ts';
import type { CheckContext } from '../../suites/support/index.ts';
import { methodOf } from '../../harness/check/index.ts';
import { sentAt } from '../../suites/support/rpc.ts';
import { requireSet, startRunningTask } from '../../suites/support/webhooks.ts';
import { testRequirement, testRun } from '../support/check-run.ts';

const key = generateApiKey();
let server: ReferenceServer;

beforeAll(async () => {
  server = await startReferenceServer({
    host: '127.0.0.1',
    port: 0,
    allowPrivateWebhookTargets: true,
    agents: [defaultAgent('reference-agent', key)],
  });
});
afterAll(async () => {
  await closeSharedReceiver();
  await server?.close();
});

describe('the since of a delivery lag', () => {
  it("finish() returns when its cancel left the harness, after the pace's wait", async () => {
    // One request per 1.5 s window (1 per 500 ms, and the governor's margin): the cancel of finish()
    // waits for the window of the set before it.
    const pace = { limit: 1, windowMs: 500, source: 'option' as const };
    const run = testRun(
      { baseUrl: server.baseUrl, agentId: 'reference-agent', apiKey: key },
      { checkTimeoutMs: 30_000, field: { ...FULL_SPEED, pace, deadlineAt: Date.now() + 60_000 } },
    );
    let seen: { called: number; since: number; cancel: number[] } | undefined;
    const fn = async (c: CheckContext): Promise<void> => {
      const hooks = await c.webhooks();
      const task = await startRunningTask(c);
      await requireSet(c, { url: hooks.newUrl('lag').url }, task.taskId);
      const called = Date.now();
      const since = await task.finish();
      const cancel = c.exchanges().filter((ex) => methodOf(ex) === 'tasks/cancel');
      seen = { called, since, cancel: cancel.map(sentAt) };
    };
    const tally = newTally();
    const result = await runCheck(
      { requirement: testRequirement('6.1/task-events'), title: 'lag', fn },
      run,
      tally,
    );
    expect(result.status, result.message).toBe('pass');
    expect(seen!.cancel).toEqual([seen!.since]);
    // The cancel waited on the pace: a time taken when finish() was called would count that wait.
    expect(tally.waitedMs).toBeGreaterThan(0);
    expect(seen!.since - seen!.called).toBeGreaterThanOrEqual(500);
  }, 60_000);
});
