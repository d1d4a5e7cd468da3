// Field conditions, a short slice of `npm run field`: an agent that answers "rate limited" (HTTP 429,
// Retry-After, -32012) to every third of its first requests is certified without one of those answers graded as
// a violation; a 60 requests/min agent is paced from its card; a 5-minute system timeout is left
// not-exercised, naming the --max-wait that would exercise it; the runner fills the rate window ahead of
// the rate-limit burst.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance, type RunResult } from '../../harness/index.ts';
import { startDelayProxy, type DelayProxy } from '../../bench/field/delay-proxy.ts';
import { defaultAgent, generateApiKey, startReferenceServer } from '../../reference-server/index.ts';
import type { ReferenceServer } from '../../reference-server/types.ts';

// A few requirements whose checks send a handful of requests, task-creating ones included.
const ONLY = ['2.2/response-id-equals-request-id', '2.7/task-id', '7/method-not-found-code'];
// One requirement of each of eight files, and the rate-limit checks.
const SPREAD = [
  '9/version-path-v1',
  '2.14/card-agent-id',
  '4.8/capabilities-by-default',
  '5/cors-allow-origin',
  '1/json-rpc-over-http',
  '2.2/response-jsonrpc-version',
  '2.1/id-required',
  '2.2/result-on-success',
];
const RATE_LIMIT = ['8/rate-limit-enforced', '8/rate-limit-error-code'];
const key = generateApiKey();
let server: ReferenceServer;
let proxy: DelayProxy;

beforeAll(async () => {
  server = await startReferenceServer({
    host: '127.0.0.1',
    port: 0,
    allowPrivateWebhookTargets: true,
    agents: [
      {
        ...defaultAgent('reference-agent', key),
        limits: { requestsPerMinute: 60, concurrentTasks: 4, maxMessageLength: 100_000 },
      },
    ],
  });
  // Each refusal costs the run its Retry-After (1 s): five of them.
  proxy = await startDelayProxy(server.baseUrl, { refuse: (n) => n % 3 === 0 && n <= 15 });
});
afterAll(async () => {
  await proxy?.close();
  await server?.close();
});

function certify(target: string, extra: Record<string, unknown> = {}): Promise<RunResult> {
  return runConformance({ target, agentId: 'reference-agent', apiKey: key, out: null, seed: 5, ...extra });
}

function graded(result: RunResult, verdicts: string[]): string[] {
  return result.requirements.filter((r) => verdicts.includes(r.verdict)).map((r) => `${r.id}: ${r.message}`);
}

describe('field conditions', () => {
  it('rate-limited answers are waited out and resent, never graded', async () => {
    const result = await certify(proxy.baseUrl, { only: ONLY });
    expect(graded(result, ['fail', 'warn', 'error'])).toEqual([]);
    expect(result.exitCode).toBe(0);
    const t = result.traffic!;
    expect(t.rateLimit.rateLimitedAnswers).toBeGreaterThan(0);
    expect(t.requests).toBeGreaterThan(t.rateLimit.rateLimitedAnswers);
    expect(t.agentTurns).toBeGreaterThan(0);
    expect(t.profile).toBe('standard');
  }, 60_000);

  it('the runner fills the rate window ahead of the burst, and the burst reaches the limit with fewer', async () => {
    // An agent of its own: the burst leaves it refusing for a minute.
    const limit = 1_000;
    const own = await startReferenceServer({
      host: '127.0.0.1',
      port: 0,
      agents: [
        {
          ...defaultAgent('reference-agent', key),
          limits: { requestsPerMinute: limit, concurrentTasks: 4, maxMessageLength: 100_000 },
        },
      ],
    });
    try {
      // Eight files or more run in several workers, where the runner keeps the governor.
      const result = await certify(own.baseUrl, { only: [...SPREAD, ...RATE_LIMIT] });
      expect(graded(result, ['fail', 'warn', 'error'])).toEqual([]);
      const t = result.traffic!;
      expect(t.concurrency.suiteWorkers).toBeGreaterThan(1);
      const fill = t.windowFill!;
      expect(fill.requests).toBeGreaterThan(0);
      // Those in flight when the burst came were cut short.
      expect(fill.served).toBeGreaterThan(0);
      expect(fill.served).toBeLessThanOrEqual(fill.requests);
      expect(fill.requests).toBeLessThanOrEqual(fill.goal);
      // The pace's 950 less a tenth of it and what the plan saw coming.
      expect(fill.goal).toBeLessThan(950 - 95);
      const enforced = result.requirements.find((r) => r.id === '8/rate-limit-enforced')!;
      expect(enforced.verdict).toBe('pass');
      const notes = enforced.checks[0]!.notes.join('\n');
      expect(notes).toContain(`the run sent ${fill.requests} requests of the same kind ahead of the burst`);
      const sent = Number(/^(\d+) requests in \d+ ms/m.exec(notes)?.[1]);
      expect(sent).toBeLessThan(limit - fill.served + 20);
      expect(t.requests).toBeGreaterThanOrEqual(fill.requests + sent);
    } finally {
      await own.close();
    }
  }, 60_000);

  it('the pace comes from the card; a long system timeout waits for --max-wait', async () => {
    const result = await certify(server.baseUrl, { only: [...ONLY, '3/system-timeout-reason'] });
    expect(graded(result, ['fail', 'warn', 'error'])).toEqual([]);
    const t = result.traffic!;
    expect(t.rateLimit).toMatchObject({ requestsPerMinute: 60, source: 'card', rateLimitedAnswers: 0 });
    const timeout = result.requirements.find((r) => r.id === '3/system-timeout-reason')!;
    expect(timeout.verdict).toBe('not-exercised');
    expect(timeout.checks[0]?.message).toMatch(/--max-wait 7m would exercise it/);
    expect(t.cut.map((c) => c.option)).toContain('--max-wait 7m');
  }, 60_000);
});
