// A short slice of the soak run (reliability/soak.ts; `npm run soak` runs 200 clients for 60 s):
// concurrent clients mixing send, stream, get, cancel, resubscribe and webhook set against a
// reference server in a child process. No error beyond the ruled limits, every task final, every
// webhook event delivered (or recorded failed) under one delivery id, the process alive.
import { describe, expect, it } from 'vitest';
import { runSoak, soakVerdict } from '../../reliability/soak.ts';

describe('soak of the reference server (spec 4.1-4.7, 6; C-20, C-21, C-31)', () => {
  it('keeps every task and webhook event accounted for under 16 concurrent clients for 3 s', async () => {
    const report = await runSoak({ clients: 16, durationMs: 3000, settleMs: 15_000, sampleEveryMs: 1000 });
    expect(report.errorExamples).toEqual([]);
    expect(report.tasks.stuck).toEqual([]);
    expect(report.webhooks.lost).toEqual([]);
    expect(report.webhooks.duplicates).toEqual([]);
    expect(soakVerdict(report)).toEqual([]);
    // Every operation of the mix ran, and the flaky receiver made retries happen.
    for (const count of Object.values(report.operations)) expect(count).toBeGreaterThan(0);
    expect(report.tasks.byState.canceled).toBeGreaterThan(0);
    // Each expected event acknowledged or, on a starved machine, failed after its retries or dropped
    // past the backlog bound (C-50); none lost.
    const { delivered, recordedFailed, dropped, canceled, expectedEvents, lostCount } = report.webhooks;
    expect(lostCount).toBe(0);
    expect(delivered + recordedFailed + dropped + canceled).toBe(expectedEvents);
    expect(delivered).toBeGreaterThan(0);
  }, 90_000);
});
