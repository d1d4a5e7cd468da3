// Webhook delivery against faulty receivers (reliability/webhook-faults.ts; spec 6.5, C-20): 500s,
// resets, slow readers and trickled answers, with short retry schedules (retryPolicy allows them,
// C-19), plus one receiver that hangs past the 5 s attempt limit. Every event ends delivered within
// its retry budget or failed after it, under one delivery id.
import { describe, expect, it } from 'vitest';
import { runWebhookFaults } from '../../reliability/webhook-faults.ts';

describe('webhook delivery against faulty receivers (spec 6.5; C-20)', () => {
  it('delivers or records as failed every event, within its retries, never duplicated', async () => {
    const report = await runWebhookFaults({ long: false, extra: ['hang'] });
    expect(report.crashed).toBe(false);
    const names = report.scenarios.map((s) => s.name);
    expect(names).toEqual([
      'always-500',
      '500-then-ok',
      'always-reset',
      'reset-then-ok',
      'slow-read',
      'slow-answer',
      'hang',
    ]);
    for (const scenario of report.scenarios) {
      expect(scenario.problems, scenario.name).toEqual([]);
      expect(scenario.byStatus, scenario.name).toEqual({ [scenario.expect]: scenario.events });
    }
  }, 60_000);
});
