// After the rate-limit burst (spec 8, C-04): how long the agent's window took to let a request in
// again, measured from the first refusal by probing at its Retry-After (then every second or at each
// new Retry-After). Observed and reported only (C-04 leaves the reset to a sliding window); the wait
// stays within what the run allows (--max-wait, 10 s by default), and a longer one is said, not done.
import { DEFAULT_MAX_WAIT_MS, retryAfterMs } from '../../harness/check/index.ts';
import type { AnsweredExchange, CheckContext } from '../support/index.ts';
import { answeredAt, sentAt } from '../support/rpc.ts';
import { sleep } from '../support/timing.ts';

export interface WindowReset {
  /** Ms from the first refusal's answer until a request was served again; undefined: not seen. */
  afterMs?: number;
  /** Retry-After of the first refusal, in ms (header, else error.data.retryAfterSeconds). */
  retryAfterMs?: number;
  /** Probes sent (the served one included). */
  probes: number;
  /** Probes sent at or after a Retry-After that were refused all the same. */
  refusedAfterRetryAfter: number;
  /** The longest wait this run allows (--max-wait). */
  allowedMs: number;
  /** One line for the report. */
  note: string;
}

const MIN_PROBE_GAP_MS = 1_000;

/** Probes with `probe` (a client that bypasses pacing) until a request is served or the wait allowed ends. */
export async function measureReset(
  c: CheckContext,
  refused: AnsweredExchange,
  probe: () => Promise<AnsweredExchange | undefined>,
  isRefusal: (ex: AnsweredExchange) => boolean,
): Promise<WindowReset> {
  const refusedAt = answeredAt(refused);
  const promised = retryAfterMs(refused.response.headers, refused.response.json);
  const allowedMs = c.config.field.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
  const r: WindowReset = { probes: 0, refusedAfterRetryAfter: 0, allowedMs, note: '' };
  if (promised !== undefined) r.retryAfterMs = promised;
  const said = promised === undefined ? 'no Retry-After' : `Retry-After ${Math.round(promised / 1000)} s`;
  const option = `--max-wait ${Math.ceil((promised ?? 60_000) / 60_000) + 1}m`;
  if ((promised ?? MIN_PROBE_GAP_MS) > allowedMs) {
    r.note = `window reset not measured: ${said}, above the ${Math.round(allowedMs / 1000)} s this run waits (${option} would measure it)`;
    return r;
  }
  // The probes wait inside the check: its budget grows by the wait, as for any planned wait.
  c.planWait(allowedMs, 'the rate-limit window to reset');
  const deadline = refusedAt + allowedMs;
  let next = refusedAt + (promised ?? MIN_PROBE_GAP_MS);
  let promisedAt = promised === undefined ? Infinity : next;
  while (next <= deadline && !c.signal.aborted) {
    await sleep(Math.max(0, next - Date.now()));
    const ex = await probe();
    r.probes += 1;
    if (ex === undefined) break;
    if (!isRefusal(ex)) {
      r.afterMs = answeredAt(ex) - refusedAt;
      r.note = `the window let a request in again ${(r.afterMs / 1000).toFixed(1)} s after the first refusal (${said}; ${r.probes} probe(s))`;
      return r;
    }
    if (sentAt(ex) >= promisedAt) r.refusedAfterRetryAfter += 1;
    const again = retryAfterMs(ex.response.headers, ex.response.json);
    next = Date.now() + Math.max(MIN_PROBE_GAP_MS, again ?? 0);
    if (again !== undefined) promisedAt = Math.min(promisedAt, next);
  }
  r.note = `the window had not let a request in ${Math.round((Date.now() - refusedAt) / 1000)} s after the first refusal (${said}; ${r.probes} probe(s) refused); the run waits at most ${Math.round(allowedMs / 1000)} s (${option} would wait longer)`;
  return r;
}
