// Probes the target before any suite runs: one agent/authenticatedExtendedCard call (spec 4.8), waited
// for up to the cold-start allowance (first-answer.ts), and for the run's plan one timed message/send
// (the agent's turn latency).
// No complete answer, a redirect, a refused credential (C-01), an unknown agent (C-23) or no
// JSON-RPC answer to either request (a web server that is no agent) means the run cannot be done.
import { randomUUID } from 'node:crypto';
import { ERROR_CODES } from '../../schemas/error-codes.ts';
import { isObject } from '../../schemas/json.ts';
import type { Exchange } from '../../core/evidence.ts';
import type { Governor } from '../io/traffic/governor.ts';
import type { TrafficTally } from '../io/traffic/tallies.ts';
import { observeConnection, tlsHint, type ConnectionSeen } from '../io/target/connection-seen.ts';
import type { NetworkSettings } from '../io/target/network.ts';
import { ANSWER_FAULTS } from '../io/target/faults.ts';
import { createTargetClient } from '../io/target/target-client.ts';
import type { Reachability } from '../../core/types.ts';
import { probeDialect } from '../analysis/dialect.ts';
import { awaitFirstAnswer } from './first-answer.ts';
import type { DialectProbeAnswer } from '../../core/analysis.ts';
import { credentialRefused, isJsonRpcBody, notAnAgent } from './not-an-agent.ts';

export interface ProbeTarget {
  baseUrl: string;
  agentId: string;
  auth: { apiKey?: string; bearer?: string };
  timeoutMs: number;
  /** How long the first answer is waited for (--cold-start-ms); default: timeoutMs. */
  coldStartMs?: number;
  network?: NetworkSettings;
}

export interface ProbeOptions {
  /** Also time one plain message/send (the agent's turn latency, for the plan). */
  measureTurn?: boolean;
  /** A console line: the probe waits for a cold start. */
  log?: (line: string) => void;
  /**
   * The run's budget end (epoch ms; --budget-ms counts from the run's start): the turn waits no
   * later, and is not sent once it passed. Absent: the turn waits up to the cold-start allowance.
   */
  endsAt?: number;
}

export interface ProbeOutcome {
  reachability: Reachability;
  card: Record<string, unknown> | null;
  /** Why the run cannot be done, or null. */
  couldNotRun: string | null;
  /** No card under the spec's method: the answers under the official A2A dialects' names. */
  dialectProbe?: DialectProbeAnswer[];
  /** What the probe saw of the connection: TLS session, proxy, notes. */
  connection?: ConnectionSeen;
  /** How long one agent turn took (a plain message/send), when the run asked and the agent answered it. */
  turnLatencyMs?: number;
}

/** Method not found, and A2A v1.0's VersionNotSupported (-32009) for a request without A2A-Version. */
const ASKS_DIALECT: ReadonlySet<unknown> = new Set([ERROR_CODES.METHOD_NOT_FOUND, -32009]);

function errorCode(json: unknown): unknown {
  return isObject(json) && isObject(json.error) ? json.error.code : undefined;
}

