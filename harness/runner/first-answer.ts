// The probe's first request under a cold start (an agent scaled to zero, a serverless function, a
// container still starting): the run's first answer may take longer than --timeout-ms, or a front
// may reset the connection or answer 502, 503 or 504 until the agent is up. The probe
// waits for it up to --cold-start-ms, says on the console that it is waiting, and resends the card
// request (idempotent, spec 4.8) while nothing answers. Only an agent silent for the whole allowance
// is unreachable. The first answer's latency is reported apart: it is neither the round trip the
// plan uses nor the agent's turn latency.
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Exchange } from '../../core/evidence.ts';

/** HTTP statuses a gateway gives while the agent behind it starts: waited out, never the agent's answer. */
const WARMING_STATUS: ReadonlySet<number> = new Set([502, 503, 504]);

/** Longest pause between two resends of the first request. */
const RESEND_PAUSE_MS = 1_000;

export interface FirstAnswer {
  /** The last exchange: the first answer, or what the allowance ended on. */
  ex: Exchange;
  /** Ms from the first request to that exchange's end. */
  firstAnswerMs: number;
  /** The answer took longer than the request budget, or came after a resend. */
  coldStart: boolean;
}

export interface FirstAnswerOptions {
  /** --timeout-ms: the budget of one request once the agent is up. */
  timeoutMs: number;
  /** --cold-start-ms: how long the first answer is waited for in all (at least timeoutMs). */
  coldStartMs: number;
  /** Told once, when the wait goes beyond timeoutMs. */
  onWaiting?: (line: string) => void;
  /** Whether a reset now still means the agent is starting (default: yes). */
  resetIsStarting?: () => boolean;
}

/**
 * Whether an exchange is no answer of the agent's yet: the connection was reset before an answer (a
 * front dropping requests while the agent starts), or a gateway said it is starting. A refused
 * connection, an unknown host or a TLS failure is no cold start: the target is wrong or down, and
 * the run says so at once instead of after the allowance. `resetIsStarting` false: a reset is no
 * cold start either (a TLS gateway that closes the connection after the handshake wants a client
 * certificate the run did not give; waiting would only delay that hint).
 */
export function stillStarting(ex: Exchange, resetIsStarting = true): boolean {
  if (ex.response === undefined) return resetIsStarting && ex.error?.kind === 'reset';
  return (ex.error === undefined || ex.error.kind === 'gateway') && WARMING_STATUS.has(ex.response.status);
}

/**
 * Sends `request` (given the ms it may take) until an answer comes that is the agent's, or the
 * cold-start allowance is spent; returns the last exchange and when it ended.
 */
export async function awaitFirstAnswer(
  request: (timeoutMs: number) => Promise<Exchange>,
  opts: FirstAnswerOptions,
): Promise<FirstAnswer> {
  const allowance = Math.max(opts.timeoutMs, opts.coldStartMs);
  const t0 = performance.now();
  const spent = (): number => performance.now() - t0;
  let told = false;
  const tell = (): void => {
    if (told) return;
    told = true;
    opts.onWaiting?.(
      `no answer from the target within ${opts.timeoutMs} ms (--timeout-ms): waiting up to ` +
        `${Math.round(allowance / 1000)} s for its first answer (a cold start, --cold-start-ms)`,
    );
  };
  const timer = allowance > opts.timeoutMs ? setTimeout(tell, opts.timeoutMs) : undefined;
  timer?.unref();
  let sends = 0;
  try {
    for (;;) {
      sends += 1;
      const ex = await request(Math.max(1, Math.round(allowance - spent())));
      const left = allowance - spent();
      if (!stillStarting(ex, opts.resetIsStarting?.() ?? true) || left <= 0) {
        const firstAnswerMs = Math.round(spent());
        return { ex, firstAnswerMs, coldStart: firstAnswerMs > opts.timeoutMs || sends > 1 };
      }
      // Reset, or a gateway's 5xx: the agent is not up yet; ask again shortly.
      if (spent() >= opts.timeoutMs) tell();
      await sleep(Math.min(RESEND_PAUSE_MS, left));
    }
  } finally {
    clearTimeout(timer);
  }
}
