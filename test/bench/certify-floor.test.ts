// The certification floor of the benchmark (bench/scenarios/certify.ts): the waits a check could not
// avoid, read from its recorded evidence, and their sum over suite files spread over the workers.
import { describe, expect, it } from 'vitest';
import { floorOf, waitOf } from '../../bench/scenarios/certify.ts';

const send = (directive: object): { request: { body: string } } => ({
  request: {
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'message/send',
      params: { message: { parts: [{ type: 'text', text: `a2a:directive ${JSON.stringify(directive)}` }] } },
    }),
  },
});
const rpc = (method: string, params: object = {}): { request: { body: string } } => ({
  request: { body: JSON.stringify({ jsonrpc: '2.0', id: 2, method, params }) },
});
const delivery = (id: string, receivedAtMs: number) => ({
  receivedAtMs,
  headers: { 'x-webhook-delivery': id },
  path: '/h',
});
const check = (
  durationMs: number,
  exchanges: object[],
  deliveries: object[] = [],
  file = 'suites/a.test.ts',
) => ({ file, durationMs, evidence: { exchanges, deliveries } }) as Parameters<typeof waitOf>[0];

describe('bench certification floor', () => {
  it('counts a directive delay, capped at the time the check really took', () => {
    expect(waitOf(check(1200, [send({ delayMs: 1000 })]), 2000)).toBe(1000);
    expect(waitOf(check(150, [send({ delayMs: 1500 }), rpc('tasks/cancel')]), 2000)).toBe(150);
  });

  it('counts the system timeout for a task never canceled or seen ended by the timeout', () => {
    expect(waitOf(check(2100, [send({ runUntilCanceled: true })]), 2000)).toBe(2000);
    expect(waitOf(check(300, [send({ runUntilCanceled: true }), rpc('tasks/cancel')]), 2000)).toBe(0);
    const timedOut = {
      ...rpc('tasks/get'),
      response: { body: '{"status":{"state":"canceled","reason":"system timeout"}}' },
    };
    expect(waitOf(check(2200, [send({ runUntilCanceled: true }), rpc('tasks/cancel'), timedOut]), 2000)).toBe(
      2000,
    );
  });

  it('counts scheduled retry delays and the 5 s receiver timeout of a held attempt', () => {
    const set = rpc('tasks/pushNotificationConfig/set', {
      config: { url: 'http://x/h', retryPolicy: { initialDelay: 0.1, backoffMultiplier: 2 } },
    });
    const retried = [delivery('d', 0), delivery('d', 105), delivery('d', 310)];
    expect(waitOf(check(400, [set], retried), 2000)).toBeCloseTo(300);
    // The receiver held the first attempt past 5 s; it sees the retry 5094 ms after the first.
    const held = [delivery('d', 0), delivery('d', 5094)];
    expect(waitOf(check(5200, [set], held), 2000)).toBeCloseTo(5100);
  });

  it('sums the largest wait of each file in one worker, since files run one after another', () => {
    const report = {
      durationMs: 0,
      exitCode: 0,
      card: { limits: { systemTimeoutMs: 2000 } },
      requirements: [
        { checks: [check(1100, [send({ delayMs: 1000 })]), check(600, [send({ delayMs: 500 })])] },
        { checks: [check(2100, [send({ runUntilCanceled: true })], [], 'suites/b.test.ts')] },
      ],
    };
    expect(floorOf(report)).toMatchObject({
      floorMs: 3000,
      checksCriticalPathMs: 3200,
      workers: 1,
      files: 2,
      checks: 3,
    });
  });

  it('spreads the files over the workers, never below the longest file', () => {
    const file = (name: string, delayMs: number) => ({
      checks: [check(delayMs + 100, [send({ delayMs })], [], `suites/${name}.test.ts`)],
    });
    const report = (suiteWorkers: number) => ({
      durationMs: 0,
      exitCode: 0,
      traffic: { concurrency: { suiteWorkers } },
      requirements: [file('a', 1000), file('b', 1000), file('c', 2000)],
    });
    expect(floorOf(report(2))).toMatchObject({ floorMs: 2000, checksCriticalPathMs: 2150, workers: 2 });
    expect(floorOf(report(4))).toMatchObject({ floorMs: 2000, checksCriticalPathMs: 2100, workers: 4 });
    expect(floorOf(report(1)).floorMs).toBe(4000);
  });
});
