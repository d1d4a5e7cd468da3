// The harness: wall time of a full certification of the bundled reference server (`npm run certify`,
// in its own process) beside its floor, the waits the suites must make. The floor is computed from
// the run's own report.json: see waitOf() and BENCHMARKS.md "Certification floor".
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { round } from '../lib/stats.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Spec 6.5: a receiver answering later than this is retried, so a check of it waits this long. */
const RECEIVER_TIMEOUT_MS = 5000;
/** status.reason of a task the reference server's system timeout ended (C-05), in parsed or raw JSON. */
const SYSTEM_TIMEOUT_REASON = /reason\\*":\\*"system timeout/;

interface Exchange {
  request?: { body?: string };
}
interface Delivery {
  receivedAtMs: number;
  headers: Record<string, string>;
  path: string;
}
interface Check {
  file: string;
  durationMs: number;
  evidence: { exchanges: Exchange[]; deliveries: Delivery[] };
}
interface Report {
  durationMs: number;
  exitCode: number;
  card?: { limits?: { systemTimeoutMs?: number } };
  traffic?: { concurrency?: { suiteWorkers?: number } };
  requirements: { checks: Check[] }[];
}

export interface CertifyResult {
  exitCode: number;
  wallMs: number;
  /** The runner's own figure (report.json durationMs). */
  runMs: number;
  /** The longest check of each suite file, as measured, spread over the workers (see floorOf). */
  checksCriticalPathMs: number;
  floorMs: number;
  /** Suite files run at once (report.json traffic.concurrency.suiteWorkers). */
  workers: number;
  ratio: number;
  files: number;
  checks: number;
}

export async function benchCertify(log: (line: string) => void): Promise<CertifyResult> {
  const out = await mkdtemp(join(tmpdir(), 'a2a-bench-certify-'));
  try {
    const started = performance.now();
    const exitCode = await run(['--import', 'tsx', 'harness/cli/main.ts', 'run', '--out', out, '--quiet']);
    const wallMs = performance.now() - started;
    const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as Report;
    const floor = floorOf(report);
    const result: CertifyResult = {
      exitCode,
      wallMs: Math.round(wallMs),
      runMs: report.durationMs,
      ...floor,
      ratio: round(wallMs / floor.floorMs, 2),
    };
    log(`  certify: ${result.wallMs} ms wall, floor ${result.floorMs} ms, exit ${exitCode}`);
    return result;
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}

function run(args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
    child.once('error', reject);
    child.once('exit', (code) => resolve(code ?? 1));
  });
}

/**
 * The checks of a file overlap (suites/vitest.config.ts: maxConcurrency 20) and files share the run's
 * workers, so a file takes at least the longest unavoidable wait of one of its checks, and the run at
 * least the longest file and the sum over files spread evenly over the workers (in one worker: the sum).
 */
export function floorOf(
  report: Report,
): Pick<CertifyResult, 'floorMs' | 'checksCriticalPathMs' | 'workers' | 'files' | 'checks'> {
  const systemTimeoutMs = report.card?.limits?.systemTimeoutMs ?? 0;
  const waits = new Map<string, number>();
  const longest = new Map<string, number>();
  let checks = 0;
  for (const check of report.requirements.flatMap((r) => r.checks)) {
    checks += 1;
    waits.set(check.file, Math.max(waits.get(check.file) ?? 0, waitOf(check, systemTimeoutMs)));
    longest.set(check.file, Math.max(longest.get(check.file) ?? 0, check.durationMs));
  }
  const workers = report.traffic?.concurrency?.suiteWorkers ?? 1;
  const spread = (m: Map<string, number>): number =>
    Math.round(Math.max(0, ...m.values(), [...m.values()].reduce((a, b) => a + b, 0) / workers));
  return {
    floorMs: spread(waits),
    checksCriticalPathMs: spread(longest),
    workers,
    files: waits.size,
    checks,
  };
}

/**
 * The waits one check cannot avoid, read from its recorded evidence:
 * - the longest `delayMs` a directive of its requests asks for (a task cannot finish sooner);
 * - the system timeout (card limits.systemTimeoutMs, C-05) when it sends a runUntilCanceled task and
 *   never cancels it;
 * - per webhook delivery id, the gaps between attempts as scheduled: initialDelay x multiplier^(n-1)
 *   of the retryPolicy it configured (2.11, C-20), plus the 5 s receiver timeout (6.5) for a gap
 *   that shows the receiver held the attempt that long.
 * The largest of these, capped at the check's own duration (a check that canceled its task or read it
 * before its end did not wait for it), is the check's floor (they overlap in time).
 */
export function waitOf(check: Check, systemTimeoutMs: number): number {
  const bodies = check.evidence.exchanges.map((e) => e.request?.body ?? '');
  let directiveMs = 0;
  let untilCanceled = false;
  let cancels = false;
  let policy = { initialDelay: 1, backoffMultiplier: 2 };
  for (const body of bodies) {
    for (const match of body.matchAll(/\\"delayMs\\":(\d+)/g))
      directiveMs = Math.max(directiveMs, Number(match[1]));
    if (body.includes('\\"runUntilCanceled\\":true')) untilCanceled = true;
    if (body.includes('"method":"tasks/cancel"')) cancels = true;
    const retry = /"retryPolicy":(\{[^}]*\})/.exec(body);
    if (retry !== null && body.includes('pushNotificationConfig/set')) {
      policy = { ...policy, ...(JSON.parse(retry[1] as string) as Partial<typeof policy>) };
    }
  }
  // A task the check saw ended by the system timeout (C-05) could not end sooner, whatever else it sent.
  const timedOut = check.evidence.exchanges.some((e) => SYSTEM_TIMEOUT_REASON.test(JSON.stringify(e)));
  const timeoutMs = (untilCanceled && !cancels) || timedOut ? systemTimeoutMs : 0;
  const byDelivery = new Map<string, number[]>();
  for (const d of check.evidence.deliveries) {
    const id = d.headers['x-webhook-delivery'] ?? '';
    byDelivery.set(id, [...(byDelivery.get(id) ?? []), d.receivedAtMs]);
  }
  let retriesMs = 0;
  for (const times of byDelivery.values()) {
    let chain = 0;
    for (let n = 1; n < times.length; n += 1) {
      const scheduled = policy.initialDelay * policy.backoffMultiplier ** (n - 1) * 1000;
      const gap = (times[n] as number) - (times[n - 1] as number);
      // The receiver sees each attempt a little after it starts, so a held attempt shows as a gap of
      // about the timeout plus the scheduled delay, give or take those few milliseconds.
      chain += scheduled + (gap >= RECEIVER_TIMEOUT_MS ? RECEIVER_TIMEOUT_MS : 0);
    }
    retriesMs = Math.max(retriesMs, chain);
  }
  // A check that ended sooner (it canceled the task, or read it before its end) did not wait for it.
  return Math.min(check.durationMs, Math.max(directiveMs, timeoutMs, retriesMs));
}
