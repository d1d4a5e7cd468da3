// The harness's client for a target's JSON-RPC endpoint (spec 4: POST {base_url}/api/v1/a2a/{agent_id},
// credentials per spec 5). Every exchange is recorded as evidence, as the wire carried it (the checks
// compare it; core/redaction.ts redacts a check's result once decided); protocol oddities are
// recorded, never thrown; every request ends by a total deadline; redirects are never followed.
import type { Dispatcher } from 'undici';
import { answerMadeTask, turnBudgetMs } from './agent-turn.ts';
import { ACCEPT_ENCODING } from './body-reader.ts';
import type { Exchange } from '../../../core/evidence.ts';
import type { TrafficGovernor } from '../traffic/governor.ts';
import { countFault, sendResendingReads, waitOutUnavailable } from './faults.ts';
import { networkSecrets, targetDispatcher } from './network.ts';
import {
  agentPath,
  buildEnvelope,
  credentialHeaders,
  joinUrl,
  mergeHeaders,
  recordRequest,
  type RequestSpec,
} from './request-spec.ts';
import { resendWhileRateLimited } from '../traffic/rate-limited.ts';
import { fillFromTranscript } from './response-record.ts';
import { sendExchange, type ExchangeWire } from './send-exchange.ts';
import { openSseStream, type SseStream } from './sse-reader.ts';
import { turnInProgress } from '../traffic/tallies.ts';
import type {
  PaceRoom,
  RawRequest,
  RpcOptions,
  StreamOptions,
  TargetClient,
  TargetClientOptions,
} from './target-client-options.ts';
import { holdUntilTaskEnds, isTurn, namesTurnMethod, streamBudgetsOf, streamTurnMs } from './turns.ts';

export type {
  HeaderOverrides,
  PaceRoom,
  RawRequest,
  RequestOverrides,
  RpcOptions,
  StreamOptions,
  TargetClient,
  TargetClientOptions,
} from './target-client-options.ts';

class Client implements TargetClient {
  readonly baseUrl: string;
  readonly agentId: string;
  private readonly dispatcher: Dispatcher;
  /** The extra headers of every request: the base a request's own headers are merged over. */
  private readonly extraHeaders: Record<string, string>;
  private readonly timeoutMs: number;
  /** What sendExchange needs of this client: its dispatcher, body cap, requests in flight. */
  private readonly wire: ExchangeWire;
  private readonly recordChars: number;
  private readonly maxExchanges: number;
  private readonly secretList: string[] = [];
  private readonly log: Exchange[] = [];
  private readonly inflight = new Set<AbortController>();
  private readonly openStreams = new Set<SseStream>();
  private dropped = 0;
  private seq = 0;
  private sentNotAnswered = 0;

  constructor(private readonly opts: TargetClientOptions) {
    this.baseUrl = opts.baseUrl;
    this.agentId = opts.agentId;
    this.timeoutMs = opts.timeoutMs ?? 10_000;
    this.recordChars = opts.recordBodyChars ?? 256 * 1024;
    this.maxExchanges = opts.maxExchanges ?? 10_000;
    this.addSecrets(...(opts.secrets ?? []), opts.auth.apiKey ?? '', opts.auth.bearer ?? '');
    this.addSecrets(...networkSecrets(opts.network));
    this.extraHeaders = opts.network?.headers ?? {};
    // undici's own timers are backstops; the per-request deadline in send() is authoritative.
    this.dispatcher = targetDispatcher(opts.baseUrl, opts.network, {
      connectMs: this.timeoutMs,
      headersMs: this.timeoutMs,
      bodyMs: this.timeoutMs,
    });
    this.wire = {
      dispatcher: this.dispatcher,
      maxBodyBytes: opts.maxBodyBytes ?? 16 * 1024 * 1024,
      recordChars: this.recordChars,
      secrets: this.secretList,
      inflight: this.inflight,
    };
  }

