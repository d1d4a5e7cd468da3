// The transport fault policy: what a failed exchange with the target was (a timeout we chose, no
// connection, a reset, an answer cut short, a gateway's 502/503/504, a throttle's 429, a page that is
// not the agent's JSON-RPC, a body over its cap, other), whether what came is still an answer a check
// may grade, and which requests are sent again after which fault, when. One record per kind (FAULTS), keyed
// by the report's kinds (report.schema.json's ioError.kind, IoErrorKind): every list of kinds, codes
// and resends of the harness reads it. Serves every spec section the harness exercises over HTTP:
// an unreachable or cut-off target is a harness-side `error`, never a finding (STYLE: transport faults).
import type { Exchange, IoError, IoErrorKind, RecordedResponse } from '../../../core/evidence.ts';
import { BodyTooLargeError, errorCode, errorMessage } from './io-errors.ts';
import { sleep } from '../traffic/pace.ts';
import { retryAfterMs, type AnswerHead } from '../traffic/rate-limited.ts';
import type { TrafficGovernor } from '../traffic/governor.ts';
import type { FaultCounts } from '../traffic/tallies.ts';

/** How the harness treats one kind of transport fault. */
export interface FaultPolicy {
  /** Node and undici error codes classified as this kind (a code classifies as one kind at most). */
  codes: readonly string[];
  /** An exchange that got headers and then this fault still counts as an answer (its size the finding). */
  answer: boolean;
  /**
   * A read (READS) that met this fault is sent again, on another connection and with its own id,
   * after the answer's Retry-After or a backoff: a read changes nothing (RFC 9110 9.2.2). A call that
   * may change something is never resent: the agent may have acted on it (RFC 9112 9.3.1).
   */
  resendRead: boolean;
}

export const FAULTS: Readonly<Record<IoErrorKind, FaultPolicy>> = {
  // Also every request the harness's own deadline aborted, whatever undici reports.
  timeout: {
    codes: ['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT'],
    answer: false,
    resendRead: false,
  },
  connect: {
    codes: [
      'ECONNREFUSED',
      'ENOTFOUND',
      'EHOSTUNREACH',
      'ENETUNREACH',
      'EAI_AGAIN',
      'EADDRNOTAVAIL',
      'UND_ERR_CONNECT_TIMEOUT',
    ],
    answer: false,
    resendRead: false,
  },
  // A kept-alive connection the agent's side had just closed as idle, a gateway recycling its sockets.
  reset: {
    codes: ['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED'],
    answer: false,
    resendRead: true,
  },
  // Headers came, then the body ended before its length (or the connection closed mid-body).
  'cut-short': {
    codes: ['UND_ERR_RES_CONTENT_LENGTH_MISMATCH'],
    answer: false,
    resendRead: true,
  },
  // 502/503/504 whose body is no JSON-RPC answer: a gateway or balancer in front of the agent
  // (a rolling deploy, no replica up). A 503 carrying the agent's JSON-RPC error is its answer (C-42).
  gateway: { codes: [], answer: false, resendRead: true },
  // 429 whose body is no JSON-RPC answer: a throttle in front of the agent, below the card's pace.
  throttled: { codes: [], answer: false, resendRead: true },
  // Another 5xx answered by an HTML page: a proxy's or platform's error page, not the agent's.
  'foreign-body': { codes: [], answer: false, resendRead: true },
  // Thrown by the body reader (BodyTooLargeError): reading stopped at the cap.
  'body-too-large': {
    codes: [],
    answer: true,
    resendRead: false,
  },
  other: { codes: [], answer: false, resendRead: false },
};

const KIND_OF_CODE = new Map<string, IoErrorKind>(
  (Object.entries(FAULTS) as Array<[IoErrorKind, FaultPolicy]>).flatMap(([kind, f]) =>
    f.codes.map((code) => [code, kind] as const),
  ),
);

/**
 * Classifies a failure. `afterHeaders`: the response's headers had come, so a reset is an answer cut
 * short. `deadlineHit` is true when the harness's own total deadline aborted the
 * request, which is always a timeout whatever undici reports.
 */
