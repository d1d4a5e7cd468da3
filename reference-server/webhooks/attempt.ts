// One webhook HTTP attempt (spec 6.2, 6.5; rulings C-19, C-20): POST with undici through a dedicated
// Agent, the whole attempt bounded by one deadline; 2xx acknowledges, anything else fails, and
// redirects are never followed (undici 7 `request` follows none unless an interceptor is added).
import { Agent, request } from 'undici';
import { createGuardedLookup, ipLiteralOf, isForbiddenAddress, isTargetRefused } from './ssrf-guard.ts';

export type AttemptOutcome =
  | { kind: 'acknowledged'; statusCode: number }
  | { kind: 'failed'; statusCode?: number; error: string }
  /** The SSRF guard refused the target: final, never retried. */
  | { kind: 'refused'; error: string };

export interface AttemptSender {
  send(
    url: string,
    headers: Record<string, string>,
    body: Buffer,
    closeSignal: AbortSignal,
  ): Promise<AttemptOutcome>;
  close(): Promise<void>;
}

// Enough to drain an ordinary acknowledgement so the connection can be reused; a larger body is
// cut off (undici destroys the socket) because nothing in it is ever read.
const RESPONSE_DRAIN_LIMIT = 64 * 1024;

export function createAttemptSender(opts: {
  allowPrivateTargets: boolean;
  attemptTimeoutMs: number;
}): AttemptSender {
  const { allowPrivateTargets, attemptTimeoutMs } = opts;
  const agent = new Agent({
    // The guard runs inside net.connect, so the socket goes to exactly the address it vetted.
    connect: { timeout: attemptTimeoutMs, ...(allowPrivateTargets ? {} : { lookup: createGuardedLookup() }) },
    headersTimeout: attemptTimeoutMs,
    bodyTimeout: attemptTimeoutMs,
    // Bounded per receiver origin so one slow receiver cannot exhaust the server's sockets.
    connections: 16,
  });

  async function send(
    url: string,
    headers: Record<string, string>,
    body: Buffer,
    closeSignal: AbortSignal,
  ): Promise<AttemptOutcome> {
    const deadline = AbortSignal.timeout(attemptTimeoutMs);
    const signal = AbortSignal.any([deadline, closeSignal]);
    try {
      // net.connect skips `lookup` for IP literals, so those are vetted here (set refuses them too).
      const literal = ipLiteralOf(new URL(url).hostname);
      if (!allowPrivateTargets && literal !== null && isForbiddenAddress(literal)) {
        return { kind: 'refused', error: `target address ${literal} is not public` };
      }
      const res = await request(url, { dispatcher: agent, method: 'POST', headers, body, signal });
      res.body.dump({ limit: RESPONSE_DRAIN_LIMIT }).catch(() => undefined);
      const { statusCode } = res;
      if (statusCode >= 200 && statusCode < 300) return { kind: 'acknowledged', statusCode };
      const redirect = statusCode >= 300 && statusCode < 400 ? ' (redirect not followed)' : '';
      return { kind: 'failed', statusCode, error: `HTTP ${statusCode}${redirect}` };
    } catch (err) {
      if (isTargetRefused(err)) return { kind: 'refused', error: err.message };
      if (deadline.aborted) return { kind: 'failed', error: `no response within ${attemptTimeoutMs} ms` };
      if (closeSignal.aborted) return { kind: 'failed', error: 'canceled: webhook service closed' };
      return { kind: 'failed', error: describeError(err) };
    }
  }

  return { send, close: () => agent.destroy() };
}

function describeError(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const code = (err as { code?: unknown }).code;
  const cause = err.cause instanceof Error ? `: ${err.cause.message}` : '';
  return `${typeof code === 'string' ? `${code} ` : ''}${err.message}${cause}`;
}
