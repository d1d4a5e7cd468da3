// What changed since a previous fleet.json: a lower level, a worse exit or a newly failed requirement
// is a regression; the reverse is a fix; agents come and go; an agent not run on either side is
// compared by level and exit only (it has no requirement verdicts).
import { describe, expect, it } from 'vitest';
import { diffFleets } from '../../harness/fleet/changes.ts';
import { agent } from './fixtures.ts';

const before = [
  agent('steady', { failing: ['7/a'] }),
  agent('worse', { level: 'fully-compliant', exitCode: 0 }),
  agent('new-failure', { level: 'must-compliant', failing: ['7/a'] }),
  agent('better', { level: 'not-compliant', exitCode: 1, status: 'failed', failing: ['7/a', '7/b'] }),
  agent('down', { level: null, exitCode: 2, status: 'not-run', failing: [] }),
  agent('gone'),
];
const after = [
  agent('steady', { failing: ['7/a'] }),
  agent('worse', { level: 'unverified', exitCode: 2, status: 'not-run' }),
  agent('new-failure', { level: 'must-compliant', failing: ['7/a', '7/c'] }),
  agent('better', { level: 'must-compliant', failing: ['7/b'] }),
  agent('down', { level: 'fully-compliant' }),
  agent('added'),
];

describe('diffFleets', () => {
  const c = diffFleets({ agents: before, generatedAt: '2026-11-24T00:00:00Z' }, 'old/fleet.json', after);

  it('names regressions with before and after, and what newly fails', () => {
    expect(c.regressed.map((r) => r.name)).toEqual(['worse', 'new-failure']);
    expect(c.regressed[0]).toMatchObject({
      before: { level: 'fully-compliant', exitCode: 0 },
      after: { level: 'unverified', exitCode: 2 },
      newlyFailing: [],
    });
    expect(c.regressed[1]!.newlyFailing).toEqual(['7/c']);
  });

  it('names fixes, including an agent that could not be run before', () => {
    expect(c.fixed.map((r) => r.name)).toEqual(['better', 'down']);
    expect(c.fixed[0]!.nowPassing).toEqual(['7/a']);
  });

  it('lists agents added and removed, and requirements failed now by some agent and before by none', () => {
    expect(c).toMatchObject({
      added: ['added'],
      removed: ['gone'],
      newlyFailing: ['7/c'],
      previous: 'old/fleet.json',
    });
  });
});
