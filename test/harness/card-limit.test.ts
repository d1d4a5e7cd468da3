// cardLimit (harness/capabilities.ts): the one reader of a card's stated limits (spec 8), and the pace
// and task cap the runner derives from them.
import { describe, expect, it } from 'vitest';
import { cardLimit } from '../../harness/capabilities.ts';
import { paceFor, taskCapFor } from '../../harness/runner/traffic.ts';

describe('cardLimit', () => {
  it('reads a positive finite number under limits', () => {
    const card = { limits: { requestsPerMinute: 90, concurrentTasks: 4, systemTimeoutMs: 2500 } };
    expect(cardLimit(card, 'requestsPerMinute')).toBe(90);
    expect(cardLimit(card, 'concurrentTasks')).toBe(4);
    expect(cardLimit(card, 'systemTimeoutMs')).toBe(2500);
  });

  it('is undefined for an unknown card, no limits, or a value that is not a positive finite number', () => {
    expect(cardLimit(null, 'concurrentTasks')).toBeUndefined();
    expect(cardLimit(undefined, 'concurrentTasks')).toBeUndefined();
    expect(cardLimit({}, 'concurrentTasks')).toBeUndefined();
    expect(cardLimit({ limits: 'many' }, 'concurrentTasks')).toBeUndefined();
    for (const bad of ['4', 0, -3, Number.NaN, Number.POSITIVE_INFINITY, null]) {
      expect(cardLimit({ limits: { concurrentTasks: bad } }, 'concurrentTasks')).toBeUndefined();
    }
  });

  it('gives the runner its pace and task cap', () => {
    expect(paceFor({}, { limits: { requestsPerMinute: 90.7 } })).toEqual({
      limit: 90,
      windowMs: 60_000,
      source: 'card',
    });
    expect(paceFor({}, { limits: { requestsPerMinute: 0.5 } })).toBeNull();
    expect(taskCapFor({ limits: { concurrentTasks: 3 } })).toBe(3);
    expect(taskCapFor({ limits: { concurrentTasks: 2.5 } })).toBeNull();
  });
});
