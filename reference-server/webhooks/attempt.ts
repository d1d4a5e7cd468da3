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

/** Connections per receiver origin, so one slow receiver cannot exhaust the server's sockets. */
export const CONNECTIONS_PER_ORIGIN = 16;

/**
 * At most CONNECTIONS_PER_ORIGIN attempts in flight per origin; the others wait here, before their
 * 5 s clock starts. Left to the HTTP client's own queue, an attempt would spend its 5 s waiting for
 * a connection and fail without being sent, and its retry would queue again: a receiver slower than
 * the event rate would see almost nothing while its events failed.
 */
class OriginSlots {
  private readonly active = new Map<string, number>();
  private readonly waiting = new Map<string, Array<() => void>>();

  /** Resolves with a release function once a slot is free; rejects when `signal` aborts first. */
  acquire(origin: string, signal: AbortSignal): Promise<() => void> {
    const release = (): void => {
      const next = this.waiting.get(origin)?.shift();
      if (next) return next(); // the slot passes straight to the next waiting attempt
      if (this.waiting.get(origin)?.length === 0) this.waiting.delete(origin);
      const count = (this.active.get(origin) ?? 1) - 1;
      if (count === 0) this.active.delete(origin);
      else this.active.set(origin, count);
    };
    const count = this.active.get(origin) ?? 0;
    if (count < CONNECTIONS_PER_ORIGIN) {
      this.active.set(origin, count + 1);
      return Promise.resolve(release);
    }
    return new Promise((resolve, reject) => {
      const queue = this.waiting.get(origin) ?? [];
      this.waiting.set(origin, queue);
      const grant = (): void => {
        signal.removeEventListener('abort', onAbort);
        resolve(release);
      };
      const onAbort = (): void => {
        const at = queue.indexOf(grant);
        if (at >= 0) queue.splice(at, 1);
        reject(new Error('canceled: webhook service closed'));
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      queue.push(grant);
    });
  }
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
    connections: CONNECTIONS_PER_ORIGIN,
  });
  const slots = new OriginSlots();

  async function send(
    url: string,
    headers: Record<string, string>,
    body: Buffer,
    closeSignal: AbortSignal,
  ): Promise<AttemptOutcome> {
    // net.connect skips `lookup` for IP literals, so those are vetted here (set refuses them too).
    let target: URL;
    try {
      target = new URL(url);
    } catch (err) {
      return { kind: 'failed', error: describeError(err) };
    }
    const literal = ipLiteralOf(target.hostname);
    if (!allowPrivateTargets && literal !== null && isForbiddenAddress(literal)) {
      return { kind: 'refused', error: `target address ${literal} is not public` };
    }
    let release: () => void;
    try {
      release = await slots.acquire(target.origin, closeSignal);
    } catch {
      return { kind: 'failed', error: 'canceled: webhook service closed' };
    }
    // The 5 s clock starts once a connection slot is this attempt's (spec 6.5, C-20).
    const deadline = AbortSignal.timeout(attemptTimeoutMs);
    const signal = AbortSignal.any([deadline, closeSignal]);
    let draining = false;
    try {
      const res = await request(url, { dispatcher: agent, method: 'POST', headers, body, signal });
      // The connection stays this attempt's until its answer is drained (bounded by the deadline).
      draining = true;
      void res.body
        .dump({ limit: RESPONSE_DRAIN_LIMIT })
        .catch(() => undefined)
        .finally(release);
      const { statusCode } = res;
      if (statusCode >= 200 && statusCode < 300) return { kind: 'acknowledged', statusCode };
      const redirect = statusCode >= 300 && statusCode < 400 ? ' (redirect not followed)' : '';
      return { kind: 'failed', statusCode, error: `HTTP ${statusCode}${redirect}` };
    } catch (err) {
      if (isTargetRefused(err)) return { kind: 'refused', error: err.message };
      if (deadline.aborted) return { kind: 'failed', error: `no response within ${attemptTimeoutMs} ms` };
      if (closeSignal.aborted) return { kind: 'failed', error: 'canceled: webhook service closed' };
      return { kind: 'failed', error: describeError(err) };
    } finally {
      if (!draining) release();
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
