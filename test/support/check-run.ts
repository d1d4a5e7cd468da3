// What a test needs to run one check with runCheck() outside a conformance run: a ledger entry to
// verify and the run the harness would provide (harness/provided.ts), both with placeholder values
// a test overrides where it matters.
import type { Requirement } from '../../requirements/types.ts';
import { FULL_SPEED, type ProvidedRun } from '../../harness/provided.ts';

/** A MUST service requirement with a placeholder behaviour and source; `id` sets id and section. */
export function testRequirement(id = '2.2/test-id'): Requirement {
  return {
    id,
    section: id.slice(0, id.indexOf('/')),
    role: 'service',
    level: 'MUST',
    behaviour: 'b',
    source: { line: 1, quote: 'q' },
  };
}

/** A provided run of the target at `baseUrl` at full speed, with a 2 s request and 5 s check timeout. */
export function testRun(
  target: { baseUrl: string; agentId: string; apiKey?: string },
  overrides: Partial<ProvidedRun> = {},
): ProvidedRun {
  return {
    baseUrl: target.baseUrl,
    agentId: target.agentId,
    auth: target.apiKey === undefined ? {} : { apiKey: target.apiKey },
    card: null,
    timeoutMs: 2000,
    checkTimeoutMs: 5000,
    seed: 7,
    runs: 3,
    webhookListen: { host: '127.0.0.1', port: 0 },
    bundled: false,
    field: { ...FULL_SPEED },
    ...overrides,
  };
}