function classify(
  ex: Exchange,
  auth: ProbeTarget['auth'],
): Omit<ProbeOutcome, 'reachability'> & Omit<Reachability, 'durationMs'> {
  const res = ex.response;
  if (res === undefined) {
    const hint = tlsHint(ex.error);
    const message = `target unreachable: ${ex.error?.message ?? 'no response'}${hint === undefined ? '' : `; ${hint}`}`;
    return { reachable: false, authenticated: false, message, card: null, couldNotRun: message };
  }
  const base = { reachable: true, status: res.status };
  // One complete answer is the least a run needs: a body cut by the deadline, a reset or the body
  // cap means every later request would spend its whole budget the same way.
  // A gateway's, a throttle's or an error page's complete answer is judged below like any other.
  if (ex.error !== undefined && !ANSWER_FAULTS.has(ex.error.kind)) {
    const message = `the target's answer to the probe did not complete (HTTP ${res.status}, ${ex.error.kind}): ${ex.error.message}`;
    return { ...base, authenticated: false, message, card: null, couldNotRun: message };
  }
  // The harness never follows redirects (a credential must not travel to another origin).
  if (res.status >= 300 && res.status < 400) {
    const location = res.headers.location ?? '(no Location)';
    const message = `the agent endpoint redirects (HTTP ${res.status} to ${String(location)}); redirects are not followed: check --target`;
    return { ...base, authenticated: false, message, card: null, couldNotRun: message };
  }
  const code = errorCode(res.json);
  if (res.status === 401 || res.status === 403 || code === ERROR_CODES.UNAUTHORIZED) {
    const message = credentialRefused(res, code, auth);
    return { ...base, authenticated: false, message, card: null, couldNotRun: message };
  }
  if (res.status === 404 || code === ERROR_CODES.AGENT_NOT_FOUND) {
    const message = `agent endpoint not found (HTTP ${res.status}): check --target and --agent-id`;
    return { ...base, authenticated: false, message, card: null, couldNotRun: message };
  }
  const result = isObject(res.json) ? res.json.result : undefined;
  if (isObject(result)) {
    return {
      ...base,
      authenticated: true,
      message: 'extended card fetched',
      card: result,
      couldNotRun: null,
    };
  }
  // The target answered but gave no card: the suites still run (and will say what is wrong).
  const why = code !== undefined ? `error code ${String(code)}` : (res.parseError ?? 'no result object');
  return {
    ...base,
    authenticated: true,
    message: `no extended card (${why}); capabilities unknown`,
    card: null,
    couldNotRun: null,
  };
}

/**
 * One agent turn, for the run's plan (harness/runner/plan.ts) and to tell an agent from a web server
 * that is none: a plain text message/send, the least a run asks of the agent. Undefined when the
 * governor gave up on it.
 */
async function probeTurn(
  client: ReturnType<typeof createTargetClient>,
  timeoutMs: number,
): Promise<Exchange | undefined> {
  try {
    const message = {
      role: 'user',
      messageId: randomUUID(),
      parts: [{ type: 'text', text: 'conformance: probe turn' }],
    };
    // A turn longer than the request budget is still the agent's turn: it is measured whole, up to
    // the cold-start allowance, so the run's task-making requests can be given the time it takes.
    return await client.rpc('message/send', { message }, { timeoutMs });
  } catch {
    return undefined;
  }
}

/** How long the turn took, when it got a complete answer with a result (else the plan assumes the round trip). */
function turnLatency(ex: Exchange | undefined): number | undefined {
  const json = ex?.response?.json;
  return ex !== undefined && ex.error === undefined && isObject(json) && isObject(json.result)
    ? Math.round(ex.timings.totalMs)
    : undefined;
}

/** `traffic`: the run's governor (a rate-limited answer is waited out and resent) and the probe's tally. */
export async function probeTarget(
  target: ProbeTarget,
  traffic?: { governor: Governor; tally: TrafficTally },
  opts: ProbeOptions = {},
): Promise<ProbeOutcome> {
  const { value, seen } = await observeConnection(target.baseUrl, target.network, (seenSoFar) =>
    probe(target, traffic, opts, seenSoFar),
  );
  // A gateway that wants a client certificate often completes the handshake and closes the
  // connection after it (TLS 1.3): the session seen and no answer point at it.
  if (
    !value.reachability.reachable &&
    seen.tls !== undefined &&
    target.network?.clientCert === undefined &&
    !/--client-cert/.test(value.reachability.message)
  ) {
    const hint =
      '; the TLS handshake completed but no answer came: if a gateway requires mutual TLS, give --client-cert <pem> and --client-key <pem>';
    value.reachability.message += hint;
    if (value.couldNotRun !== null) value.couldNotRun += hint;
  }
  return { ...value, connection: seen };
}

const CARD_PARAMS = { includeCapabilities: true };

