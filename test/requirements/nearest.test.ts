// The "did you mean" of `explain` and `--only`: the ledger's nearest ids or sections to one it does
// not hold.
import { describe, expect, it } from 'vitest';
import { hasRequirement } from '../../requirements/index.ts';
import { didYouMean, nearestForGlob, nearestIds } from '../../requirements/nearest.ts';

describe('nearest ids', () => {
  it.each([
    ['4.4/cancel-reasn', '4.4/cancel-reason'],
    ['7/method-not-foud', '7/method-not-found-code'],
    ['cancel-race', '4.4/cancel-race-consistent'],
    ['4.4/cancel-completed-task', '4.4/cancel-completed-task-code'],
  ])('puts the id nearest to %s first', (word, id) => {
    const found = nearestIds(word);
    expect(found[0]).toBe(id);
    expect(found).toHaveLength(3);
    for (const f of found) expect(hasRequirement(f), f).toBe(true);
  });

  it('reads a glob with a slash as ids and one without as sections', () => {
    expect(nearestForGlob('4.4/cancle*')[0]).toMatch(/^4\.4\/cancel-/);
    expect(nearestForGlob('4.44')[0]).toBe('4.4');
    expect(nearestForGlob('4.4.*')[0]).toBe('4.4');
  });

  it('says the candidates in one clause, or nothing without one', () => {
    expect(didYouMean(['a', 'b', 'c'])).toBe('; did you mean a, b or c?');
    expect(didYouMean(['a'])).toBe('; did you mean a?');
    expect(didYouMean([])).toBe('');
  });
});
