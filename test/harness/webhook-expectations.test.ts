// The settling rule of webhook verdicts (harness/check/expectations.ts, harness/runner/settle-webhooks.ts,
// harness/io/links/webhook-link.ts): a late delivery passes, a late violation still fails, copies of one
// attempt count once, and the grace period derives from the slowest delivery lag the agent showed.
import { request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { graceMs, LATE_TOLERANCE_MS, type PendingExpectation } from '../../harness/check/expectations.ts';
import { runCheck } from '../../harness/check/run-check.ts';
import { BUSY_SENDER_WINDOWS, closeSharedReceiver, WebhookScope } from '../../harness/check/webhooks.ts';
import {
  connectWebhookLink,
  serveWebhookLink,
  type WebhookLink,
} from '../../harness/io/links/webhook-link.ts';
import {
  deliveryKey,
  distinctDeliveries,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../harness/io/webhooks/webhook-receiver.ts';
import { testRequirement, testRun } from '../support/check-run.ts';
import type { CollectedTest } from '../../harness/runner/collector.ts';
import { settleWebhookExpectations } from '../../harness/runner/settle-webhooks.ts';
import type { CheckResult } from '../../core/types.ts';

const requirement = testRequirement('6.1/events-filter');

function payload(event: string, taskId: string, attempt = 1): string {
  return JSON.stringify({ event, taskId, delivery: { attempt, maxAttempts: 4 }, data: { taskId } });
}

async function post(url: string, body: string, deliveryId?: string): Promise<number> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (deliveryId !== undefined) headers['x-webhook-delivery'] = deliveryId;
  const res = await request(url, { method: 'POST', body, headers });
  await res.body.text();
  return res.statusCode;
}

const later = (ms: number, fn: () => unknown): void => void setTimeout(() => void fn(), ms);

let receiver: WebhookReceiver | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

describe('deliveries are counted by X-Webhook-Delivery and attempt, never by POSTs', () => {
  it('per delivery, every attempt of one X-Webhook-Delivery (and event) counts once', async () => {
    receiver = await startWebhookReceiver();
    const url = receiver.urlFor('t');
    await post(url, payload('task.completed', 'a', 1), 'd1');
    await post(url, payload('task.completed', 'a', 2), 'd1');
    await post(url, payload('task.submitted', 'a', 1), 'd1');
    expect(distinctDeliveries(receiver.deliveries(), 'delivery').map((d) => d.seq)).toEqual([1, 3]);
    expect(distinctDeliveries(receiver.deliveries(), 'attempt').map((d) => d.seq)).toEqual([1, 2, 3]);
  });

  it('copies of one attempt count once; another attempt or event, or a POST without an id, counts apart', async () => {
    receiver = await startWebhookReceiver();
    const url = receiver.urlFor('t');
    await post(url, payload('task.completed', 'a'), 'd1');
    await post(url, payload('task.completed', 'a'), 'd1');
    await post(url, payload('task.completed', 'a', 2), 'd1');
    await post(url, payload('task.submitted', 'a'), 'd1');
    await post(url, payload('task.completed', 'a'));
    await post(url, payload('task.completed', 'a'));
    const all = receiver.deliveries();
    expect(all).toHaveLength(6);
    expect(distinctDeliveries(all).map((d) => d.seq)).toEqual([1, 3, 4, 5, 6]);
    expect(deliveryKey(all[0]!)).toBe(deliveryKey(all[1]!));
  });

  it('a copy of an attempt gets the answer its first copy got, and takes no scripted answer', async () => {
    receiver = await startWebhookReceiver();
    await receiver.script('t', [{ status: 500 }, { status: 503 }]);
    const url = receiver.urlFor('t');
    expect(await post(url, payload('task.completed', 'a', 1), 'd1')).toBe(500);
    expect(await post(url, payload('task.completed', 'a', 1), 'd1')).toBe(500);
    expect(await post(url, payload('task.completed', 'a', 2), 'd1')).toBe(503);
    expect(await post(url, payload('task.completed', 'a', 3), 'd1')).toBe(200);
  });

  it('a wait counts attempts when asked to', async () => {
    receiver = await startWebhookReceiver();
    const url = receiver.urlFor('t');
    await post(url, payload('task.completed', 'a'), 'd1');
    await post(url, payload('task.completed', 'a'), 'd1');
    const got = await receiver.waitForResult({ token: 't' }, { timeoutMs: 50, count: 2, distinct: true });
    expect(got.timedOut).toBe(true);
    expect(got.deliveries).toHaveLength(1);
  });
});

describe('the grace period derives from the slowest delivery lag shown', () => {
  it('is twice the slowest lag plus C-20 late tolerance', () => {
    expect(graceMs([])).toBe(LATE_TOLERANCE_MS);
    expect(graceMs([300, 2_500, 40])).toBe(2 * 2_500 + LATE_TOLERANCE_MS);
  });

  it('a wait for a delivery records its lag from the moment the check caused it', async () => {
    const scope = new WebhookScope(
      { webhookListen: { host: '127.0.0.1', port: 0 } },
      { waitBoundMs: () => 5_000 },
    );
    const hooks = await scope.open();
    const { token, url } = hooks.newUrl('lag');
    const since = Date.now();
    later(300, () => post(url, payload('task.completed', 'a'), 'd1'));
    const got = await hooks.awaitDeliveries({ token, event: 'task.completed' }, { since });
    expect(got.timedOut).toBe(false);
    expect(scope.lagsMs).toHaveLength(1);
    expect(scope.lagsMs[0]).toBeGreaterThanOrEqual(250);
    await closeSharedReceiver(true);
  });

  it('a wait the budget cannot cover ends with what arrived, timed out', async () => {
    const scope = new WebhookScope(
      { webhookListen: { host: '127.0.0.1', port: 0 } },
      { waitBoundMs: () => 100 },
    );
    const hooks = await scope.open();
    const got = await hooks.awaitDeliveries({ token: 'nothing' }, { since: Date.now() });
    expect(got).toMatchObject({ timedOut: true, deliveries: [] });
    expect(scope.lagsMs).toEqual([]);
    await closeSharedReceiver(true);
  });
});

describe('a wait goes on while the agent is still delivering to the awaited URL', () => {
  /** A scope whose busy-sender windows are counted, each one's start calling `onWindow`. */
  async function busyScope(boundMs: number, onWindow: (n: number) => Promise<unknown> = async () => 0) {
    let windows = 0;
    const scope = new WebhookScope(
      { webhookListen: { host: '127.0.0.1', port: 0 } },
      {
        waitBoundMs: () => boundMs,
        agentWait: async (wait) => {
          windows += 1;
          await onWindow(windows);
          return wait;
        },
      },
    );
    const hooks = await scope.open();
    const { token, url } = hooks.newUrl('busy');
    return { hooks, token, url, windows: () => windows };
  }
  const other = (url: string, taskId: string): Promise<number> =>
    post(url, payload('task.working', taskId), `d-${taskId}`);

  afterEach(() => closeSharedReceiver(true));

  it("an event behind a backlog at its URL is awaited past the bound, the extra time as the agent's", async () => {
    let url = '';
    const s = await busyScope(800, () => post(url, payload('task.completed', 'a'), 'd-a'));
    url = s.url;
    const waiting = s.hooks.awaitDeliveries(
      { token: s.token, taskId: 'a', event: 'task.completed' },
      { since: Date.now() },
    );
    await other(url, 'b');
    const got = await waiting;
    expect(got.timedOut).toBe(false);
    expect(s.windows()).toBe(1);
    expect(got.deliveries.map((d) => d.seq)).toHaveLength(1);
    expect(got.waitedMs).toBeGreaterThanOrEqual(700);
  });

  it('a window in which nothing arrived at the URL ends the wait', async () => {
    const s = await busyScope(300);
    const waiting = s.hooks.awaitDeliveries({ token: s.token, taskId: 'a' }, { since: Date.now() });
    await other(s.url, 'b');
    const got = await waiting;
    expect(got.timedOut).toBe(true);
    expect(s.windows()).toBe(1);
    expect(got.deliveries).toEqual([]);
    expect(got.waitedMs).toBeGreaterThanOrEqual(500);
  });

  it(`a sender that never stops delivering there gets ${BUSY_SENDER_WINDOWS} more windows, no more`, async () => {
    let url = '';
    const s = await busyScope(200, (n) => other(url, `flood-${n}`));
    url = s.url;
    const waiting = s.hooks.awaitDeliveries({ token: s.token, taskId: 'a' }, { since: Date.now() });
    await other(url, 'b');
    const got = await waiting;
    expect(got.timedOut).toBe(true);
    expect(s.windows()).toBe(BUSY_SENDER_WINDOWS);
  });

  it('nothing at the URL: the wait ends at its bound, with no window more', async () => {
    const s = await busyScope(200);
    const got = await s.hooks.awaitDeliveries({ token: s.token }, { since: Date.now() });
    expect(got.timedOut).toBe(true);
    expect(s.windows()).toBe(0);
  });
});

/** A check result as a worker hands it over: one expectation recorded as a passing assertion. */
function collected(expectation: PendingExpectation, lagsMs: number[]): CollectedTest {
  const result: CheckResult = {
    requirementId: requirement.id,
    title: 'a configuration of task.completed gets no other event',
    status: 'pass',
    message: '2 assertion(s) held',
    assertions: [
      { label: 'events delivered', expected: ['task.completed'], actual: ['task.completed'], pass: true },
      { label: expectation.label, expected: [], actual: [], pass: true },
    ],
    notes: [],
    evidence: { exchanges: [], streams: [], deliveries: [] },
    durationMs: 10,
    reproduce: { command: 'x' },
  };
  return {
    name: `${requirement.id} ${result.title}`,
    file: 'suites/x.test.ts',
    state: 'passed',
    errors: [],
    result,
    webhooks: { expectations: [expectation], lagsMs },
  };
}

describe('the run settles what must not arrive at its end', () => {
  let link: WebhookLink;
  beforeAll(async () => {
    link = await serveWebhookLink({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await link.close();
  });

  it('a violation that comes 3 s after its check ended still fails the check, citing it', async () => {
    const url = link.receiver.urlFor('filter');
    await post(url, payload('task.completed', 'a'), 'ok');
    const expectation: PendingExpectation = {
      label: 'events of the task other than task.completed (not subscribed)',
      match: { token: 'filter', taskId: 'a' },
      per: 'delivery',
      allowed: link.receiver.deliveries().map((d) => deliveryKey(d, 'delivery')),
      since: Date.now() - 3_000,
      assertion: 1,
    };
    // The stray event arrives 3 s after the check stated the expectation (and ended).
    await post(url, payload('task.working', 'a'), 'stray');
    const test = collected(expectation, [5]);
    const settled = await settleWebhookExpectations([test], link.receiver, { secrets: [] });
    expect(settled).toMatchObject({ settledAtEnd: 1, changedAtEnd: 1, waitedMs: 0 });
    expect(test.result).toMatchObject({ status: 'fail', expected: [] });
    expect(test.result!.message).toContain('events of the task other than task.completed');
    expect(test.result!.assertions[1]).toMatchObject({ pass: false, actual: [{ event: 'task.working' }] });
    expect(test.result!.evidence.deliveries.map((d) => d.headers['x-webhook-delivery'])).toEqual(['stray']);
  });

  it('a violation within the grace period is waited for; copies of the graded attempt are not one', async () => {
    const url = link.receiver.urlFor('grace');
    await post(url, payload('task.completed', 'b'), 'ok-b');
    const expectation: PendingExpectation = {
      label: 'events of the task other than task.completed (not subscribed)',
      match: { token: 'grace', taskId: 'b' },
      per: 'delivery',
      allowed: link.receiver.deliveries({ token: 'grace' }).map((d) => deliveryKey(d, 'delivery')),
      since: Date.now(),
      assertion: 1,
    };
    // A duplicate of the graded delivery (legal), then a stray event 400 ms on, within the grace
    // (twice the 200 ms lag shown, plus 1 s).
    later(100, () => post(url, payload('task.completed', 'b'), 'ok-b'));
    later(400, () => post(url, payload('task.submitted', 'b'), 'stray-b'));
    const test = collected(expectation, [200]);
    const settled = await settleWebhookExpectations([test], link.receiver, { secrets: [] });
    expect(settled.graceMs).toBe(2 * 200 + LATE_TOLERANCE_MS);
    expect(settled.waitedMs).toBeGreaterThan(0);
    expect(test.result!.status).toBe('fail');
    expect(test.result!.assertions[1]!.actual).toEqual([
      expect.objectContaining({ event: 'task.submitted' }),
    ]);
  });

  it('nothing but copies of the graded attempt: the check passes, with a note of the rule', async () => {
    const url = link.receiver.urlFor('clean');
    await post(url, payload('task.completed', 'c'), 'ok-c');
    await post(url, payload('task.completed', 'c'), 'ok-c');
    // A retry of the graded delivery (its acknowledgement lost): the same delivery, not another.
    await post(url, payload('task.completed', 'c', 2), 'ok-c');
    const expectation: PendingExpectation = {
      label: 'events of the task other than task.completed (not subscribed)',
      match: { token: 'clean', taskId: 'c' },
      per: 'delivery',
      allowed: [deliveryKey(link.receiver.deliveries({ token: 'clean' })[0]!, 'delivery')],
      since: Date.now() - 10_000,
      assertion: 1,
    };
    const test = collected(expectation, [1]);
    await settleWebhookExpectations([test], link.receiver, { secrets: [] });
    expect(test.result!.status).toBe('pass');
    expect(test.result!.notes.join('\n')).toContain('twice the slowest delivery lag');
  });

  it('a worker mirrors the run receiver: a late delivery reaches a wait, and scripts apply', async () => {
    const mirror = await connectWebhookLink(link.url);
    try {
      expect(mirror.url).toBe(link.receiver.url);
      await mirror.script('mirror', [{ status: 500 }]);
      const wait = mirror.waitForResult({ token: 'mirror' }, { timeoutMs: 3_000 });
      later(300, () => post(mirror.urlFor('mirror'), payload('task.completed', 'm'), 'm1'));
      const got = await wait;
      expect(got.timedOut).toBe(false);
      expect(got.deliveries[0]!.response).toMatchObject({ status: 500 });
    } finally {
      await mirror.close();
    }
  });
});

describe('without the runner, a check waits out the grace itself', () => {
  const run = testRun({ baseUrl: 'http://127.0.0.1:9', agentId: 'a' }, { timeoutMs: 1000, seed: 1, runs: 1 });
  afterAll(async () => {
    await closeSharedReceiver(true);
  });

  it('a stray delivery after the check returned, within the grace, fails it', async () => {
    const result = await runCheck(
      {
        requirement,
        title: 'nothing arrives',
        fn: async (c) => {
          const hooks = await c.webhooks();
          const { token, url } = hooks.newUrl('local');
          hooks.expectNothingMore('deliveries to the url', { token });
          later(300, () => post(url, payload('task.completed', 'l'), 'late'));
        },
      },
      run,
    );
    expect(result.status).toBe('fail');
    expect(result.assertions).toEqual([
      expect.objectContaining({ label: 'deliveries to the url', pass: false }),
    ]);
    expect(result.evidence.deliveries).toHaveLength(1);
  });
});
