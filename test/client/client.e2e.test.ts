// `a2a-conformance client` proven both ways: the example driver (examples/client/) passes every
// client requirement in every scenario; each broken client of broken-clients.ts fails the
// requirement it is named for; a driver that never exits is killed at the scenario budget.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { main } from '../../harness/cli/program.ts';
import { checksOf } from '../../harness/client/run-client.ts';
import { runClient } from '../../harness/index.ts';
import { SCENARIOS } from '../../harness/client/scenarios.ts';
import type { RunResult, Verdict } from '../../core/types.ts';
import { getRequirement, requirementsOf } from '../../requirements/index.ts';
import { BROKEN_CLIENTS, clientName, LEGAL_CLIENTS } from './broken-clients.ts';

const EXAMPLE = new URL('../../examples/client/driver.mjs', import.meta.url).pathname;
const BROKEN = new URL('./broken-driver.mjs', import.meta.url).pathname;

/** 'gone' when the process no longer runs (a zombie waiting for its reaper counts as gone). */
function aliveState(pid: number): string {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z' ? 'gone' : 'running';
  } catch {
    return 'gone';
  }
}

const verdicts = (r: RunResult): Record<string, Verdict> =>
  Object.fromEntries(r.requirements.map((q) => [q.id, q.verdict]));

describe('client requirements and their checks', () => {
  it('grades every client requirement in some scenario, and only client requirements', () => {
    const checked = new Set(SCENARIOS.flatMap((s) => checksOf(s).map((c) => c.requirementId)));
    expect(
      requirementsOf('client')
        .filter((r) => !checked.has(r.id))
        .map((r) => r.id),
    ).toEqual([]);
    expect([...checked].filter((id) => getRequirement(id).role !== 'client')).toEqual([]);
  });

  it('has a broken client for every client requirement', () => {
    const broken = new Set(BROKEN_CLIENTS.map((b) => b.breaks));
    expect(
      requirementsOf('client')
        .filter((r) => !broken.has(r.id))
        .map((r) => r.id),
    ).toEqual([]);
  });
});

describe('the example driver (examples/client/driver.mjs)', () => {
  it('passes every client requirement in every scenario', async () => {
    const result = await runClient({ command: [process.execPath, EXAMPLE], out: null });
    expect(result.role).toBe('client');
    expect(Object.entries(verdicts(result)).filter(([, v]) => v !== 'pass')).toEqual([]);
    expect(result.exitCode).toBe(0);
    // The API key the scenario server gave the driver never reaches the report.
    expect(JSON.stringify(result)).toContain('[redacted]');
  }, 60_000);

  it('`client --scenario send -- node driver.mjs` exits 0; a scenario not run leaves its requirements not-exercised', async () => {
    const out: string[] = [];
    const io = {
      out: (t: string) => void out.push(t),
      err: (t: string) => void out.push(t),
      env: { NO_COLOR: '1' },
    };
    const code = await main(
      [
        'node',
        'a2a-conformance',
        'client',
        '--scenario',
        'send',
        '--out',
        '/dev/null/x',
        '--quiet',
        '--',
        process.execPath,
        EXAMPLE,
      ],
      io,
    );
    // --out into a path that cannot exist: the reports cannot be written, so the run could not be done.
    expect(code).toBe(2);
    const result = await runClient({ command: [process.execPath, EXAMPLE], scenarios: ['send'], out: null });
    expect(verdicts(result)['4.2/client-reads-final-event']).toBe('not-exercised');
    expect(verdicts(result)['4.1/client-reads-reply-text']).toBe('pass');
    expect(result.exitCode).toBe(0);
  }, 30_000);

  it('--only runs just the scenarios that grade the selected requirements', async () => {
    const result = await runClient({ command: [process.execPath, EXAMPLE], only: ['4.9/*'], out: null });
    expect(result.requirements.map((r) => [r.id, r.verdict])).toEqual([
      ['4.9/client-carries-context-id', 'pass'],
      ['4.9/client-sends-file-part', 'pass'],
    ]);
    const scenarios = new Set(result.requirements.flatMap((r) => r.checks.map((c) => c.title.split(':')[0])));
    expect(scenarios).toEqual(new Set(['multi-turn', 'file']));
  }, 30_000);

  it('refuses an unknown scenario and a missing command with exit 2', async () => {
    const err: string[] = [];
    const io = { out: () => undefined, err: (t: string) => void err.push(t), env: {} };
    expect(await main(['node', 'a2a-conformance', 'client', '--scenario', 'nope', '--', 'true'], io)).toBe(2);
    expect(err.join('')).toMatch(/unknown scenario/);
    expect(await main(['node', 'a2a-conformance', 'client'], io)).toBe(2);
  });
});

describe('drivers that misbehave as processes', () => {
  it('a driver that never exits is killed with its process group at the budget, and fails', async () => {
    const started = Date.now();
    const result = await runClient({
      // The background sleep is the driver's child: it must go with the driver's process group.
      command: ['sh', '-c', 'sleep 30 & echo "child $!"; wait'],
      scenarios: ['send'],
      scenarioTimeoutMs: 1000,
      out: null,
    });
    expect(Date.now() - started).toBeLessThan(15_000);
    // The scenario's own requirement fails (C-76); those about requests it never sent are not exercised.
    const send = result.requirements.find((r) => r.id === '4.1/client-reads-reply-text')!;
    expect(send.verdict).toBe('fail');
    const notes = send.checks[0]!.notes.join(' ');
    expect(notes).toContain('"killedAtBudget":true');
    const child = Number(/child (\d+)/.exec(notes)?.[1]);
    expect(child).toBeGreaterThan(0);
    expect(aliveState(child)).toBe('gone');
    expect(result.requirements.find((r) => r.id === '2.1/client-jsonrpc-2-0')!.verdict).toBe('not-exercised');
  }, 30_000);

  it('a command that cannot be started makes the run one that could not be done (exit 2)', async () => {
    const result = await runClient({ command: ['/no/such/driver'], scenarios: ['send'], out: null });
    expect(result.exitCode).toBe(2);
    expect(result.requirements.every((r) => r.verdict === 'error')).toBe(true);
  });
});

describe('legal client variants pass', () => {
  for (const { variant, scenarios } of LEGAL_CLIENTS) {
    it.concurrent(
      `${variant}: every client requirement its scenarios grade passes`,
      async () => {
        const result = await runClient({
          command: [process.execPath, BROKEN, variant],
          scenarios,
          out: null,
        });
        const graded = Object.entries(verdicts(result)).filter(([, v]) => v !== 'not-exercised');
        expect(graded.length).toBeGreaterThan(5);
        expect(graded.filter(([, v]) => v !== 'pass')).toEqual([]);
        expect(result.exitCode).toBe(0);
      },
      60_000,
    );
  }
});

describe('broken clients are caught, requirement by requirement', () => {
  for (const broken of BROKEN_CLIENTS) {
    it.concurrent(
      `${clientName(broken)}: ${broken.breaks} fails`,
      async () => {
        const result = await runClient({
          command: [process.execPath, BROKEN, broken.fault],
          scenarios: broken.scenarios,
          scenarioTimeoutMs: 15_000,
          out: null,
        });
        const got = result.requirements.find((r) => r.id === broken.breaks)!;
        expect(got.verdict, JSON.stringify(got.checks.map((c) => c.message))).toBe('fail');
        expect(result.exitCode).toBe(1);
      },
      30_000,
    );
  }
});
