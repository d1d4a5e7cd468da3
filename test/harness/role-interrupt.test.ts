// A receiver or client run interrupted (SIGINT, SIGTERM): its RunResult keeps the verdicts decided,
// marks the requirements without a check not-exercised naming the signal, and exits 130 or 143.
import { describe, expect, it } from 'vitest';
import { interruption } from '../../core/interrupt.ts';
import type { CheckResult } from '../../core/types.ts';
import { roleRunOptions, roleRunResult } from '../../harness/roles/role-run.ts';
import { selectForRun } from '../../harness/runner/select-requirements.ts';

function interrupted(signal: 'SIGINT' | 'SIGTERM'): AbortSignal {
  const controller = new AbortController();
  controller.abort(interruption(signal));
  return controller.signal;
}

describe('an interrupted role run', () => {
  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)('%s: the decided verdict stands, the rest not-exercised, exit %i', (signal, code) => {
    const options = roleRunOptions({ signal: interrupted(signal) }, 1_000);
    const selected = selectForRun(options, 'receiver');
    const first = selected[0]!;
    const passed: CheckResult = {
      requirementId: first.id,
      title: 'a check that ended before the signal',
      status: 'pass',
      message: 'pass',
      reproduce: { command: 'npx a2a-conformance receiver --url http://127.0.0.1:9/hooks' },
      assertions: [],
      notes: [],
      evidence: { exchanges: [], streams: [], deliveries: [] },
      durationMs: 1,
    };
    const result = roleRunResult({
      role: 'receiver',
      target: 'http://127.0.0.1:9/hooks',
      selected,
      checks: [passed],
      reachability: { reachable: true, authenticated: true, message: 'reached', durationMs: 1 },
      harnessErrors: [],
      couldNotRun: null,
      startedAt: new Date(),
      options,
      secrets: [],
    });
    expect(result.exitCode).toBe(code);
    expect(result.exitReason).toBe(
      `interrupted (${signal}): 1 requirement(s) decided, ${selected.length - 1} not exercised`,
    );
    expect(result.requirements[0]!.verdict).toBe('pass');
    for (const r of result.requirements.slice(1)) {
      expect(r.verdict).toBe('not-exercised');
      expect(r.message).toMatch(new RegExp(`interrupted \\(${signal}\\)`));
    }
  });
});