  agentPath(agentId: string = this.agentId): string {
    return agentPath(agentId);
  }

  rpc(method: string, params?: unknown, opts: RpcOptions = {}): Promise<Exchange> {
    // Every attempt gets a fresh spec, so a request resent after a rate-limited answer has its own id (C-52).
    let spec: RequestSpec | undefined = this.rpcSpec(method, params, opts, 'application/json');
    const turn = isTurn(spec);
    const base = opts.timeoutMs ?? this.timeoutMs;
    const timeoutMs = turn ? turnBudgetMs(base, this.turnAllowance()) : base;
    const turnMethod = turn || namesTurnMethod(spec.body);
    const next = (): RequestSpec => {
      const s = spec ?? this.rpcSpec(method, params, opts, 'application/json');
      spec = undefined;
      return s;
    };
    const sendNext = (): Promise<Exchange> => {
      opts.onSent?.();
      return this.send(next(), timeoutMs);
    };
    const once = (): Promise<Exchange> => this.governed(turn, sendNext, turnMethod, opts.pace);
    const tally = this.opts.tally;
    return settled(
      sendResendingReads(method, once, {
        maxWaitMs: timeoutMs,
        counts: tally === undefined ? undefined : (tally.faults ??= {}),
        signal: this.opts.signal,
        keepAnswers: this.opts.bypassPacing,
      }),
    );
  }

  stream(method: string, params?: unknown, given: StreamOptions = {}): Promise<SseStream> {
    return settled(this.openStream(method, params, given));
  }

  private async openStream(method: string, params: unknown, given: StreamOptions): Promise<SseStream> {
    const turn = isTurn(this.rpcSpec(method, params, given, 'text/event-stream'));
    const opts = streamBudgetsOf(method, turn, given, this.turnAllowance());
    const releaseTask = await this.holdTask(turn);
    try {
      const governor = this.resender();
      const { s } = await resendWhileRateLimited(
        governor,
        this.opts,
        async () => {
          const once = await this.streamOnce(
            this.rpcSpec(method, params, opts, 'text/event-stream'),
            opts,
            turn,
          );
          const t = once.s.transcript;
          // An event stream (or no answer) is the check's as it comes; a plain answer is read whole
          // to tell whether it says "rate limited".
          if (governor === undefined || t.isEventStream === true || t.status === undefined)
            return { result: once, answer: undefined };
          await once.s.done;
          await waitOutUnavailable(this.resender(), t, this.opts);
          return { result: once, answer: t };
        },
        ({ ex }) => this.forget(ex),
      );
      holdUntilTaskEnds(s, releaseTask);
      return s;
    } catch (e) {
      releaseTask();
      throw e;
    }
  }

  /** One attempt: admitted by the governor, recorded, counted when it ends. */
  private async streamOnce(
    spec: RequestSpec,
    opts: StreamOptions,
    turn: boolean,
  ): Promise<{ s: SseStream; ex: Exchange }> {
    const release = await this.admit(turn, opts.pace);
    const ex = this.record(spec, 'stream');
    this.sentNotAnswered += 1;
    // Until it answers; the time to its first event counts in agentMs when the stream ends.
    const answered = turn ? turnInProgress(this.opts.tally) : () => undefined;
    let s: SseStream;
    try {
      s = await openSseStream(this.dispatcher, spec, ex.id, () => this.secretList, opts);
    } catch (e) {
      this.sentNotAnswered -= 1;
      answered();
      release();
      throw e;
    }
    // A stream holds no request slot once it answered: checks keep streams open while they send more.
    release();
    this.openStreams.add(s);
    // The agent's turn lasts until the task's final event (a stream may announce the task at once
    // and end after a long turn), or the stream's end: the check's budget does not run meanwhile.
    void s.done.then((t) => {
      answered();
      this.sentNotAnswered -= 1;
      this.openStreams.delete(s);
      fillFromTranscript(ex, t);
      if (!turn) return;
      const ms = t.events[0]?.atMs ?? t.headersMs ?? 0;
      const final = t.finalIndex === null ? undefined : t.events[t.finalIndex];
      if (this.opts.tally !== undefined) this.opts.tally.agentMs += final?.atMs ?? ms;
      this.turnEnded(
        streamTurnMs(t, spec.body),
        t.isEventStream === true || (t.status !== undefined && answerMadeTask(t.status, t.json)),
      );
    });
    return { s, ex };
  }

