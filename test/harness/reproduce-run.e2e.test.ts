// Every reproduce line of a failing run's report.json runs as printed and re-runs what failed: the
// harness is run against a mutant that answers an unknown method with -32600 (breaking
// 7/method-not-found-code), then each distinct `command` line runs in a shell (credentials from
// $A2A_API_KEY, reports to $A2A_OUT) and must fail the same requirement, and each `curl` line of a
// failing check must get the same wrong answer again. No line holds a credential or `[redacted]`.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadVariants, runHarness } from '../../mutants/runner.ts';
import type { MutantTarget } from '../../mutants/types.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BROKEN = '7/method-not-found-code';

interface Check {
  status: string;
  reproduce: { command: string; curl?: string };
}
interface Report {
  requirements: Array<{ id: string; verdict: string; checks: Check[] }>;
}

/** Runs one line in sh from the project root; resolves with its exit code and output. */
function sh(line: string, env: Record<string, string>): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    execFile(
      'sh',
      ['-c', line],
      { cwd: ROOT, env: { ...process.env, ...env, NO_COLOR: '1' }, timeout: 120_000, maxBuffer: 8 << 20 },
      (error, stdout) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
        resolve({ code, stdout });
      },
    );
  });
}

describe('reproduce lines of a failing run', () => {
  let target: MutantTarget;
  let out: string;
  let report: Report;

  beforeAll(async () => {
    const mutant = (await loadVariants()).find((v) => v.name === '7-method-not-found-code--answers-32600');
    target = await mutant!.start();
    out = await mkdtemp(join(tmpdir(), 'a2a-reproduce-'));
    const run = await runHarness(target, [BROKEN], join(out, 'first'));
    expect(run.verdicts[BROKEN]).toBe('fail');
    report = JSON.parse(await readFile(join(out, 'first', 'report.json'), 'utf8')) as Report;
  }, 120_000);

  afterAll(async () => {
    await target?.close();
    if (out !== undefined) await rm(out, { recursive: true, force: true });
  });

  it('print no credential and no [redacted]', () => {
    const lines = report.requirements.flatMap((r) => r.checks.flatMap((c) => Object.values(c.reproduce)));
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      expect(line).not.toContain('[redacted]');
      expect(line).not.toContain(target.apiKey);
    }
  });

  it('the command re-runs the failing requirement, which fails again', async () => {
    const commands = new Map<string, { id: string; verdict: string }>();
    for (const r of report.requirements) for (const c of r.checks) commands.set(c.reproduce.command, r);
    expect([...commands.values()].map((r) => `${r.id}: ${r.verdict}`)).toEqual([`${BROKEN}: fail`]);
    let n = 0;
    for (const [command, requirement] of commands) {
      n += 1;
      const dir = join(out, `again-${n}`);
      const ran = await sh(command, { A2A_API_KEY: target.apiKey, A2A_OUT: dir });
      const again = JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')) as Report;
      expect(again.requirements.map((r) => `${r.id}: ${r.verdict}`)).toEqual([
        `${requirement.id}: ${requirement.verdict}`,
      ]);
      expect(ran.code).toBe(1);
    }
  }, 120_000);

  it('each curl line of a failing check gets the same wrong answer again', async () => {
    const failing = report.requirements
      .find((r) => r.id === BROKEN)!
      .checks.filter((c) => c.status === 'fail');
    const curls = failing.map((c) => c.reproduce.curl).filter((l): l is string => l !== undefined);
    expect(curls.length).toBeGreaterThan(0);
    for (const curl of curls) {
      const ran = await sh(curl, { A2A_API_KEY: target.apiKey });
      expect(ran.code).toBe(0);
      expect((JSON.parse(ran.stdout) as { error?: { code?: unknown } }).error?.code).toBe(-32600);
    }
  }, 60_000);
});
