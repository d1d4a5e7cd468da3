// Spec 8 (limits.requestsPerMinute), ruled by C-04: requests sent quickly until one is refused (or
// limit + 20 were sent) get HTTP 429, Retry-After and -32012 {limit, retryAfterSeconds}; the checks
// then say how long the window took to let a request in again (window-reset.ts). With --replica the
// burst goes to each replica in turn, and the limit must hold for the agent as a whole (C-60). Last
// suite of the run (suites/vitest.config.ts): the agent stays blocked for up to 60 s afterwards.
import { inject } from 'vitest';
import {
  BURST_MAX_LIMIT,
  completeAnswer,
  paceCap,
  sendBurstRequest,
  type TargetClient,
} from '../../harness/check/index.ts';
import { ERROR_CODES, is, suiteFile, verifies } from '../support/index.ts';
import type { AnsweredExchange, CheckContext } from '../support/index.ts';
import { requireCardLimit } from '../support/card.ts';
import { errorData } from '../support/errors.ts';
import { givenReplicas, replicaUrls } from '../support/replicas.ts';
import { errorOf, responseOf } from '../support/rpc.ts';
import { sharedSample } from '../support/samples.ts';
import { timed } from '../support/timing.ts';
import { measureReset, type WindowReset } from './window-reset.ts';

suiteFile({
  cost: { requests: 0, turns: 0 },
  runs: {
    when: 'last',
    why: 'tripping the rate limit (C-04) blocks the agent for up to a minute: a check after it would wait that long',
  },
  agent: 'alone',
});

const BEYOND_LIMIT = 20;
// Requests in flight at once: enough to outpace a loopback server, few enough not to exhaust sockets.
const PARALLEL = 32;
const WINDOW_MS = 60_000;
// Up to limit + 20 requests (6,020 at the bundled agent's 6,000 a minute) take about 10 s on an idle
// machine but can outlast the run's per-check budget on a loaded one: the burst's checks get three times it.
const BURST = { timeoutMs: 3 * inject('a2aRun').checkTimeoutMs };

interface Burst {
  limit: number;
  sent: number;
  served: number;
  other: unknown[];
  /** Requests of the burst that met a transport fault (no answer, a gateway's page), and the first. */
  faults: number;
  fault?: string;
  ms: number;
  refused?: AnsweredExchange;
  /** Requests served by each address the burst went to (the replicas in turn, or the target). */
  servedBy: Record<string, number>;
  /**
   * A 429 that is no JSON-RPC answer (faults.ts `throttled`) before the agent's announced limit was
   * reached: a throttle in front of the agent refused the burst, the agent never did.
   */
  front?: AnsweredExchange;
  /** How long the window took to let a request in again after the refusal. */
  reset?: WindowReset;
}

function isRefusal(ex: AnsweredExchange): boolean {
  return ex.response.status === 429 || errorOf(ex)?.code === ERROR_CODES.RATE_LIMITED;
}

/**
 * Whether a 429 that is no JSON-RPC answer came before the agent's limit: fewer served (by the burst
 * and the window fill ahead of it) than the run ever lets into the agent's window (paceCap: the rest
 * of a window may be the probe's and other clients'). At the limit, it is the agent's refusal, graded.
 */
function throttledInFront(c: CheckContext, ex: AnsweredExchange, served: number, limit: number): boolean {
  if (ex.error?.kind !== 'throttled') return false;
  const before = served + (c.config.field.windowFill?.served ?? 0);
  return before < paceCap({ limit, windowMs: WINDOW_MS, source: 'card' });
}

