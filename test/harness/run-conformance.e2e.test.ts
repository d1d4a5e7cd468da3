// runConformance end to end: the bundled reference server passes the first suite; a closed port and
// a refused credential make runs that could not be done (exit 2, no pass); a throttle in front of a
// fixture changes no verdict and is recorded (traffic.rateLimit.throttled); a broken fixture fails
// the right requirement with expected vs actual and evidence; report.json, reporters and baselines.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatSummary, runConformance, type RunResult } from '../../harness/index.ts';
import { complianceOf } from '../../reporters/score.ts';
import { closedPort, startFixture, type Fixture } from './fixtures/jsonrpc-fixture.ts';

/** The requirements the first suite (suites/02-01-envelopes) verifies. */
const SUITE_IDS = [
  '2.1/jsonrpc-required',
  '2.1/method-required',
  '2.1/method-from-section-4',
  '2.2/response-jsonrpc-version',
  '2.2/response-id-equals-request-id',
  '2.2/id-null-when-unreadable',
  '7/parse-error-code',
  '7/invalid-request-code',
  '7/method-not-found-code',
];

const out = mkdtempSync(join(tmpdir(), 'a2a-run-'));

describe('against the bundled reference server', () => {
  let result: RunResult;
  beforeAll(async () => {
    result = await runConformance({ only: SUITE_IDS, out, seed: 11, runs: 5 });
  });

  it('passes every requirement of the first suite with exit 0', () => {
    expect(result.requirements.map((r) => [r.id, r.verdict])).toEqual(SUITE_IDS.map((id) => [id, 'pass']));
    for (const r of result.requirements) {
      expect(r.checks.length).toBeGreaterThan(0);
      expect(r.checks.every((c) => c.status === 'pass' && c.evidence.exchanges.length > 0)).toBe(true);
    }
    expect(result.exitCode).toBe(0);
    expect(result.harnessErrors).toEqual([]);
  });

  it('counts verdicts by verdict and level', () => {
    expect(result.summary.total).toBe(SUITE_IDS.length);
    expect(result.summary.byVerdict.pass).toBe(SUITE_IDS.length);
    const byLevel = result.requirements.filter((r) => r.level === 'MUST').length;
    expect(result.summary.byLevel.MUST.pass).toBe(byLevel);
  });

  it('records the target, the card and the options, and writes report.json without secrets', () => {
    expect(result.target).toMatchObject({ agentId: 'reference-agent', bundled: true, authKind: 'api-key' });
    expect(result.reachability).toMatchObject({ reachable: true, authenticated: true });
    expect(result.card).toHaveProperty('agent');
    expect(result.options).toMatchObject({ seed: 11, runs: 5, only: SUITE_IDS, level: 'all' });
    const written = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as RunResult;
    expect(written.requirements.map((r) => r.verdict)).toEqual(result.requirements.map((r) => r.verdict));
    const check = written.requirements[0]!.checks[0]!;
    expect(check.reproduce.command).toContain(`--only ${SUITE_IDS[0]} --seed 11 --runs 5`);
    expect(check.reproduce.curl).toContain('$A2A_API_KEY');
    expect(JSON.stringify(written)).not.toMatch(/x-api-key":"(?!\[redacted\])/);
  });
});

describe('behind a throttle the card does not announce', () => {
  it('absorbs its 429s, changes no verdict and records the pace it lowered (traffic.rateLimit.throttled)', async () => {
    const run = async (throttle: number[]): Promise<RunResult> => {
      const fx = await startFixture({ throttle });
      try {
        return await runConformance({
          ...{ target: fx.baseUrl, agentId: fx.agentId, apiKey: fx.apiKey, only: SUITE_IDS, out: null },
          // As the CLI runs (it always passes its interrupt signal): the governor is the runner's.
          signal: new AbortController().signal,
        });
      } finally {
        await fx.close();
      }
    };
    const plain = await run([]);
    const throttled = await run([12]);
    const verdicts = (r: RunResult) => r.requirements.map((q) => [q.id, q.verdict]);
    expect(verdicts(throttled)).toEqual(verdicts(plain));
    expect(throttled.exitCode).toBe(plain.exitCode);
    expect(throttled.traffic?.faults?.throttled).toMatchObject({ count: 1, retried: 1 });
    expect(plain.traffic?.rateLimit.throttled).toEqual({
      decreases: 0,
      lowestPerS: null,
      endPerS: null,
      followUpsFirst: 0,
    });
    const lowered = throttled.traffic?.rateLimit.throttled;
    expect(lowered).toMatchObject({ decreases: 1, followUpsFirst: 0 });
    expect(lowered?.lowestPerS).toBeGreaterThan(0);
    expect(formatSummary(throttled)).toContain(
      "pace lowered below the card's 1 time(s) by a throttle or gateway in front of the agent",
    );
  });
});

