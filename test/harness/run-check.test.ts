// runCheck (harness/check/run-check.ts) against a fixture target: evidence and reproduction lines,
// secrets redacted, a spent budget reported as `error` and no answer from the target as not-exercised naming it.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runGovernor } from '../../harness/check/run-governor.ts';
import { runCheck, type CheckFn, type CheckSpec } from '../../harness/check/run-check.ts';
import { closeSharedReceiver } from '../../harness/check/webhooks.ts';
import { Governor } from '../../harness/io/traffic/governor.ts';
import { PaceBudgetError } from '../../harness/io/traffic/pace.ts';
import { serveWorkerLink } from '../../harness/io/links/worker-link.ts';
import { FileLock, fileLockCalls } from '../../harness/runner/file-lock.ts';
import { newTally } from '../../harness/io/traffic/tallies.ts';
import { FULL_SPEED, type ProvidedRun } from '../../harness/provided.ts';
import { testRequirement, testRun } from '../support/check-run.ts';
import { closedPort, startFixture, type Fixture } from './fixtures/jsonrpc-fixture.ts';

const requirement = testRequirement();

let fx: Fixture;
let run: ProvidedRun;

beforeAll(async () => {
  fx = await startFixture({ hangOn: 'tasks/get' });
  run = testRun(fx);
});
afterAll(async () => {
  await fx.close();
});

/** A budget short enough that a check waiting on a hanging call or a missing delivery outlives it. */
const BUDGET_MS = 300;
/** A check of the test requirement, run against the fixture (or `on`). */
const check = (title: string, fn: CheckFn, on: ProvidedRun = run, spec: Partial<CheckSpec> = {}) =>
  runCheck({ requirement, title, fn, ...spec }, on);
/** The same with a budget of BUDGET_MS. */
const withBudget = (title: string, fn: CheckFn, on: ProvidedRun = run) =>
  check(title, fn, on, { timeoutMs: BUDGET_MS });