async function send(c: CheckContext, limit: number): Promise<Omit<Burst, 'ms'>> {
  // Only the last exchanges are kept as evidence: thousands of identical card requests say nothing.
  // The one client (one per replica) that exceeds the pace on purpose: its rate-limited answers reach
  // the check. The burst's size is the same whatever it is spread across: the agent's limit is one.
  const options = { maxExchanges: 20, recordBodyChars: 4096, bypassPacing: true };
  const replicas = givenReplicas(c);
  const to: Array<{ url: string; client: TargetClient }> =
    replicas.length === 0
      ? [{ url: c.target.baseUrl, client: c.newClient(options) }]
      : replicas.map((baseUrl) => ({ url: baseUrl, client: c.newClient({ ...options, baseUrl }) }));
  const servedBy = Object.fromEntries(to.map((t) => [t.url, 0]));
  const seen: Omit<Burst, 'ms'> = { limit, sent: 0, served: 0, other: [], servedBy, faults: 0 };
  const worker = async (): Promise<void> => {
    while (
      seen.refused === undefined &&
      seen.front === undefined &&
      seen.sent < limit + BEYOND_LIMIT &&
      !c.signal.aborted
    ) {
      const { url, client } = to[seen.sent % to.length]!;
      seen.sent += 1;
      const ex = await sendBurstRequest(client);
      if (!completeAnswer(ex) && ex.error?.kind !== 'throttled') {
        seen.faults += 1;
        seen.fault ??= `${ex.error?.kind ?? 'no answer'}: ${ex.error?.message ?? ''}`;
      }
      if (ex.response === undefined) seen.other.push(ex.error?.message);
      else if (isRefusal(ex as AnsweredExchange)) {
        const refusal = ex as AnsweredExchange;
        if (throttledInFront(c, refusal, seen.served, limit)) seen.front ??= refusal;
        else seen.refused ??= refusal;
      } else if (responseOf(ex as AnsweredExchange)?.result !== undefined) {
        seen.served += 1;
        servedBy[url] = (servedBy[url] ?? 0) + 1;
      } else seen.other.push(ex.response.status);
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
  return seen;
}

/** The burst, once for the three checks of this file. */
const burst = sharedSample(
  'burst',
  {
    requests: 20,
    turns: 0,
    burst: true,
    waits: [{ rateWindow: true, why: 'the tripped window, until a request is let in again' }],
  },
  async (c): Promise<Burst> => {
    const limit = requireCardLimit(c, 'requestsPerMinute');
    if (limit > BURST_MAX_LIMIT) {
      c.notExercised(`limits.requestsPerMinute ${limit} is above the ${BURST_MAX_LIMIT} requests sent`);
    }
    const { value, ms } = await timed(() => send(c, limit));
    const b: Burst = { ...value, ms };
    if (b.refused !== undefined) b.reset = await measureReset(c, b.refused, probeWith(c), isRefusal);
    return b;
  },
);

/** One request of the burst's kind from a client that bypasses pacing (its refusals reach the check). */
function probeWith(c: CheckContext): () => Promise<AnsweredExchange | undefined> {
  const client = c.newClient({ maxExchanges: 20, recordBodyChars: 4096, bypassPacing: true });
  return async () => {
    const ex = await sendBurstRequest(client);
    return ex.response === undefined ? undefined : (ex as AnsweredExchange);
  };
}

/**
 * The requests the runner sent ahead of the burst to fill the window (harness/runner/window-fill.ts):
 * the burst reached the limit with fewer of its own. Its served count and its verdict are its own.
 */
function tellWindowFill(c: CheckContext, b: Burst): void {
  const fill = c.config.field.windowFill;
  if (fill === undefined) return;
  const before = Math.max(0, Math.round((Date.now() - b.ms - fill.endedAt) / 100) / 10);
  c.info(
    `the run sent ${fill.requests} requests of the same kind ahead of the burst to fill the window (${fill.served} served), the last ${before} s before it`,
  );
}

/** The window's reset, as an observation of the check (report.json notes). */
function reportReset(c: CheckContext, b: Burst): void {
  if (b.reset === undefined) return;
  const { note, ...measured } = b.reset;
  c.info(note, measured);
}

/**
 * A throttle in front of the agent refused the burst before the agent's limit: nothing the agent
 * answered is graded, and the check says so (the agent's own limit was never reached).
 */
function requireNoFrontThrottle(c: CheckContext, b: Burst): void {
  if (b.front === undefined) return;
  const type = String(b.front.response.headers['content-type'] ?? 'no content type').split(';')[0];
  c.notExercised(
    `a throttle in front of the agent refused the burst after ${b.served} served, before the announced limit of ${b.limit} (HTTP 429, ${type}, no JSON-RPC answer): the agent's own limit was never reached`,
  );
}

function requireRefusal(c: CheckContext, b: Burst): AnsweredExchange {
  requireNoFrontThrottle(c, b);
  if (b.refused === undefined) {
    c.notExercised(`no request was refused among ${b.sent} sent (limits.requestsPerMinute ${b.limit})`);
  }
  return b.refused;
}

verifies(
  '8/rate-limit-enforced',
  'requests beyond requestsPerMinute within 60 s are refused',
  async (c) => {
    const b = await burst(c);
    c.info(`${b.sent} requests in ${b.ms} ms: ${b.served} served, ${b.other.length} other answers`, b.other);
    tellWindowFill(c, b);
    reportReset(c, b);
    requireNoFrontThrottle(c, b);
    // Requests the agent never answered (a reset, a gateway's 503) never reached its window.
    if (b.refused === undefined && b.faults > 0) {
      c.notExercised(
        `${b.faults} of the ${b.sent} requests met a transport fault (${b.fault}) and none was refused: no window was shown to hold more than ${b.limit}`,
      );
    }
    // A burst slower than the window (a loaded machine, a slow network) may never put more than the
    // limit into any 60 s: then no refusal is owed.
    if (b.refused === undefined && b.ms >= WINDOW_MS) {
      c.notExercised(
        `the ${b.sent} requests took ${b.ms} ms, longer than the 60 s window, and none was refused: ` +
          `no window was shown to hold more than ${b.limit}`,
      );
    }
    c.check(
      'a request refused (HTTP 429 or -32012)',
      b.refused === undefined ? `none of ${b.sent}` : 'refused',
      'refused',
    );
    // A refusal before the announced limit is no violation, but worth saying: earlier requests share
    // the window, or something in front of the agent throttles below the card's pace.
    if (b.refused !== undefined && b.served < b.limit)
      c.info(
        `the refusal came after ${b.served} served, before the announced limit of ${b.limit} (requests earlier in the window, or a throttle in front of the agent)`,
      );
    // Earlier suites' requests share the window, so fewer than the limit may be served; never more.
    if (b.ms < WINDOW_MS)
      c.check(
        'requests served in the burst',
        b.served,
        is.where(`at most ${b.limit}`, (n) => (n as number) <= b.limit),
      );
  },
  BURST,
);

verifies(
  '8/rate-limit-error-code',
  'the refusal is HTTP 429 with -32012 and data.limit, retryAfterSeconds',
  async (c) => {
    const b = await burst(c);
    const ex = requireRefusal(c, b);
    c.check('HTTP status', ex.response.status, 429);
    c.check('error.code', errorOf(ex)?.code, ERROR_CODES.RATE_LIMITED);
    c.check('error.data.limit', errorData(ex)?.limit, b.limit);
    const seconds = errorData(ex)?.retryAfterSeconds;
    c.check(
      'error.data.retryAfterSeconds',
      seconds,
      is.where('a positive integer', (v) => Number.isInteger(v) && (v as number) > 0),
    );
    const raw = ex.response.headers['retry-after'];
    const header = retryAfterSeconds(raw, ex.response.headers['date']);
    // An HTTP-date and the Date header are each cut to the second: they may differ from it by one.
    const slack = typeof raw === 'string' && !/^\d+$/.test(raw.trim()) ? 1 : 0;
    if (header !== undefined)
      c.check(
        'error.data.retryAfterSeconds equals Retry-After',
        seconds,
        is.where(
          `${header}${slack > 0 ? ' (+/- 1, HTTP-date)' : ''}`,
          (v) => Math.abs(Number(v) - header) <= slack,
        ),
      );
  },
  BURST,
);

/**
 * Retry-After in seconds (RFC 9110 section 10.2.3: delay-seconds, or an HTTP-date read against the
 * answer's own Date header, both whole seconds); undefined when it is neither.
 */
function retryAfterSeconds(header: unknown, date: unknown): number | undefined {
  if (typeof header !== 'string') return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header);
  const at = Date.parse(header);
  const now = typeof date === 'string' ? Date.parse(date) : Number.NaN;
  return Number.isNaN(at) || Number.isNaN(now) ? undefined : Math.round((at - now) / 1000);
}

verifies(
  '8/rate-limit-retry-after',
  'the refusal carries Retry-After (delay-seconds, or an HTTP-date with a Date header)',
  async (c) => {
    const b = await burst(c);
    const ex = requireRefusal(c, b);
    reportReset(c, b);
    const header = ex.response.headers['retry-after'];
    const seconds = retryAfterSeconds(header, ex.response.headers['date']);
    c.check(
      'Retry-After',
      header,
      is.where('delay-seconds or an HTTP-date', () => seconds !== undefined),
    );
    // C-04: at least 1, and never beyond the 60 s window.
    c.check(
      'Retry-After seconds',
      seconds,
      is.where('between 1 and 60', (v) => (v as number) >= 1 && (v as number) <= 60),
    );
  },
  BURST,
);

verifies(
  '8/rate-limit-agent-wide',
  'a burst spread across the replicas is refused at the limit of the agent as a whole',
  async (c) => {
    // Without two replicas the burst goes to the target alone, and this check has nothing to grade.
    const replicas = replicaUrls(c);
    const b = await burst(c);
    const perReplica = replicas.map((url) => `${url}: ${b.servedBy[url] ?? 0}`).join(', ');
    c.info(
      `${b.sent} requests in ${b.ms} ms across ${replicas.length} replicas: ${b.served} served (${perReplica})`,
      b.other,
    );
    tellWindowFill(c, b);
    if (b.refused === undefined && b.ms >= WINDOW_MS) {
      c.notExercised(
        `the ${b.sent} requests took ${b.ms} ms, longer than the 60 s window, and none was refused: ` +
          `no window was shown to hold more than ${b.limit}`,
      );
    }
    c.check(
      'a request refused (HTTP 429 or -32012) by any replica',
      b.refused === undefined ? `none of ${b.sent} across ${replicas.length} replicas` : 'refused',
      'refused',
    );
    if (b.ms < WINDOW_MS)
      c.check(
        `requests served across the replicas (${perReplica})`,
        b.served,
        is.where(`at most ${b.limit}, the agent's limit`, (n) => (n as number) <= b.limit),
      );
  },
  BURST,
);