describe('runs that could not be done', () => {
  it('exits 2 against a closed port and never reports a pass', async () => {
    const port = await closedPort();
    const r = await runConformance({
      target: `http://127.0.0.1:${port}`,
      agentId: 'a',
      apiKey: 'k',
      only: SUITE_IDS,
      out: null,
    });
    expect(r.exitCode).toBe(2);
    expect(r.reachability.reachable).toBe(false);
    expect(r.summary.byVerdict.pass).toBe(0);
    expect(r.requirements.every((q) => q.verdict === 'error')).toBe(true);
  });

  it('exits 2 when the credential is refused', async () => {
    const fx = await startFixture();
    try {
      const r = await runConformance({
        target: fx.baseUrl,
        agentId: fx.agentId,
        apiKey: 'wrong-key',
        only: SUITE_IDS,
        out: null,
      });
      expect(r).toMatchObject({
        exitCode: 2,
        reachability: { reachable: true, authenticated: false, status: 401 },
      });
      expect(r.summary.byVerdict.pass).toBe(0);
    } finally {
      await fx.close();
    }
  });
});

describe('the whole-run budget', () => {
  // A budget large enough for the hung check to start on a loaded machine (vitest loads first, 10 s
  // and more at a load average of 15-20): a check that never started is not-exercised, whatever the
  // target does.
  it('ends a run whose target stops answering, with exit 2', async () => {
    const fx = await startFixture({ hangOn: 'tasks/conformanceProbeUnknownMethod' });
    try {
      const t0 = Date.now();
      const lines: string[] = [];
      const r = await runConformance({
        ...{ target: fx.baseUrl, agentId: fx.agentId, apiKey: fx.apiKey, only: SUITE_IDS, out: null },
        ...{ timeoutMs: 120_000, checkTimeoutMs: 120_000, budgetMs: 25_000 },
        log: (l: string) => lines.push(l),
      });
      // The budget, then 5 s of grace for the checks under way: not the 120 s of the hung request.
      expect(Date.now() - t0).toBeLessThan(60_000);
      // It was 0 when the runner never heard the hung check start (vitest held the news; fixed by
      // CheckSpec.outlivesRun): should it ever not be 2 again, the message shows what the run saw.
      const seen = [
        `hung request sent at ${fx.hungAt.map((t) => `${t - t0} ms`).join(', ') || 'no time'} of the run`,
        ...r.requirements.map((q) => `${q.id}: ${q.verdict}`),
        ...r.harnessErrors.map((e) => `harness error: ${e.message}`),
        ...lines,
      ].join('\n');
      expect(r.exitCode, seen).toBe(2);
      expect(r.harnessErrors.map((e) => e.message).join()).toContain(
        "run budget of 25000 ms was spent and 1 check(s) were still waiting on the target's answer",
      );
      // The check that waits on the hung request is an error; what never ran is not-exercised.
      const hung = r.requirements.filter((q) => q.verdict === 'error');
      expect(hung).toHaveLength(1);
      expect(hung[0]!.checks.map((c) => c.message).join()).toContain("still waiting on the target's answer");
      expect(r.requirements.find((q) => q.id === '7/method-not-found-code')!.verdict).not.toBe('pass');
    } finally {
      await fx.close();
    }
  }, 90_000);

  it('ends a run whose budget is too small for a target that answers, with exit 0 or 1 and an honest level', async () => {
    // Every answer 1.5 s late, one request at a time (the suite's checks and cases run side by side
    // otherwise): phase 1 alone needs about 12 requests (18 s), the budget holds 6 s. With 800 ms, the
    // MUST-first pass reached 8 or all 9 requirements within the budget and its grace, by the load.
    const fx = await startFixture({ delayMs: 1500 });
    try {
      const lines: string[] = [];
      const r = await runConformance({
        ...{ target: fx.baseUrl, agentId: fx.agentId, apiKey: fx.apiKey, only: SUITE_IDS, out: null },
        ...{ timeoutMs: 10_000, checkTimeoutMs: 30_000, budgetMs: 6_000, concurrency: 1 },
        log: (l: string) => lines.push(l),
      });
      // The check under way gets its answer (1.5 s) within the grace: the runner does not wait it all
      // out (5 s), whatever the machine's load did to the time before the budget.
      const after = /budget: the checks under way ended ([\d.]+) s after it/.exec(lines.join('\n'));
      expect(after, lines.join('\n')).not.toBeNull();
      expect(Number(after![1])).toBeLessThan(5);
      expect([0, 1]).toContain(r.exitCode);
      expect(r.harnessErrors).toEqual([]);
      const notRun = r.requirements.filter((q) => q.verdict === 'not-exercised');
      expect(notRun.length).toBeGreaterThan(0);
      expect(r.requirements.some((q) => q.verdict === 'error')).toBe(false);
      // Not-exercised is never a pass: the level says unverified, not compliant.
      expect(complianceOf(r).level).toBe(r.exitCode === 1 ? 'not-compliant' : 'unverified');
      const why = (q: (typeof notRun)[number]): string => q.checks[0]?.message ?? q.message ?? '';
      for (const q of notRun) expect(why(q)).toMatch(/run budget of 6000 ms was spent before .*--budget-ms/);
      expect(r.traffic?.cut.map((c) => c.what).join()).toContain("checks the run's budget ended before they");
      expect(r.traffic?.plan?.budgetMs).toBe(6_000);
    } finally {
      await fx.close();
    }
  });
});