describe('runCheck', () => {
  it('records a pass with its exchanges and reproduction lines, credentials redacted', async () => {
    const result = await check('echoes the id', async (c) => {
      const ex = await c.rpc('agent/authenticatedExtendedCard', undefined, { id: 'abc' });
      c.check('response id', (ex.response.json as { id: unknown }).id, 'abc');
    });
    expect(result).toMatchObject({ requirementId: '2.2/test-id', title: 'echoes the id', status: 'pass' });
    expect(result.evidence.exchanges).toHaveLength(1);
    expect(JSON.stringify(result)).not.toContain(fx.apiKey);
    expect(result.reproduce.command).toContain('--only 2.2/test-id --seed 7 --runs 3');
    expect(result.reproduce.curl).toContain('"x-api-key: $A2A_API_KEY"');
    expect(result.reproduce.curl).toContain('"id":"abc"');
  });

  it('decides the verdict on what the wire carried, then redacts: a secret equal to a compared value', async () => {
    // The id the check compares is also a secret of the run (a short, common value): the verdict holds.
    const secretRun: ProvidedRun = { ...run, alternateAuth: { bearer: 'abc' } };
    const result = await check(
      'echoes the id',
      async (c) => {
        const ex = await c.rpc('agent/authenticatedExtendedCard', undefined, { id: 'abc' });
        c.check('response id', (ex.response.json as { id: unknown }).id, 'abc');
      },
      secretRun,
    );
    expect(result.status).toBe('pass');
    expect(result.assertions[0]).toMatchObject({ expected: '[redacted]', actual: '[redacted]', pass: true });
    expect(JSON.stringify(result.evidence)).not.toMatch(/"abc"/);
    expect(result.title).toBe('echoes the id');
  });

  it("runs every case of an enumerated property, and the plan's share of them in a paced run", async () => {
    const methods = ['tasks/get', 'tasks/cancel', 'agent/authenticatedExtendedCard'];
    const each = (field: ProvidedRun['field']) => {
      const seen: string[] = [];
      const spec = {
        requirement,
        title: 'each method',
        fn: async (c: Parameters<Parameters<typeof runCheck>[0]['fn']>[0]) => {
          const ran = await c.each('method', methods, (m) => {
            seen.push(m);
          });
          c.check('cases run', ran, seen.length);
        },
      };
      return runCheck(spec, { ...run, field }).then((result) => ({ result, seen }));
    };
    const all = await each({ ...FULL_SPEED });
    expect(all.seen).toEqual(methods);
    expect(all.result.status).toBe('pass');
    expect(all.result.notes.join('\n')).not.toMatch(/of 3 cases/);
    const budgetToFit = 900_000;
    const budget = { ms: 600_000, endsAt: Date.now() + 600_000, toFit: budgetToFit };
    const coverage = await each({ ...FULL_SPEED, budget, breadth: { phase: 'coverage', cases: {} } });
    expect(coverage.seen).toEqual(['tasks/get']);
    expect(coverage.result.notes.join('\n')).toContain(`method: 1 of 3 cases`);
    expect(coverage.result.notes.join('\n')).toContain(`--budget-ms ${budgetToFit} runs them all`);
    const breadth = await each({
      ...FULL_SPEED,
      budget,
      breadth: { phase: 'breadth', cases: { '2.2/test-id each method': 2 } },
    });
    expect(breadth.seen).toEqual(methods.slice(0, 2));
  });

  it('runs enumerated cases side by side in lanes, recording them in case order', async () => {
    const cases = [40, 5, 30, 1, 20];
    let inFlight = 0;
    let most = 0;
    // What each betweenSteps saw in flight: it comes between rounds, with no case running.
    const between: number[] = [];
    const lanes = (stopAt?: number) =>
      runCheck(
        {
          requirement,
          title: 'lanes',
          // A check run by verifies() always has steps (the file lock's yield): lanes still apply.
          betweenSteps: async () => {
            between.push(inFlight);
          },
          fn: async (c) => {
            await c.each(
              'delay',
              cases,
              async (ms, i) => {
                inFlight += 1;
                most = Math.max(most, inFlight);
                // The slowest case of a round answers last; its record still comes first.
                await new Promise((resolve) => setTimeout(resolve, ms));
                inFlight -= 1;
                c.info(`case ${i}`);
                c.check(`case ${i}`, ms, stopAt === i ? -1 : ms);
                if (stopAt === i) c.notExercised(`stopped at ${i}`);
              },
              { lanes: 2 },
            );
          },
        },
        run,
      );
    const all = await lanes();
    expect(most).toBe(2);
    expect(between).toEqual([0, 0]);
    expect(all.status).toBe('pass');
    expect(all.assertions.map((a) => a.label)).toEqual(cases.map((_, i) => `case ${i}`));
    expect(all.notes.filter((n) => n.startsWith('case'))).toEqual(cases.map((_, i) => `case ${i}`));
    // Case 2 fails and stops the check: case 3 ran beside it in its round but records nothing.
    const stopped = await lanes(2);
    expect(stopped.status).toBe('fail');
    expect(stopped.assertions.map((a) => a.label)).toEqual(['case 0', 'case 1', 'case 2']);
    expect(stopped.message).toContain('case 2');
  });

  it('records expected beside actual on a failure', async () => {
    const result = await check('t', async (c) => {
      const ex = await c.rpc('nope/method', undefined, { id: 'x' });
      c.check('error.code', (ex.response.json as { error: { code: unknown } }).error.code, -32602);
    });
    expect(result).toMatchObject({ status: 'fail', expected: -32602, actual: -32601 });
    expect(result.message).toBe('error.code: expected -32602, actual -32601');
  });

  it('turns a spent check budget into error', async () => {
    const result = await withBudget('t', async (c) => void (await c.rpc('tasks/get', { taskId: 'x' })));
    expect(result.status).toBe('error');
    expect(result.message).toContain(`budget of ${BUDGET_MS} ms`);
  });

  it('leaves a check past the rate budget not-exercised, naming what would run it for this profile', async () => {
    const spent = async (profile: 'smoke' | 'standard') => {
      const tally = newTally();
      const spec = {
        requirement,
        title: 'past the rate budget',
        fn: () => {
          throw new PaceBudgetError(30_000, { limit: 60, windowMs: 60_000, source: 'card' }, profile);
        },
      };
      const result = await runCheck(spec, { ...run, field: { ...FULL_SPEED, profile } }, tally);
      return { result, cuts: tally.cuts.map((cut) => cut.option) };
    };
    const smoke = await spent('smoke');
    expect(smoke.result.status).toBe('not-exercised');
    expect(smoke.cuts).toEqual(['--budget-ms or --rate']);
    expect(smoke.result.message).not.toContain('--profile smoke');
    expect((await spent('standard')).cuts).toEqual(['--budget-ms, --rate or --profile smoke']);
  });

  describe("when the run's budget (--budget-ms) ends", () => {
    const ending = (inMs: number): ProvidedRun['field'] => ({
      ...FULL_SPEED,
      budget: { ms: 1000, endsAt: Date.now() + inMs, toFit: 50_000 },
    });

    it('ends a check under way once the target answered what it sent: not-exercised, naming --budget-ms', async () => {
      const tally = newTally();
      const t0 = Date.now();
      const result = await runCheck(
        {
          requirement,
          title: 'waits after its answer',
          fn: async (c) => {
            const ex = await c.rpc('agent/authenticatedExtendedCard', undefined, { id: 'a' });
            c.check('response id', (ex.response.json as { id: unknown }).id, 'a');
            // A wait of its own, longer than the runner's grace after the budget.
            await new Promise((r) => setTimeout(r, 10_000));
          },
        },
        { ...run, field: ending(300) },
        tally,
      );
      expect(Date.now() - t0).toBeLessThan(3_000);
      expect(result.status).toBe('not-exercised');
      expect(result.message).toBe(
        'the run budget of 1000 ms was spent before this check finished; --budget-ms 50000 would fit it',
      );
      expect(tally.cuts).toEqual([
        { what: "checks the run's budget ended before they finished", option: '--budget-ms 50000' },
      ]);
    });

    it('keeps a failure the check recorded before it', async () => {
      const result = await check(
        'fails, then waits',
        async (c) => {
          c.check('a value', 1, 2);
          await new Promise((r) => setTimeout(r, 10_000));
        },
        { ...run, field: ending(200) },
      );
      expect(result.status).toBe('fail');
    });

    it('leaves a check that waits on an answer the target has not given to its own budgets, and says it is running', async () => {
      let told = 0;
      const result = await runCheck(
        {
          requirement,
          title: 'waits on a hung request',
          timeoutMs: 1_500,
          fn: async (c) => void (await c.rpc('tasks/get', { taskId: 'x' })),
          outlivesRun: () => void (told += 1),
        },
        { ...run, field: ending(100) },
      );
      // Not cut at the run's budget: the runner ends such a run as one that could not be done, and
      // must have heard the check run to name it.
      expect(result.status).toBe('error');
      expect(result.durationMs).toBeGreaterThanOrEqual(1_400);
      expect(told).toBeGreaterThanOrEqual(1);
    });

    it('does not say it is running when it waits on nothing of the target', async () => {
      let told = 0;
      const result = await runCheck(
        {
          requirement,
          title: 'answered, then sleeps',
          fn: async (c) => {
            await c.rpc('agent/authenticatedExtendedCard', undefined);
            await new Promise((r) => setTimeout(r, 10_000));
          },
          outlivesRun: () => void (told += 1),
        },
        { ...run, field: ending(200) },
      );
      expect(result.status).toBe('not-exercised');
      expect(told).toBe(0);
    });

    it('ends a check that starts after it at once, sending nothing', async () => {
      let called = false;
      const result = await check(
        'too late',
        () => {
          called = true;
        },
        { ...run, field: ending(-1) },
      );
      expect(called).toBe(false);
      expect(result).toMatchObject({
        status: 'not-exercised',
        message: 'the run budget of 1000 ms was spent before this check ran; --budget-ms 50000 would fit it',
      });
    });
  });

  it("does not spend a check's budget on what the pace added to a scripted length", async () => {
    // One request per 300 ms window: the second waits out the window and its 1 s slack.
    const pace = { limit: 1, windowMs: 300, source: 'option' as const };
    const field = { ...FULL_SPEED, profile: 'standard' as const, pace, deadlineAt: Date.now() + 60_000 };
    let scaled = 0;
    const spec = {
      requirement,
      title: 'waits out a paced script',
      timeoutMs: 500,
      fn: async (c: Parameters<Parameters<typeof runCheck>[0]['fn']>[0]) => {
        await c.rpc('agent/authenticatedExtendedCard');
        await c.rpc('agent/authenticatedExtendedCard');
        scaled = c.scaled(100);
        await new Promise((resolve) => setTimeout(resolve, scaled));
        c.check('waited', true, true);
      },
    };
    const result = await runCheck(spec, { ...run, field });
    expect(scaled).toBeGreaterThan(1_000);
    expect(result.status).toBe('pass');
  });

  it("gives a poll the check's share of the agent's pace, and no interval without a pace", async () => {
    const seen: number[] = [];
    const spec = (label: string) => ({
      requirement,
      title: label,
      fn: async (c: Parameters<Parameters<typeof runCheck>[0]['fn']>[0]) => {
        seen.push(c.pollIntervalMs());
        c.check('read', true, true);
      },
    });
    // 60 requests/min: 57 let out per 61 s window, one each 1.07 s; 4 suite files share it.
    const pace = { limit: 60, windowMs: 60_000, source: 'card' as const };
    const paced = { ...FULL_SPEED, profile: 'standard' as const, pace, suiteWorkers: 4 };
    await runCheck(spec('paced'), { ...run, field: paced });
    await runCheck(spec('unpaced'), { ...run, field: { ...paced, pace: null } });
    expect(seen).toEqual([Math.ceil((61_000 / 57) * 4), 0]);
  });

  it("spends no budget on the pace in a worker linked to the runner, whatever the worker's earlier waits", async () => {
    // One request per 300 ms window (and its 1 s slack), kept by the runner's governor.
    const pace = { limit: 1, windowMs: 300, source: 'option' as const };
    const deadlineAt = Date.now() + 60_000;
    const link = await serveWorkerLink(
      new Governor({ pace, concurrency: 4, deadlineAt }),
      fileLockCalls(new FileLock()),
    );
    try {
      const field = { ...FULL_SPEED, profile: 'standard' as const, pace, deadlineAt, governorUrl: link.url };
      const linked = { ...run, field };
      // Requests of this worker still waiting on the pace when the check starts (another check's): let
      // out at about 0, 1.3, 2.6 and 3.9 s; the check starts after the third.
      const worker = runGovernor(linked);
      const earlier = [0, 1, 2, 3].map(() => worker.admit({ turn: false }).then((release) => release()));
      await Promise.all(earlier.slice(0, 3));
      const spec = {
        requirement,
        title: 'its own work, then a wait on the pace',
        timeoutMs: 2_000,
        fn: async (c: Parameters<Parameters<typeof runCheck>[0]['fn']>[0]) => {
          await new Promise((resolve) => setTimeout(resolve, 1_400));
          // Let out about 1.3 s after the last of the earlier ones.
          await c.rpc('agent/authenticatedExtendedCard');
          c.check('answered', true, true);
        },
      };
      const result = await runCheck(spec, linked);
      await Promise.all(earlier);
      expect(result.status, result.message).toBe('pass');
    } finally {
      await link.close();
    }
  });

  it("does not spend a check's budget on what the agent's measured turns added to a scripted length", async () => {
    // A turn of 200 ms measured (the probe's): c.scaled(50) is 50 + 2 x 200 ms, past a budget of 300 ms.
    const field = { ...FULL_SPEED, deadlineAt: Date.now() + 61_000, probedTurnMs: 200 };
    let scaled = 0;
    const result = await withBudget(
      'waits out a length grown by the turns',
      async (c) => {
        scaled = c.scaled(50);
        await new Promise((resolve) => setTimeout(resolve, scaled));
        c.check('waited', true, true);
      },
      { ...run, field },
    );
    expect(scaled).toBe(450);
    expect(result.status, result.message).toBe('pass');
  });

  it("does not spend a check's budget waiting on what another check makes for it", async () => {
    const maker = new AbortController();
    const sample = new Promise<string>((resolve) => setTimeout(() => resolve('t-1'), BUDGET_MS + 400));
    const result = await withBudget('reads a shared sample', async (c) => {
      c.check('sample', await c.awaitShared(sample, maker.signal), 't-1');
    });
    expect(result.status, result.message).toBe('pass');
  });

  it('reads a sample made before the budget of the check that made it ended', async () => {
    const maker = new AbortController();
    const sample = Promise.resolve('t-1');
    maker.abort();
    const result = await withBudget('reads a sample made in time', async (c) => {
      c.check('sample', await c.awaitShared(sample, maker.signal), 't-1');
    });
    expect(result.status, result.message).toBe('pass');
  });

  it('leaves a check not-exercised when the check making what it waits on ended first', async () => {
    const maker = new AbortController();
    const never = new Promise<string>(() => undefined);
    setTimeout(() => maker.abort(), 50);
    const result = await withBudget('reads a sample never made', async (c) => {
      c.check('sample', await c.awaitShared(never, maker.signal), 't-1');
    });
    expect(result).toMatchObject({
      status: 'not-exercised',
      message:
        'the shared sample it reads was not made: the check making it ended (its budget) before it was',
    });
  });

  it('spends no budget on a turn still waiting for its answer', async () => {
    const slow = await startFixture({ delayMs: 700 });
    try {
      const result = await withBudget(
        'a slow turn',
        async (c) => {
          const message = { role: 'user', parts: [{ kind: 'text', text: 'hi' }], messageId: 'm-1' };
          await c.rpc('message/send', { message });
          c.check('answered', true, true);
        },
        testRun(slow),
      );
      expect(result.status, result.message).toBe('pass');
    } finally {
      await slow.close();
    }
  });

  it('leaves a check whose budget ends while it waits for a delivery not-exercised, with what arrived', async () => {
    const result = await withBudget('waits for a second delivery', async (c) => {
      const hooks = await c.webhooks();
      const mine = hooks.newUrl('mine');
      await fetch(mine.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-webhook-delivery': 'd-1' },
        body: '{"event":"task.completed","taskId":"t-1"}',
      });
      // A wait of its own, longer than the check's budget: the budget ends it.
      await hooks.receiver.waitFor({ token: mine.token }, { timeoutMs: 5_000, count: 2 });
      c.check('second delivery', true, true);
    });
    expect(result.status).toBe('not-exercised');
    expect(result.message).toContain('ended while it waited for a webhook delivery');
    expect(result.message).toContain('"event":"task.completed","taskId":"t-1"');
    await closeSharedReceiver();
  });

  it('keeps a failure recorded before the budget ended in a wait for a delivery', async () => {
    const result = await withBudget('a failure, then a wait', async (c) => {
      c.check('first', 1, 2);
      const hooks = await c.webhooks();
      await hooks.receiver.waitFor({ token: hooks.newUrl().token }, { timeoutMs: 5_000 });
    });
    expect(result).toMatchObject({ status: 'fail', expected: 2, actual: 1 });
    expect(result.message).toContain(`then stopped: the check exceeded its budget of ${BUDGET_MS} ms`);
    await closeSharedReceiver();
  });

  it("keeps a budget spent in the check's own code an error", async () => {
    const result = await withBudget('hangs in its own code', async (c) => {
      await c.webhooks();
      await new Promise((resolve) => setTimeout(resolve, 5_000));
    });
    expect(result.status).toBe('error');
    expect(result.message).toBe(`the check exceeded its budget of ${BUDGET_MS} ms`);
    await closeSharedReceiver();
  });

  it('turns no answer from the target into not-exercised naming the fault, never fail', async () => {
    const port = await closedPort();
    const result = await runCheck(
      { requirement, title: 't', fn: async (c) => void (await c.rpc('agent/authenticatedExtendedCard')) },
      { ...run, baseUrl: `http://127.0.0.1:${port}` },
    );
    expect(result.status).toBe('not-exercised');
    expect(result.message).toContain('met a transport fault');
    expect(result.message).toContain('connect on agent/authenticatedExtendedCard');
    expect(result.evidence.exchanges[0]?.error?.kind).toBe('connect');
  });

  it('keeps deliveries to the webhook URLs of the check as evidence, and only those', async () => {
    const result = await check('t', async (c) => {
      const hooks = await c.webhooks();
      const mine = hooks.newUrl('mine');
      await fetch(hooks.receiver.urlFor('someone-else'), { method: 'POST', body: '{}' });
      await fetch(mine.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"event":"task.completed"}',
      });
      const got = await hooks.receiver.waitFor({ token: mine.token }, { timeoutMs: 1000 });
      c.check('deliveries', got.length, 1);
    });
    expect(result.status).toBe('pass');
    expect(result.evidence.deliveries).toHaveLength(1);
    expect(result.evidence.deliveries[0]).toMatchObject({ json: { event: 'task.completed' } });
    await closeSharedReceiver();
  });

  it('does not run a check whose capability the card says is absent', async () => {
    let ran = false;
    const result = await check(
      't',
      () => {
        ran = true;
      },
      { ...run, card: { capabilities: { webhooks: false } } },
      { requirement: { ...requirement, capabilities: ['webhooks'] } },
    );
    expect(ran).toBe(false);
    expect(result).toMatchObject({ status: 'not-applicable' });
  });
});

