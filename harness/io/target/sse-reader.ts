// Opens a streaming JSON-RPC request (message/stream, tasks/resubscribe: spec 4.2, 4.5) and records
// its SSE framing while it is open (C-31), or the plain JSON answer of an error raised before the
// stream started (C-26, C-09). Budgets bound every wait, so no stream can hang a conformance run.
import { performance } from 'node:perf_hooks';
import { request, type Dispatcher } from 'undici';
import { decodedBody, decodeUtf8, mediaType, parseJson } from './body-reader.ts';
import type { IoError, SseEvent, StreamBudget, StreamTranscript } from '../../../core/evidence.ts';
import { countSecrets, safeCut } from '../../../core/redaction.ts';
import { answerFault, classifyError } from './faults.ts';
import { TranscriptBuilder } from './sse-transcript.ts';

export interface SseBudgets {
  /** From request start until the first event (comments do not count). Default 10000. */
  firstEventMs?: number;
  /** Longest silence (no bytes at all, pings included) once headers arrived. Default 20000. */
  idleMs?: number;
  /** From request start until the stream ends, whatever happens. Default 60000. */
  totalMs?: number;
  /** Bytes received before the reader gives up. Default 8 MiB. */
  maxBytes?: number;
}

export interface SseOptions extends SseBudgets {
  /** Close as soon as the final event arrived. Default false: wait afterFinalMs for stray bytes. */
  closeOnFinal?: boolean;
  /** How long to keep reading after the final event when the server does not close. Default 300. */
  afterFinalMs?: number;
  /** Characters of raw stream text kept in the transcript. Default 256 KiB. */
  recordChars?: number;
}

export interface SseRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string | Buffer;
}

export interface SseStream {
  /** The transcript as it grows; final once `done` resolves. */
  readonly transcript: StreamTranscript;
  /** Resolves (never rejects) when the stream ended, for whatever reason. */
  readonly done: Promise<StreamTranscript>;
  /** Yields every event from the first one, waiting for new ones until the stream ends. */
  events(): AsyncIterableIterator<SseEvent>;
  /** Closes the stream from the client side; resolves with the transcript. */
  close(): Promise<StreamTranscript>;
}

export const SSE_DEFAULTS: Required<SseOptions> = {
  firstEventMs: 10_000,
  idleMs: 20_000,
  totalMs: 60_000,
  maxBytes: 8 * 1024 * 1024,
  closeOnFinal: false,
  // Long enough to catch a stray event written right after the final one on loopback, short enough
  // not to slow a run that opens hundreds of streams.
  afterFinalMs: 300,
  recordChars: 256 * 1024,
};

// Extra raw text kept beyond the cap until the stream ends, so the cut can move before a secret that
// straddles the cap (safeCut) instead of keeping a prefix of it that redaction would not recognize.
const REDACTION_SLACK = 1024;

class StreamRun implements SseStream {
  readonly done: Promise<StreamTranscript>;
  readonly transcript: StreamTranscript;
  private readonly o: Required<SseOptions>;
  private readonly t0 = performance.now();
  private readonly controller = new AbortController();
  private readonly builder: TranscriptBuilder;
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly strict = new TextDecoder('utf-8', { fatal: true });
  private readonly lenient = new TextDecoder('utf-8');
  private strictOk = true;
  private finished = false;
  private jsonChunks: Buffer[] | null = null;
  private raw = '';
  private rawCapped = false;
  private waiters: Array<() => void> = [];
  private resolveDone: (t: StreamTranscript) => void = () => undefined;

  constructor(
    private readonly dispatcher: Dispatcher,
    private readonly req: SseRequest,
    exchangeId: string,
    private readonly secrets: () => readonly string[],
    options: SseOptions,
  ) {
    this.o = sseOptions(options);
    this.builder = new TranscriptBuilder(exchangeId, () => {
      this.clearTimer('first');
      this.notify();
    });
    this.transcript = this.builder.t;
    this.done = new Promise((resolve) => (this.resolveDone = resolve));
  }

  async start(): Promise<void> {
    this.arm('total', this.o.totalMs, () => this.stop('budget', 'total'));
    this.arm('first', this.o.firstEventMs, () => this.stop('budget', 'first-event'));
    let res: Dispatcher.ResponseData;
    try {
      res = await request(this.req.url, {
        dispatcher: this.dispatcher,
        method: this.req.method as Dispatcher.HttpMethod,
        headers: this.req.headers,
        body: this.req.body ?? null,
        signal: this.controller.signal,
        // The harness's own timers are authoritative; undici's are backstops or disabled.
        headersTimeout: this.o.totalMs + 1000,
        bodyTimeout: 0,
      });
    } catch (err) {
      this.finish('error', classifyError(err, false));
      return;
    }
    if (this.finished) {
      res.body.destroy();
      return;
    }
    this.onHeaders(res);
    void this.pump(decodedBody(res.headers['content-encoding'], res.body));
  }

  async *events(): AsyncIterableIterator<SseEvent> {
    let i = 0;
    for (;;) {
      const ev = this.transcript.events[i];
      if (ev !== undefined) {
        i += 1;
        yield ev;
      } else if (this.finished) {
        return;
      } else {
        await new Promise<void>((resolve) => this.waiters.push(resolve));
      }
    }
  }

  close(): Promise<StreamTranscript> {
    this.stop('client');
    return this.done;
  }