describe("the probe's turn in the whole-run budget", () => {
  // --budget-ms is the whole run's. The probe measures a turn up to --cold-start-ms (capped at the
  // budget): a target that never answers it spends the whole budget there, and the suites, which
  // once counted a budget of their own from their start, must not run a second one after it.
  it('a turn that spends the budget leaves the checks not-exercised, cut by the budget', async () => {
    const fx = await startFixture({ hangOn: 'message/send' });
    try {
      const t0 = Date.now();
      const lines: string[] = [];
      const r = await runConformance({
        ...{ target: fx.baseUrl, agentId: fx.agentId, apiKey: fx.apiKey, only: SUITE_IDS, out: null },
        ...{ timeoutMs: 1_000, checkTimeoutMs: 3_000, budgetMs: 15_000 },
        log: (l: string) => lines.push(l),
      });
      const seen = [...r.requirements.map((q) => `${q.id}: ${q.verdict}`), ...lines].join('\n');
      // The probe's turn went out and was never answered (the budget ended its wait).
      expect(fx.hungAt, seen).toHaveLength(1);
      expect(r.summary.byVerdict.pass, seen).toBe(0);
      for (const q of r.requirements) {
        expect(q.verdict, seen).toBe('not-exercised');
        expect(q.checks[0]?.message ?? q.message ?? '').toMatch(/run budget of 15000 ms was spent before/);
      }
      expect(r.exitCode, seen).toBe(0);
      // The budget and its grace, with room for vitest to load on a busy machine; not two budgets.
      expect(Date.now() - t0).toBeLessThan(60_000);
    } finally {
      await fx.close();
    }
  }, 90_000);
});

describe('against a fixture that does not echo the id', () => {
  let fx: Fixture;
  let result: RunResult;
  let reported: RunResult | undefined;
  beforeAll(async () => {
    fx = await startFixture({ wrongId: 'not-your-id' });
    const baseline = join(out, 'baseline.json');
    writeFileSync(
      baseline,
      JSON.stringify({ requirements: SUITE_IDS.map((id) => ({ id, verdict: 'pass' })) }),
    );
    result = await runConformance({
      target: fx.baseUrl,
      agentId: fx.agentId,
      apiKey: fx.apiKey,
      only: SUITE_IDS,
      out: null,
      baseline,
      reporters: [(r) => void (reported = r)],
    });
  });
  afterAll(async () => {
    await fx.close();
  });

  it('fails the id requirement with expected beside actual and the exchange as evidence', () => {
    const req = result.requirements.find((r) => r.id === '2.2/response-id-equals-request-id')!;
    expect(req.verdict).toBe('fail');
    const check = req.checks.find((c) => c.status === 'fail')!;
    const sent = (check.evidence.exchanges[0]!.request.json as { id: string }).id;
    expect(check).toMatchObject({ expected: sent, actual: 'not-your-id' });
    expect(check.evidence.exchanges[0]!.response?.json).toMatchObject({ id: 'not-your-id' });
    expect(result.exitCode).toBe(1);
  });

  it('still passes what the fixture does right', () => {
    const verdicts = Object.fromEntries(result.requirements.map((r) => [r.id, r.verdict]));
    expect(verdicts['2.2/response-jsonrpc-version']).toBe('pass');
    expect(verdicts['7/parse-error-code']).toBe('pass');
  });

  it('hands the result to the reporters and compares it with the baseline', () => {
    expect(reported).toBe(result);
    expect(result.baseline?.regressions).toContainEqual({
      id: '2.2/response-id-equals-request-id',
      before: 'pass',
      after: 'fail',
    });
  });
});
