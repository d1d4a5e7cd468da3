// What the infrastructure in front of a deployed agent does to its traffic on an ordinary day, for
// the field proxy (delay-proxy.ts) of `npm run field`: a serverless cold start, a rolling deploy's
// 503 window, a gateway throttle the agent card does not announce, connections reset, answers cut
// short. Each decides from the request's number and the time since the first request, so a row is
// repeatable; none of them touches what the agent itself answers.
import type { ServerResponse } from 'node:http';

export interface FrontOptions {
  /** The instance boots on the first request: nothing is answered until this long after it. */
  coldStartMs?: number;
  /** A rolling deploy: every request within `forMs` of each `everyMs` (from `firstAfterMs`) gets 503. */
  deploy?: { firstAfterMs: number; everyMs: number; forMs: number; retryAfterS: number };
  /** A gateway throttle: at most `limit` requests in any `windowMs`; beyond it, 429 text/plain. */
  throttle?: { limit: number; windowMs: number };
  /** The n-th request (from 1) has its connection reset: before it reaches the agent, or after. */
  reset?: (n: number) => 'before' | 'after' | undefined;
  /** The n-th request's answer (a complete JSON one) is cut short: half its body, then the connection closes. */
  cutShort?: (n: number) => boolean;
}

/** What the front does with one request. */
export type FrontAction =
  | { kind: 'forward'; holdMs: number; reset?: 'after'; cutShort?: boolean }
  | { kind: 'answer'; status: number; headers: Record<string, string>; body: string }
  | { kind: 'reset' };

/** The front's state over a run: when the first request came, the throttle's window. */
export class Front {
  private firstAt: number | undefined;
  private readonly sent: number[] = [];
  private seen = 0;

  constructor(private readonly o: FrontOptions) {}

  /** Decides what happens to the next request, at `now`. */
  next(now = Date.now()): FrontAction {
    this.seen += 1;
    const n = this.seen;
    this.firstAt ??= now;
    const since = now - this.firstAt;
    const cold = this.o.coldStartMs ?? 0;
    if (since < cold) return { kind: 'forward', holdMs: cold - since };
    const deploy = this.o.deploy;
    if (deploy !== undefined && since >= deploy.firstAfterMs) {
      const into = (since - deploy.firstAfterMs) % deploy.everyMs;
      if (into < deploy.forMs) return deploying(deploy.retryAfterS);
    }
    const throttled = this.throttle(now);
    if (throttled !== undefined) return throttled;
    const reset = this.o.reset?.(n);
    if (reset === 'before') return { kind: 'reset' };
    return {
      kind: 'forward',
      holdMs: 0,
      ...(reset === 'after' ? { reset } : {}),
      ...(this.o.cutShort?.(n) === true ? { cutShort: true } : {}),
    };
  }

  /** 429 when the window is full (a refused request is not counted), with Retry-After as an HTTP date. */
  private throttle(now: number): FrontAction | undefined {
    const t = this.o.throttle;
    if (t === undefined) return undefined;
    while (this.sent.length > 0 && this.sent[0]! <= now - t.windowMs) this.sent.shift();
    if (this.sent.length < t.limit) {
      this.sent.push(now);
      return undefined;
    }
    // An HTTP date is whole seconds: the next second after the oldest request leaves the window.
    const at = new Date(Math.ceil((this.sent[0]! + t.windowMs) / 1000) * 1000 + 1000);
    return {
      kind: 'answer',
      status: 429,
      headers: { 'content-type': 'text/plain', 'retry-after': at.toUTCString() },
      body: 'Too Many Requests\n',
    };
  }
}

function deploying(retryAfterS: number): FrontAction {
  return {
    kind: 'answer',
    status: 503,
    headers: { 'content-type': 'text/html', 'retry-after': String(retryAfterS) },
    body: '<html><body><h1>503 Service Temporarily Unavailable</h1></body></html>\n',
  };
}

/** Answers a request as the front itself (a deploy's 503, a throttle's 429). */
export function answerAsFront(res: ServerResponse, a: Extract<FrontAction, { kind: 'answer' }>): void {
  res.writeHead(a.status, { ...a.headers, 'content-length': Buffer.byteLength(a.body) });
  res.end(a.body);
}