describe('c.property', () => {
  it('records a counterexample with its replay seed as a failure, and a held property as a pass', async () => {
    const failing = await check('t', async (c) => {
      await c.property('small numbers', fc.integer({ min: 0, max: 1000 }), (n) => n < 500);
    });
    expect(failing.status).toBe('fail');
    expect(failing.expected).toBe('holds for every generated case');
    expect((failing.actual as { counterexample: number }).counterexample).toBe(500);
    expect(failing.notes.join()).toContain('replay with --seed 7');
    const holding = await check('t', (c) =>
      c.property('any', fc.integer(), () => true).then(() => undefined),
    );
    expect(holding).toMatchObject({ status: 'pass', message: '1 assertion(s) held' });
    expect(holding.assertions[0]!.actual).toBe('3 generated case(s) held');
  });

  it('time stood aside between cases (for a check that needs the agent idle) does not spend the budget', async () => {
    const result = await runCheck(
      {
        requirement,
        title: 't',
        timeoutMs: 100,
        betweenSteps: () => new Promise((resolve) => setTimeout(resolve, 150)),
        fn: (c) => c.property('any', fc.integer(), () => true).then(() => undefined),
      },
      run,
    );
    expect(result).toMatchObject({ status: 'pass', message: '1 assertion(s) held' });
    expect(result.durationMs).toBeGreaterThanOrEqual(300);
  });

  it('reports no answer inside a property as not-exercised, not as a counterexample', async () => {
    const port = await closedPort();
    const result = await check(
      't',
      async (c) => {
        await c.property('ids', fc.string(), async (id) => void (await c.rpc('x', undefined, { id })));
      },
      { ...run, baseUrl: `http://127.0.0.1:${port}` },
    );
    expect(result.status).toBe('not-exercised');
    expect(result.assertions).toEqual([]);
  });
});
