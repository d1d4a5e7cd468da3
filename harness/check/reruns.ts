// Re-running a check from scratch after a transport fault, and the one verdict of its runs. A verdict
// comes only from complete exchanges with the agent: a run that met a fault (no answer, a reset, a
// timeout the harness chose, an answer cut short) is run again with a fresh context (a fresh task,
// fresh webhook URLs), at most twice, within the check's budget. A proven violation is never re-run
// away: it stands, marked intermittent when another run passed. Serves every requirement a check
// verifies (STYLE: transport faults are never evidence against a requirement).
import type { Exchange } from '../../core/evidence.ts';
import type { CheckResult, CheckStatus } from '../../core/types.ts';
import type { ReportCheckRun, ReportRunFault } from '../../schemas/generated/types.ts';
import type { IoErrorKind } from '../../core/evidence.ts';
import { completeAnswer } from '../io/target/faults.ts';
import type { TrafficTally } from '../io/traffic/tallies.ts';
import { NoAnswerError } from './no-answer.ts';

/**
 * Runs of a check after its first, and of one c.each case after its first (cases.ts): a fault met
 * twice more leaves the check not exercised.
 */
export const MAX_RERUNS = 2;

export type RunFault = ReportRunFault;

/** One run of a check: its result (redacted) and the transport faults it met. */
export interface CheckRunOf {
  result: CheckResult;
  faults: RunFault[];
}

/** The transport fault an exchange met (no complete answer), as a run's fault; undefined: none. */
export function faultOf(ex: Exchange): RunFault | undefined {
  if (ex.error === undefined || completeAnswer(ex)) return undefined;
  const json = ex.request.json as { method?: unknown } | undefined;
  const method = typeof json?.method === 'string' ? json.method : `${ex.request.method} ${ex.request.url}`;
  return { kind: ex.error.kind, method, message: ex.error.message };
}

/**
 * The transport faults a run met: the call that got no answer where the check needed one
 * (NoAnswerError), and, when the run did not pass, each of its own exchanges that got no complete
 * answer. A run that passed decided on complete exchanges (a read resent after a reset, say).
 */
export function faultsOfRun(thrown: unknown, status: CheckStatus, own: readonly Exchange[]): RunFault[] {
  const found: RunFault[] = [];
  if (thrown instanceof NoAnswerError) {
    const f = faultOf(thrown.exchange);
    if (f !== undefined) found.push(f);
  }
  if (status !== 'pass') {
    for (const ex of own) {
      const f = faultOf(ex);
      if (f !== undefined && !found.some((g) => g.message === f.message && g.method === f.method))
        found.push(f);
    }
  }
  return found;
}

/**
 * The faults of a run (of a check, or of one c.each case) that another run from scratch absorbed: one
 * whose exchanges were complete, or that proved a violation (traffic.faults' reRun), as far as the
 * client counted them and did not resend them already. Runs that only met faults absorbed nothing.
 */
export function countReRun(tally: TrafficTally | undefined, faults: readonly RunFault[]): void {
  for (const f of faults) {
    const c = tally?.faults?.[f.kind as IoErrorKind];
    if (c !== undefined && c.retried + c.reRun < c.count) c.reRun += 1;
  }
}

/** Whether a run that met a fault may be followed by another (at most MAX_RERUNS after the first). */
export function rerunDue(runs: readonly CheckRunOf[]): boolean {
  const last = runs.at(-1);
  return last !== undefined && last.faults.length > 0 && runs.length <= MAX_RERUNS;
}

function describeFaults(faults: readonly RunFault[]): string {
  return faults.map((f) => `${f.kind} on ${f.method} (${f.message})`).join('; ');
}

function runRecord(run: CheckRunOf, decided: boolean): ReportCheckRun {
  const { status, message, durationMs, assertions, evidence } = run.result;
  const record: ReportCheckRun = { status, message, faults: run.faults, durationMs, decided };
  return decided ? record : { ...record, assertions, evidence };
}

/**
 * The check's verdict from its runs. One run that met no fault, or proved a violation: its result
 * as it is. Otherwise a run that proved a
 * violation decides (fail; intermittent when another run passed), else the last clean run (its
 * exchanges complete), else the check is not exercised, naming every fault its runs met.
 */
export function verdictOfRuns(runs: readonly CheckRunOf[]): { result: CheckResult; decidedBy: number } {
  const only = runs[0]!;
  if (runs.length === 1 && (only.faults.length === 0 || only.result.status === 'fail')) {
    return { result: only.result, decidedBy: 0 };
  }
  const failed = runs.findIndex((r) => r.result.status === 'fail');
  const passed = runs.some((r) => r.result.status === 'pass');
  let decidedBy = failed;
  if (decidedBy < 0) {
    for (let i = runs.length - 1; i >= 0 && decidedBy < 0; i -= 1) {
      if (runs[i]!.faults.length === 0) decidedBy = i;
    }
  }
  const totalMs = runs.reduce((n, r) => n + r.result.durationMs, 0);
  if (decidedBy < 0) {
    const last = runs.at(-1)!;
    const faults = runs.flatMap((r) => r.faults);
    const result: CheckResult = {
      ...last.result,
      status: 'not-exercised',
      message: `every run of the check (${runs.length}) met a transport fault, never evidence against the requirement: ${describeFaults(faults)}`,
      durationMs: totalMs,
    };
    if (runs.length > 1) result.runs = runs.map((r, i) => runRecord(r, i === runs.length - 1));
    delete result.field;
    delete result.expected;
    delete result.actual;
    return { result, decidedBy: runs.length - 1 };
  }
  const decider = runs[decidedBy]!;
  const records = runs.map((r, i) => runRecord(r, i === decidedBy));
  const result: CheckResult = { ...decider.result, durationMs: totalMs, runs: records };
  const faulted = runs.filter((r) => r.faults.length > 0).length;
  if (failed >= 0 && passed) {
    result.intermittent = true;
    result.message = `${decider.result.message} (intermittent: another run of the check passed)`;
  }
  result.notes = [
    ...decider.result.notes,
    `the check ran ${runs.length} times: ${faulted} run(s) met a transport fault and were run again from scratch (${describeFaults(runs.flatMap((r) => r.faults))})`,
  ];
  return { result, decidedBy };
}