export function classifyError(err: unknown, deadlineHit: boolean, afterHeaders = false): IoError {
  const code = errorCode(err);
  const message = errorMessage(err);
  const byCode = (code === undefined ? undefined : KIND_OF_CODE.get(code)) ?? 'other';
  const kind: IoErrorKind =
    err instanceof BodyTooLargeError
      ? 'body-too-large'
      : deadlineHit
        ? 'timeout'
        : afterHeaders && byCode === 'reset'
          ? 'cut-short'
          : byCode;
  return code === undefined ? { kind, message } : { kind, message, code };
}

const GATEWAY_STATUSES = new Set([502, 503, 504]);

/** The kinds answerFault gives: a complete HTTP answer that is not the agent's. */
export const ANSWER_FAULTS: ReadonlySet<IoErrorKind> = new Set(['gateway', 'throttled', 'foreign-body']);

/** A body that is a JSON-RPC 2.0 response object (or a batch of them): the agent's own answer. */
function isJsonRpcAnswer(json: unknown): boolean {
  const one = (v: unknown): boolean =>
    typeof v === 'object' && v !== null && (v as Record<string, unknown>).jsonrpc === '2.0';
  return Array.isArray(json) ? json.length > 0 && json.every(one) : one(json);
}

/**
 * What a complete HTTP answer says of the path to the agent: a fault kind when it is not the
 * agent's answer (gateway, throttled, foreign-body), else undefined. Only 429 and 5xx answers
 * without a JSON-RPC body are faults; every other answer is the agent's to be graded.
 */
export function answerFault(
  status: number,
  headers: Record<string, string | string[] | undefined>,
  json: unknown,
): IoError | undefined {
  if (isJsonRpcAnswer(json)) return undefined;
  const type = String(headers['content-type'] ?? '').toLowerCase();
  const what = `HTTP ${status}${type === '' ? '' : ` (${type.split(';')[0]})`} without a JSON-RPC answer`;
  if (GATEWAY_STATUSES.has(status))
    return { kind: 'gateway', message: `${what}: a gateway in front of the agent` };
  if (status === 429) return { kind: 'throttled', message: `${what}: a throttle in front of the agent` };
  if (status >= 500 && type.startsWith('text/html'))
    return { kind: 'foreign-body', message: `${what}: an error page, not the agent's` };
  return undefined;
}

/** An exchange that got an HTTP answer. */
export type AnsweredExchange = Exchange & { response: RecordedResponse };

/**
 * An HTTP answer the target finished: headers followed by a deadline, a reset or a dropped
 * connection are no answer (the harness could not conclude). A body over the cap is an answer, and
 * its size the finding.
 */
export function completeAnswer(ex: Exchange): ex is AnsweredExchange {
  return ex.response !== undefined && (ex.error === undefined || FAULTS[ex.error.kind].answer);
}

/**
 * The transport fault an exchange met, when it is one a later attempt may not meet (every kind but a
 * body over its cap): a check that met one may be run again from scratch; undefined otherwise.
 */
export function transientFault(ex: Exchange): IoErrorKind | undefined {
  return ex.error === undefined || FAULTS[ex.error.kind].answer ? undefined : ex.error.kind;
}

/** The spec's methods that only read (tasks, a webhook configuration, the extended card). */
const READS = new Set(['tasks/get', 'tasks/pushNotificationConfig/get', 'agent/authenticatedExtendedCard']);

/** Whether a call only reads, so it may be resent after a fault (READS). */
export function isRead(method: string): boolean {
  return READS.has(method);
}

/** How often a read is sent in all, the first time included. */
export const READ_ATTEMPTS = 3;

/**
 * How long to wait before resending a read that met `ex`'s fault (attempt 0: the first resend): the
 * answer's Retry-After when it gave one, else none for the first resend (a kept-alive connection the
 * agent had just closed) and then the time the failed exchange took, doubled each time.
 */
export function resendWaitMs(ex: Exchange, attempt: number, maxMs: number): number {
  const asked = ex.response === undefined ? undefined : retryAfterMs(ex.response.headers, ex.response.json);
  const backoff = attempt === 0 ? 0 : Math.max(ex.timings.totalMs, 1) * 2 ** attempt;
  return Math.min(asked ?? backoff, maxMs);
}

export type { FaultCounts };

/**
 * Counts one fault of `ex` (when it met one) into `counts`; `retried` when the call was sent again and
 * a resend got an answer (the fault absorbed; a resend that met a fault too absorbed nothing).
 */