async function probe(
  target: ProbeTarget,
  traffic: { governor: Governor; tally: TrafficTally } | undefined,
  opts: ProbeOptions,
  seen: Readonly<ConnectionSeen>,
): Promise<ProbeOutcome> {
  const client = createTargetClient({ ...target, ...traffic });
  const coldStartMs = Math.max(target.timeoutMs, target.coldStartMs ?? target.timeoutMs);
  try {
    let first: Awaited<ReturnType<typeof awaitFirstAnswer>>;
    try {
      first = await awaitFirstAnswer(
        (timeoutMs) => client.rpc('agent/authenticatedExtendedCard', CARD_PARAMS, { timeoutMs }),
        {
          timeoutMs: target.timeoutMs,
          coldStartMs,
          ...(opts.log === undefined ? {} : { onWaiting: opts.log }),
          // A reset right after a completed TLS handshake, with no client certificate given, is a
          // gateway asking for one (mutual TLS), not a cold start: said at once with its hint.
          resetIsStarting: () => seen.tls === undefined || target.network?.clientCert !== undefined,
        },
      );
    } catch (e) {
      // The governor gave up: the agent kept answering "rate limited" (HTTP 429 / -32012).
      const message = `the target refused the probe: ${(e as Error).message}`;
      const reachability = { reachable: true, authenticated: false, message, durationMs: 0 };
      return { reachability, card: null, couldNotRun: message };
    }
    // The target client resends a read that met a gateway's 5xx or a reset: such a card is a cold start too.
    if (client.exchanges().length > 1 && first.ex.error === undefined) first = { ...first, coldStart: true };
    const { ex } = first;
    const { card, couldNotRun, ...reach } = classify(ex, target.auth);
    if (ex.response === undefined && coldStartMs > target.timeoutMs) {
      const waited = `; nothing answered for ${Math.round(first.firstAnswerMs / 1000)} s (--cold-start-ms ${coldStartMs})`;
      reach.message += waited;
      return {
        reachability: { ...reach, durationMs: Math.round(ex.timings.totalMs) },
        card,
        couldNotRun: `${couldNotRun ?? reach.message}${couldNotRun === null ? '' : waited}`,
      };
    }
    const outcome: ProbeOutcome = {
      reachability: { ...reach, durationMs: Math.round(ex.timings.totalMs) },
      card,
      couldNotRun,
    };
    if (ex.response !== undefined) outcome.reachability.firstAnswerMs = first.firstAnswerMs;
    if (couldNotRun !== null) return outcome;
    if (first.coldStart) {
      outcome.reachability.coldStart = true;
      // The plan's round trip is the warm agent's: the card once more, now that the agent is up.
      const warm = await client.rpc('agent/authenticatedExtendedCard', CARD_PARAMS);
      if (warm.response !== undefined && warm.error === undefined)
        outcome.reachability.durationMs = Math.round(warm.timings.totalMs);
    }
    // An agent that does not know the card method (or wants another protocol version) may speak
    // another dialect: two more requests ask it (harness/analysis). Any other answer costs nothing more.
    if (card === null && ASKS_DIALECT.has(errorCode(ex.response?.json)))
      outcome.dialectProbe = await probeDialect(client);
    // No JSON-RPC at all to the card request: a plain message/send decides whether anything at this
    // path speaks it. A web server that is no agent (HTML, text, 501 to every POST) ends the run here.
    const measureTurn = opts.measureTurn === true;
    const spoke = isJsonRpcBody(ex.response?.json);
    if (!measureTurn && spoke) return outcome;
    // What the probe spends is the run's: a turn still unanswered at the budget end is not waited
    // for (the suites then end at once), so no target's turn holds the run past its budget.
    const left = opts.endsAt === undefined ? coldStartMs : Math.min(coldStartMs, opts.endsAt - Date.now());
    const turn = left > 0 ? await probeTurn(client, left) : undefined;
    if (!spoke && !isJsonRpcBody(turn?.response?.json)) {
      const message = notAnAgent(ex, turn);
      outcome.reachability = { ...outcome.reachability, authenticated: false, message };
      outcome.couldNotRun = message;
      return outcome;
    }
    const ms = measureTurn ? turnLatency(turn) : undefined;
    if (ms !== undefined) outcome.turnLatencyMs = ms;
    return outcome;
  } finally {
    await client.close();
  }
}
