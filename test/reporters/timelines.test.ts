// Timelines of report.html: SSE points in arrival order, webhook attempts grouped by delivery id with
// the measured delay before each retry beside the policy's initialDelay x multiplier^(n-1) (C-20).
import { describe, expect, it } from 'vitest';
import {
  expectedDelayMs,
  policyFor,
  streamTimeline,
  webhookTimelines,
} from '../../reporters/html/timelines.ts';
import { deliveries, exchange, transcript } from './fixtures.ts';

describe('SSE timeline', () => {
  it('orders headers, events, comments and the close by time, labelled by task state', () => {
    const t = streamTimeline(transcript('ex-2'), 100);
    expect(t.points.map((p) => [p.atMs, p.kind, p.label])).toEqual([
      [8, 'headers', 'HTTP 200 text/event-stream'],
      [10, 'event', 'submitted'],
      [12, 'event', 'working'],
      [200, 'comment', ': ping'],
      [250, 'event', 'completed (final)'],
      [260, 'close', 'closed by server'],
    ]);
    expect(t.points.find((p) => p.final)?.label).toBe('completed (final)');
  });

  it('caps the points and says how many were left out', () => {
    const t = streamTimeline(transcript('ex-2'), 2);
    expect(t.points).toHaveLength(2);
    expect(t.omitted).toBe(4);
  });
});

describe('webhook timeline', () => {
  it('groups attempts by X-Webhook-Delivery and measures each retry delay from the previous answer', () => {
    const [w] = webhookTimelines(deliveries(), []);
    expect(w).toMatchObject({ deliveryId: 'd-1', event: 'task.completed', policy: { source: 'default' } });
    expect(w!.attempts).toEqual([
      { attempt: 1, atMs: 0, outcome: 'answered 500' },
      { attempt: 2, atMs: 1005, outcome: 'answered 500', measuredDelayMs: 1003, expectedDelayMs: 1000 },
      { attempt: 3, atMs: 3010, outcome: 'answered 500', measuredDelayMs: 2003, expectedDelayMs: 2000 },
    ]);
  });

  it('takes the retry policy from the configuration in the check whose url reaches the delivery path', () => {
    const config = {
      url: 'http://127.0.0.1:9/hooks/retry-1',
      retryPolicy: { initialDelay: 0.1, backoffMultiplier: 3 },
    };
    const ex = exchange('ex-1', { method: 'tasks/pushNotificationConfig/set', params: { config } }, {});
    const other = exchange(
      'ex-2',
      { params: { config: { url: 'http://127.0.0.1:9/hooks/other', retryPolicy: { initialDelay: 9 } } } },
      {},
    );
    const policy = policyFor('/hooks/retry-1', [other, ex]);
    expect(policy).toEqual({ maxRetries: 3, backoffMultiplier: 3, initialDelay: 0.1, source: 'configured' });
    expect([1, 2, 3].map((n) => expectedDelayMs(policy, n))).toEqual([100, 300, 900]);
    const [w] = webhookTimelines(deliveries(), [ex]);
    expect(w!.attempts.map((a) => a.expectedDelayMs)).toEqual([undefined, 100, 300]);
  });

  it('keeps separate events apart', () => {
    const two = deliveries();
    two[2]!.headers['x-webhook-delivery'] = 'd-2';
    expect(webhookTimelines(two, []).map((w) => [w.deliveryId, w.attempts.length])).toEqual([
      ['d-1', 2],
      ['d-2', 1],
    ]);
  });
});