  raw(req: RawRequest): Promise<Exchange> {
    // The extra headers go on every request (a gateway refuses any without them); a raw request's
    // own headers win, so a check can still send exactly what it means to.
    const base = { ...this.extraHeaders, ...(req.auth === true ? credentialHeaders(this.opts.auth) : {}) };
    const spec: RequestSpec = {
      url: req.url ?? joinUrl(this.baseUrl, req.path ?? this.agentPath()),
      method: req.method ?? 'GET',
      headers: mergeHeaders(base, req.headers),
    };
    if (req.body !== undefined) spec.body = req.body;
    const turn = isTurn(spec);
    const deadline = req.timeoutMs ?? this.timeoutMs;
    const timeoutMs = turn ? turnBudgetMs(deadline, this.turnAllowance()) : deadline;
    return settled(this.governed(turn, () => this.send(spec, timeoutMs), turn || namesTurnMethod(spec.body)));
  }

  exchanges(): Exchange[] {
    return [...this.log];
  }

  droppedExchanges(): number {
    return this.dropped;
  }

  addSecrets(...secrets: string[]): void {
    for (const s of secrets) if (s.length > 0 && !this.secretList.includes(s)) this.secretList.push(s);
  }

  secrets(): readonly string[] {
    return [...this.secretList];
  }

  unanswered(): number {
    return this.sentNotAnswered;
  }

  async close(): Promise<void> {
    for (const c of this.inflight) c.abort();
    await Promise.all([...this.openStreams].map((s) => s.close()));
    await this.dispatcher.destroy();
  }

  /**
   * What a task-creating request's deadlines grow by: the agent's measured turn latency, and what a
   * request has lately waited on the pace, by which c.scaled() grows the script such a request
   * carries (its answer, or its stream's end, comes that much later).
   */
  private turnAllowance(): number {
    const g = this.opts.governor;
    return g === undefined ? 0 : g.turnAllowanceMs() + g.paceWaitMs();
  }

  /** The governor that has rate-limited answers waited out and resent; none: they reach the caller. */
  private resender(): TrafficGovernor | undefined {
    return this.opts.bypassPacing === true ? undefined : this.opts.governor;
  }

  private admit(turn: boolean, pace?: PaceRoom): Promise<() => void> {
    const g = this.opts.governor;
    if (g === undefined) return Promise.resolve(() => undefined);
    return g.admit({
      turn,
      tally: this.opts.tally,
      signal: this.opts.signal,
      bypass: this.opts.bypassPacing,
      keep: pace !== undefined && 'keep' in pace ? pace.keep : 0,
      prepaid: pace !== undefined && 'prepaid' in pace,
    });
  }