export function countFault(counts: FaultCounts | undefined, ex: Exchange, retried: boolean): void {
  if (counts === undefined || ex.error === undefined || FAULTS[ex.error.kind].answer) return;
  const c = (counts[ex.error.kind] ??= { count: 0, retried: 0, reRun: 0 });
  c.count += 1;
  if (retried) c.retried += 1;
}

/**
 * Sends a call, and a read again (at most READ_ATTEMPTS in all) while it meets a fault that resends
 * reads (FaultPolicy.resendRead), after resendWaitMs. Every exchange stays in the evidence, each
 * resent one saying so. Calls that may change something are sent once: their faults reach the check.
 * The faults resent count as `retried` once a resend got an answer, else with the last one as lost.
 */
export async function sendResendingReads(
  method: string,
  send: () => Promise<Exchange>,
  o: {
    maxWaitMs?: number;
    counts?: FaultCounts | undefined;
    signal?: AbortSignal | undefined;
    /** A client that hands rate-limited answers to its check (the rate-limit burst): no answer resent. */
    keepAnswers?: boolean | undefined;
  } = {},
): Promise<Exchange> {
  const resent: Exchange[] = [];
  for (let attempt = 0; ; attempt += 1) {
    const ex = await send();
    const err = ex.error;
    const resend =
      READS.has(method) &&
      err !== undefined &&
      FAULTS[err.kind].resendRead &&
      !(o.keepAnswers === true && ex.response !== undefined && ANSWER_FAULTS.has(err.kind)) &&
      attempt + 1 < READ_ATTEMPTS &&
      o.signal?.aborted !== true;
    if (!resend) {
      const answered = err === undefined || FAULTS[err.kind].answer;
      for (const r of resent) countFault(o.counts, r, answered);
      countFault(o.counts, ex, false);
      return ex;
    }
    resent.push(ex);
    const waitMs = resendWaitMs(ex, attempt, o.maxWaitMs ?? 60_000);
    err.message += ` (a read, sent again${waitMs > 0 ? ` after ${Math.round(waitMs)} ms` : ''})`;
    if (waitMs > 0) await sleep(waitMs, o.signal).catch(() => undefined);
  }
}

/**
 * A 503 from something in front of the agent (a gateway, a rolling deploy) holds the whole run until
 * its Retry-After and lowers the pace (TrafficGovernor.onUnavailable); the request is not resent
 * here (a read is, by sendResendingReads; a check that met it re-runs). No governor: nothing waits.
 */
export async function waitOutUnavailable(
  governor: TrafficGovernor | undefined,
  answer: AnswerHead | undefined,
  o: Parameters<TrafficGovernor['onUnavailable']>[1],
): Promise<void> {
  if (governor === undefined || answer?.status !== 503) return;
  if (answerFault(503, answer.headers ?? {}, answer.json)?.kind !== 'gateway') return;
  await governor.onUnavailable(retryAfterMs(answer.headers, answer.json), o);
}

/** A run's faults by kind (report.json's traffic.faults): counts summed, the lost ones named. */
export type FaultSummary = Partial<
  Record<IoErrorKind, { count: number; retried: number; reRun: number; lost: number }>
>;

/** Sums tallies' fault counts; undefined when none met a fault. */
export function sumFaults(all: ReadonlyArray<FaultCounts | undefined>): FaultSummary | undefined {
  const out: FaultSummary = {};
  for (const counts of all) {
    for (const [kind, c] of Object.entries(counts ?? {}) as Array<
      [IoErrorKind, NonNullable<FaultCounts[IoErrorKind]>]
    >) {
      if (c.count === 0) continue;
      const s = (out[kind] ??= { count: 0, retried: 0, reRun: 0, lost: 0 });
      s.count += c.count;
      s.retried += c.retried;
      s.reRun += c.reRun;
      s.lost = Math.max(0, s.count - s.retried - s.reRun);
    }
  }
  return Object.keys(out).length === 0 ? undefined : out;
}

/** Faults the run absorbed (retried or re-run): the console's "N faults absorbed". */
export function faultsAbsorbed(summary: FaultSummary | undefined): number {
  return Object.values(summary ?? {}).reduce((n, c) => n + c.retried + c.reRun, 0);
}