  private now(): number {
    return Math.round((performance.now() - this.t0) * 10) / 10;
  }

  private onHeaders(res: Dispatcher.ResponseData): void {
    const t = this.transcript;
    t.status = res.statusCode;
    t.headers = { ...(res.headers as Record<string, string | string[]>) };
    const ct = res.headers['content-type'];
    if (ct !== undefined) t.contentType = Array.isArray(ct) ? ct.join(', ') : ct;
    const media = mediaType(ct);
    t.isEventStream = media === 'text/event-stream';
    t.headersMs = this.now();
    if (media === 'application/json') {
      this.jsonChunks = [];
      this.clearTimer('first');
    }
    this.arm('idle', this.o.idleMs, () => this.stop('budget', 'idle'));
  }

  private async pump(body: AsyncIterable<Uint8Array>): Promise<void> {
    try {
      for await (const raw of body) {
        if (this.finished) break;
        this.onChunk(Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength));
        if (this.finished) break;
      }
      this.finish('server');
    } catch (err) {
      this.finish('error', classifyError(err, false));
    }
  }

  private onChunk(chunk: Buffer): void {
    const t = this.transcript;
    if (t.bytes + chunk.length > this.o.maxBytes) {
      this.stop('budget', 'bytes');
      return;
    }
    t.bytes += chunk.length;
    this.arm('idle', this.o.idleMs, () => this.stop('budget', 'idle'));
    const text = this.decode(chunk);
    if (this.raw.length < this.o.recordChars + REDACTION_SLACK) this.raw += text;
    else this.rawCapped = true;
    if (this.jsonChunks !== null) this.jsonChunks.push(chunk);
    else this.builder.feed(text, this.now());
    if (t.finalIndex === null) return;
    if (this.o.closeOnFinal) this.stop('client');
    else if (!this.timers.has('afterFinal'))
      this.arm('afterFinal', this.o.afterFinalMs, () => this.stop('client'));
  }

  private decode(chunk: Buffer): string {
    if (this.strictOk) {
      try {
        this.strict.decode(chunk, { stream: true });
      } catch {
        this.strictOk = false;
      }
    }
    return this.lenient.decode(chunk, { stream: true });
  }

  private stop(closedBy: 'budget' | 'client', budget?: StreamBudget): void {
    if (this.finished) return;
    if (budget !== undefined) this.transcript.budgetExceeded = budget;
    this.finish(closedBy);
    this.controller.abort();
  }

  private finish(closedBy: StreamTranscript['closedBy'], error?: IoError): void {
    if (this.finished) return;
    this.finished = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    const t = this.transcript;
    t.closedBy = closedBy;
    t.closedByServer = closedBy === 'server';
    t.closedAtMs = this.now();
    if (error !== undefined) t.error = error;
    if (this.jsonChunks !== null) this.finishJson(this.jsonChunks);
    else this.builder.end();
    // A complete answer that is not the agent's (a gateway's 503, a throttle's 429, an error page).
    if (
      t.error === undefined &&
      t.status !== undefined &&
      t.isEventStream !== true &&
      closedBy === 'server'
    ) {
      const fault = answerFault(t.status, t.headers ?? {}, t.json);
      if (fault !== undefined) t.error = fault;
    }
    t.invalidUtf8 = !this.strictOk;
    t.redactions = countSecrets(this.raw, t.headers ?? {}, this.secrets());
    t.rawTruncated = this.rawCapped || this.raw.length > this.o.recordChars;
    t.raw = this.raw.slice(0, safeCut(this.raw, this.o.recordChars, this.secrets()));
    this.resolveDone(t);
    this.notify();
  }

  private finishJson(chunks: Buffer[]): void {
    const t = this.transcript;
    const { text, invalidUtf8 } = decodeUtf8(Buffer.concat(chunks));
    if (invalidUtf8) this.strictOk = false;
    const parsed = invalidUtf8 ? { parseError: 'body is not valid UTF-8' } : parseJson(text);
    if (parsed.json !== undefined) t.json = parsed.json;
    if (parsed.parseError !== undefined) t.parseError = parsed.parseError;
  }

  private arm(name: string, ms: number, fire: () => void): void {
    this.clearTimer(name);
    this.timers.set(name, setTimeout(fire, ms));
  }

  private clearTimer(name: string): void {
    const timer = this.timers.get(name);
    if (timer !== undefined) clearTimeout(timer);
    this.timers.delete(name);
  }

  private notify(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}

/** The SSE options among `o` (which may be a whole StreamOptions), defaults filled in. */
function sseOptions(o: SseOptions): Required<SseOptions> {
  const out: Record<string, unknown> = { ...SSE_DEFAULTS };
  for (const key of Object.keys(SSE_DEFAULTS) as Array<keyof SseOptions>) {
    if (o[key] !== undefined) out[key] = o[key];
  }
  return out as Required<SseOptions>;
}

/**
 * Sends `req` and resolves once the response headers arrived (or the attempt failed or ran out of
 * budget, in which case `done` is already settled). Never rejects.
 */
export async function openSseStream(
  dispatcher: Dispatcher,
  req: SseRequest,
  exchangeId: string,
  secrets: () => readonly string[],
  options: SseOptions = {},
): Promise<SseStream> {
  const run = new StreamRun(dispatcher, req, exchangeId, secrets, options);
  await run.start();
  return run;
}
