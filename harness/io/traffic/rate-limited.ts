// Answers that say "rate limited" (HTTP 429, or C-04's -32012 whatever the status): how long they
// ask the run to wait (Retry-After), the backoff when they do not say, and the one loop that waits
// them out and resends the request, so a check sees only the agent's real answer; and how long a
// front's 503 holds the run (UnavailableBackoff).
import { GovernorStop } from './governor-stop.ts';
import { ERROR_CODES } from '../../../schemas/error-codes.ts';
import type { TrafficTally } from './tallies.ts';

/** The agent kept answering "rate limited" after every wait it asked for: the check is an error. */
export class RateLimitedError extends GovernorStop {
  constructor(attempts: number, detail: string) {
    super(`rate limited: ${attempts} rate-limited answers in a row (${detail})`);
    this.name = 'RateLimitedError';
  }
}

// Without Retry-After: 1, 2, 4, 8, 16 s, then the check gives up ("rate limited").
const BACKOFF_MS = [1_000, 2_000, 4_000, 8_000, 16_000];
const MAX_RETRY_AFTER_MS = 120_000;

/**
 * How long the run waits after the rate-limited answer to attempt `attempt` (0 for the first):
 * Retry-After (at most MAX_RETRY_AFTER_MS), else the backoff. Throws RateLimitedError past the last
 * backoff, or when the wait would end after `deadlineAt` (the run's budget).
 */
export function rateLimitedWaitMs(
  retryAfter: number | undefined,
  attempt: number,
  deadlineAt: number | undefined,
): number {
  const backoff = BACKOFF_MS[attempt];
  const detail =
    retryAfter === undefined ? 'no Retry-After' : `Retry-After ${Math.ceil(retryAfter / 1000)} s`;
  if (backoff === undefined) throw new RateLimitedError(attempt + 1, detail);
  const waitMs = Math.min(retryAfter ?? backoff, MAX_RETRY_AFTER_MS);
  if (deadlineAt !== undefined && Date.now() + waitMs > deadlineAt) {
    throw new RateLimitedError(attempt + 1, `${detail}, beyond the run's budget`);
  }
  return waitMs;
}

/**
 * The Retry-After an answer asks for, in ms: the header (delay-seconds or an HTTP date, RFC 9110
 * 10.2.3), else C-04's `error.data.retryAfterSeconds`; undefined when neither says.
 */
export function retryAfterMs(
  headers: Record<string, string | string[] | undefined> | undefined,
  json: unknown,
): number | undefined {
  const raw = headers?.['retry-after'];
  const header = Array.isArray(raw) ? raw[0] : raw;
  if (header !== undefined) {
    if (/^\s*\d+\s*$/.test(header)) return Number(header) * 1000;
    const at = Date.parse(header);
    if (!Number.isNaN(at)) return Math.max(0, at - Date.now());
  }
  const data = errorOf(json)?.data;
  const seconds =
    typeof data === 'object' && data !== null
      ? (data as Record<string, unknown>).retryAfterSeconds
      : undefined;
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : undefined;
}

function errorOf(json: unknown): { code?: unknown; data?: unknown } | undefined {
  if (typeof json !== 'object' || json === null) return undefined;
  const error = (json as Record<string, unknown>).error;
  return typeof error === 'object' && error !== null
    ? (error as { code?: unknown; data?: unknown })
    : undefined;
}

/** HTTP 429, or C-04's error code in a JSON-RPC answer (whatever the status). */
export function isRateLimitedAnswer(status: number | undefined, json: unknown): boolean {
  return status === 429 || errorOf(json)?.code === ERROR_CODES.RATE_LIMITED;
}

/** What one attempt's answer says, as far as rate limiting goes. */
export interface AnswerHead {
  status?: number | undefined;
  headers?: Record<string, string | string[] | undefined> | undefined;
  json?: unknown;
}

export interface Attempt<T> {
  result: T;
  /** The answer to look at; undefined: nothing to resend on (no answer, or one that is still streaming). */
  answer: AnswerHead | undefined;
}

/** The governor's part that waits a rate-limited answer out (TrafficGovernor.onRateLimited). */
export interface RateLimitWaiter {
  onRateLimited(
    retryAfterMs: number | undefined,
    attempt: number,
    o: { tally?: TrafficTally | undefined; signal?: AbortSignal | undefined },
  ): Promise<void>;
}

/**
 * Sends with `attempt` until the answer is not "rate limited", waiting each one out on the run's
 * governor first (every request of the run waits with it); `refused` is told of each refused
 * attempt's result (a client drops its exchange: the check sees only the answer it resends for).
 * Without a governor the first answer is returned whatever it says (a client that hands rate-limited
 * answers to its check, C-04). The governor throws RateLimitedError when the agent asks too much.
 */
export async function resendWhileRateLimited<T>(
  governor: RateLimitWaiter | undefined,
  o: { tally?: TrafficTally | undefined; signal?: AbortSignal | undefined },
  attempt: () => Promise<Attempt<T>>,
  refused: (result: T) => void = () => undefined,
): Promise<T> {
  for (let n = 0; ; n += 1) {
    const { result, answer } = await attempt();
    if (governor === undefined || answer === undefined || !isRateLimitedAnswer(answer.status, answer.json))
      return result;
    refused(result);
    await governor.onRateLimited(retryAfterMs(answer.headers, answer.json), n, o);
  }
}

// A 503 without Retry-After holds the run a second; one that asks for more than two minutes, two
// minutes (the longest Retry-After a rate-limited answer is waited, MAX_RETRY_AFTER_MS).
const UNAVAILABLE_WAIT_MS = 1_000;
const MAX_UNAVAILABLE_WAIT_MS = 120_000;

/**
 * The wait after a front's 503: its Retry-After (else a second), doubled for each 503 that comes
 * right after the last wait ended (within as long as that wait lasted: the front is still down, as
 * a rolling deploy longer than its Retry-After), at most MAX_UNAVAILABLE_WAIT_MS. A 503 during a
 * wait is of the same episode (its request left before the wait began).
 */
export class UnavailableBackoff {
  private endsAt = Number.NEGATIVE_INFINITY;
  private lastMs = 0;
  private streak = 0;

  waitMs(now: number, retryAfterMs: number | undefined): number {
    const asked = Math.min(retryAfterMs ?? UNAVAILABLE_WAIT_MS, MAX_UNAVAILABLE_WAIT_MS);
    if (now < this.endsAt) return Math.max(asked, this.endsAt - now);
    this.streak = now <= this.endsAt + this.lastMs ? this.streak + 1 : 0;
    this.lastMs = Math.min(Math.max(asked, UNAVAILABLE_WAIT_MS) * 2 ** this.streak, MAX_UNAVAILABLE_WAIT_MS);
    this.lastMs = Math.max(this.lastMs, asked);
    this.endsAt = now + this.lastMs;
    return this.lastMs;
  }
}