  /**
   * One request under the governor: it waits for the pace, and an answer that says "rate limited"
   * (HTTP 429 or -32012) is resent after Retry-After instead of reaching the check; the refused
   * attempt leaves no exchange (RunResult.traffic counts it).
   */
  private async governed(
    turn: boolean,
    send: () => Promise<Exchange>,
    turnMethod = turn,
    pace?: PaceRoom,
  ): Promise<Exchange> {
    // A send holds its task slot until it is answered: the call blocks until the task is final (spec
    // 4.1). A target that answers `working` early (C-25) frees the slot with its answer.
    const releaseTask = await this.holdTask(turn);
    try {
      return await resendWhileRateLimited(
        this.resender(),
        this.opts,
        async () => {
          const release = await this.admit(turn, pace);
          const answered = turnMethod ? turnInProgress(this.opts.tally) : () => undefined;
          let ex: Exchange;
          this.sentNotAnswered += 1;
          try {
            ex = await send();
          } finally {
            this.sentNotAnswered -= 1;
            answered();
            release();
          }
          if (turnMethod && this.opts.tally !== undefined) this.opts.tally.agentMs += ex.timings.totalMs;
          const res = ex.response;
          if (turn && res !== undefined)
            this.turnEnded(ex.timings.totalMs, answerMadeTask(res.status, res.json));
          await waitOutUnavailable(this.resender(), res, this.opts);
          return { result: ex, answer: res };
        },
        (ex) => {
          // A throttle's 429 waited out and resent by the governor: a fault absorbed.
          const t = this.opts.tally;
          if (t !== undefined) countFault((t.faults ??= {}), ex, true);
          this.forget(ex);
        },
      );
    } finally {
      releaseTask();
    }
  }

  /** A turn answered: its time counted when it made a task, else it was no turn after all (uncounted). */
  private turnEnded(ms: number, madeTask: boolean): void {
    if (madeTask) this.opts.governor?.turnAnswered(ms, this.opts.tally);
    else this.opts.governor?.notATurn(this.opts.tally);
  }

  /** One of the agent's task slots for a turn (none for other requests, or when the client overflows). */
  private holdTask(turn: boolean): Promise<() => void> {
    const g = this.opts.governor;
    if (!turn || g === undefined || this.opts.overflowTasks === true) return Promise.resolve(() => undefined);
    return g.holdTask({ tally: this.opts.tally, signal: this.opts.signal });
  }

  private forget(ex: Exchange | undefined): void {
    const i = ex === undefined ? -1 : this.log.indexOf(ex);
    if (i >= 0) this.log.splice(i, 1);
  }

  private rpcSpec(method: string, params: unknown, opts: RpcOptions, accept: string): RequestSpec {
    // The harness's headers (media types, codings, credentials) and the check's overrides win over the extra ones.
    const base = {
      ...this.extraHeaders,
      'content-type': 'application/json',
      accept,
      // C-56: the codings the harness decodes, so an agent never answers in one it cannot read.
      'accept-encoding': ACCEPT_ENCODING,
      ...credentialHeaders(this.opts.auth),
    };
    const spec: RequestSpec = {
      url: joinUrl(this.baseUrl, opts.path ?? this.agentPath(opts.agentId)),
      method: opts.httpMethod ?? 'POST',
      headers: mergeHeaders(base, opts.headers),
    };
    if (opts.rawBody !== undefined) {
      spec.body = opts.rawBody;
    } else {
      spec.envelope = buildEnvelope(method, params, opts);
      spec.body = JSON.stringify(spec.envelope);
    }
    return spec;
  }

  private record(spec: RequestSpec, kind: Exchange['kind']): Exchange {
    this.seq += 1;
    const ex: Exchange = {
      id: `ex-${this.seq}`,
      kind,
      request: recordRequest(spec, this.secretList, this.recordChars),
      timings: { startedAt: new Date().toISOString(), totalMs: 0 },
    };
    this.log.push(ex);
    if (this.log.length > this.maxExchanges) {
      this.log.shift();
      this.dropped += 1;
    }
    return ex;
  }

  private send(spec: RequestSpec, timeoutMs: number): Promise<Exchange> {
    return sendExchange(this.wire, spec, timeoutMs, this.record(spec, 'http'));
  }
}

/**
 * The promise, marked handled: a governor's refusal (rate budget spent, rate limited) of a request a
 * check started without awaiting it must not surface as an unhandled rejection of the whole run.
 * Whoever awaits it still gets the rejection.
 */
export function settled<T>(p: Promise<T>): Promise<T> {
  p.catch(() => undefined);
  return p;
}

export function createTargetClient(opts: TargetClientOptions): TargetClient {
  return new Client(opts);
}
