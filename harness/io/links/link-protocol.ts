// The one protocol between the harness's processes (the runner and the suites' workers): the worker
// link (governor, suite-file lock) and the webhook link (the run's receiver) are calls of it. Every
// message is declared in schemas/link.schema.json (types generated from it) and validated by ajv where
// it is received. A call is a POST to /{name}; its answer is `{ answer, state? }`, or for a held call
// NDJSON lines of that form for as long as the grant lasts (the client closes it to let go).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { request, type Agent, type Dispatcher } from 'undici';
import { setTimeout as sleep } from 'node:timers/promises';
import type { LinkCalls, LinkState } from '../../../schemas/generated/types.ts';
import { loadSchema, validatePart } from '../../../schemas/registry.ts';
import { linkAgent, linkServer, listen, readBody, sendJson } from '../../kit/loopback.ts';
import { readCapped, type BodyAccumulator } from '../target/body-reader.ts';

export type { LinkState };
export type LinkCallName = keyof LinkCalls;
export type RequestOf<K extends LinkCallName> = LinkCalls[K]['request'];
export type AnswerOf<K extends LinkCallName> = LinkCalls[K]['answer'];

/** Every call of the link, in the schema's order. */
export const LINK_CALL_NAMES = loadSchema('link').required as readonly LinkCallName[];

/** The calls whose answer stays open while the grant lasts (a task slot, the webhook stream). */
export const HELD_CALLS = ['holdTask', 'webhookStream'] as const satisfies readonly LinkCallName[];
export type HeldName = (typeof HELD_CALLS)[number];
export type PlainName = Exclude<LinkCallName, HeldName>;
const HELD: ReadonlySet<string> = new Set(HELD_CALLS);

// Why a cap: a link message holds at most one webhook delivery, whose body the receiver caps at
// 1 MiB (its Base64, decoded text and parsed JSON beside it stay well under 16 MiB). Past that the
// peer is broken: its message is refused with a clear error rather than buffered.
export const LINK_MESSAGE_BYTES = 16 * 1024 * 1024;

/** A call the link could not make: an unknown name, a message unlike its schema, or too large. */
export class LinkError extends Error {
  constructor(message: string) {
    super(`link: ${message}`);
    this.name = 'LinkError';
  }
}

// Ajv's words where they name the property twice ("bypass: must have required property 'bypass'").
const KEYWORD_TEXT: Record<string, string> = {
  required: 'is missing',
  additionalProperties: 'is not a field of it',
};

/** `value` when it conforms to the part `pointer` of link.schema.json; else a LinkError saying why. */
function checked<T>(pointer: string, value: unknown, what: string): T {
  const result = validatePart('link', pointer, value);
  if (result.valid) return value as T;
  const why = result.errors.map((i) => {
    const message = KEYWORD_TEXT[i.keyword] ?? i.message;
    return i.path === '' ? message : `${i.path}: ${message}`;
  });
  throw new LinkError(`${what}: ${why.join('; ')}`);
}

function parsed(text: string, what: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new LinkError(`${what} is not JSON`);
  }
}

/**
 * A held answer's later line, encoded once to be written to many held answers (the webhook stream's
 * workers each get every delivery): one copy of its bytes however many clients it goes to. It carries
 * no runner state (an answer's state is optional; the link's other lines carry it).
 */
export class EncodedLine<A> {
  readonly bytes: Buffer;

  constructor(answer: A) {
    // Written into its bytes as is: `${json}\n` would be flattened into a second copy of a large line.
    const json = JSON.stringify({ answer });
    this.bytes = Buffer.allocUnsafe(Buffer.byteLength(json) + 1);
    this.bytes[this.bytes.write(json)] = 0x0a;
  }
}

/** A call's answer, and what to give back when it never reaches the client (or, held, when the client lets go). */
export interface Granted<A> {
  answer: A;
  giveBack?: () => void;
  /** A held call's later lines: called once the first is sent; returns what stops them. */
  follow?: (send: (answer: A | EncodedLine<A>) => void, flow: HeldFlow) => () => void;
}

/** How far a held answer's client is behind: what `send` wrote that it has not read yet. */
export interface HeldFlow {
  /** Bytes written and not yet taken by the client (the answer's write buffer). */
  backlogBytes(): number;
  /** Called each time the client has taken the backlog. */
  onDrain(fn: () => void): void;
}

/** The server's side of a call; the signal aborts when the client gives up waiting. */
export type LinkHandler<K extends LinkCallName> = (
  body: RequestOf<K>,
  signal: AbortSignal,
) => Granted<AnswerOf<K>> | Promise<Granted<AnswerOf<K>>>;
export type LinkHandlers<N extends LinkCallName> = { [K in N]: LinkHandler<K> };

export interface LinkServer {
  url: string;
  close(): Promise<void>;
}

function refuse(res: ServerResponse, status: number, e: Error): void {
  sendJson(res, status, { error: { name: e.name, message: e.message } });
}

/** Serves `handlers` on 127.0.0.1:0; `state` (the runner's figures) joins every answer when given. */
export async function serveLink<N extends LinkCallName>(
  handlers: LinkHandlers<N>,
  state?: () => LinkState,
): Promise<LinkServer> {
  const line = (answer: unknown): object => ({ answer, ...(state === undefined ? {} : { state: state() }) });
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const name = (req.url ?? '').slice(1);
    const bytes = await readBody(req, { limit: LINK_MESSAGE_BYTES + 1, over: 'keep' });
    const handler = Object.hasOwn(handlers, name)
      ? (handlers[name as N] as (b: unknown, s: AbortSignal) => Granted<unknown> | Promise<Granted<unknown>>)
      : undefined;
    if (req.method !== 'POST' || handler === undefined) {
      const calls = Object.keys(handlers).join(', ');
      return refuse(
        res,
        404,
        new LinkError(`no call ${req.method ?? ''} ${req.url ?? ''} (POST /name: ${calls})`),
      );
    }
    let body: unknown;
    try {
      if (bytes.length > LINK_MESSAGE_BYTES) {
        throw new LinkError(`${name} request is over ${LINK_MESSAGE_BYTES} bytes`);
      }
      const what = `${name} request`;
      body = checked(`/$defs/${name}/properties/request`, parsed(bytes.toString('utf8'), what), what);
    } catch (e) {
      return refuse(res, 400, e as Error);
    }
    const aborted = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) aborted.abort(new Error('the client gave up waiting'));
    });
    let granted: Granted<unknown>;
    try {
      granted = await handler(body, aborted.signal);
    } catch (e) {
      return refuse(res, 409, e as Error);
    }
    if (res.destroyed) return granted.giveBack?.();
    if (!HELD.has(name)) return sendJson(res, 200, line(granted.answer));
    // Held while this answer stays open: the client closes it to let go.
    if (granted.giveBack !== undefined) res.on('close', granted.giveBack);
    res.writeHead(200, { 'content-type': 'application/x-ndjson' });
    const send = (answer: unknown): void =>
      void res.write(answer instanceof EncodedLine ? answer.bytes : `${JSON.stringify(line(answer))}\n`);
    send(granted.answer);
    const stop = granted.follow?.(send, {
      backlogBytes: () => res.writableLength,
      onDrain: (fn) => res.on('drain', fn),
    });
    if (stop !== undefined) res.on('close', stop);
  };
  const { baseUrl, close } = await listen(
    linkServer((req, res) => void handle(req, res).catch(() => res.destroy())),
  );
  return { url: baseUrl, close };
}

/** An answer as the client reads it. */
export interface Answer<K extends LinkCallName> {
  answer: AnswerOf<K>;
  state?: LinkState;
}

export interface LinkClientOptions {
  /** The refusals rebuilt with their own class (matched by name); others become a plain Error. */
  refusals?: Iterable<{ name: string; prototype: Error }>;
}

export interface HoldOptions<K extends LinkCallName> {
  signal?: AbortSignal;
  /** The held answer's later lines. */
  onMore?: (answer: Answer<K>) => void;
  /** The held answer ended (let go, the server closed, or a line unlike its schema). */
  onEnd?: (error?: Error) => void;
}

// Attempts of a call that must reach the server (callUntilAnswered): 50 ms doubling, ~6 s in all.
const UNTIL_ANSWERED_ATTEMPTS = 7;

/** A client of the link: the calls of link.schema.json, typed and checked by it. */
export class LinkClient {
  private readonly calls = linkAgent({ connections: 64 });
  // Held calls are open requests: on their own connections, never in the way of the others, and
  // never timed out (they last as long as their grant).
  private readonly holds = linkAgent({ bodyTimeout: 0 });
  private readonly refusals: Map<string, { prototype: Error }>;

  constructor(
    readonly url: string,
    opts: LinkClientOptions = {},
  ) {
    this.refusals = new Map([...(opts.refusals ?? []), LinkError].map((c) => [c.name, c]));
  }

  async call<K extends PlainName>(name: K, body: RequestOf<K>, signal?: AbortSignal): Promise<Answer<K>> {
    const res = await this.post(name, body, this.calls, signal);
    const json = parsed(await cappedText(res.body), `${name} answer`);
    if (res.statusCode !== 200) this.refused(name, res.statusCode, json);
    return answerOf(name, json);
  }

  /**
   * A call whose loss would leak a grant (a lease never released holds one of the run's request
   * slots for good: enough of them and every admit waits forever). The server's handling of it is
   * idempotent, so it is sent again, a few times over a few seconds, until answered.
   */
  async callUntilAnswered<K extends PlainName>(name: K, body: RequestOf<K>): Promise<void> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        await this.call(name, body);
        return;
      } catch {
        if (attempt >= UNTIL_ANSWERED_ATTEMPTS) return;
        await sleep(50 * 2 ** attempt);
      }
    }
  }

  /** A held call: its first answer, and the function that lets go of the grant (closes the request). */
  async hold<K extends HeldName>(
    name: K,
    body: RequestOf<K>,
    opts: HoldOptions<K> = {},
  ): Promise<Answer<K> & { release: () => void }> {
    const res = await this.post(name, body, this.holds, opts.signal);
    // The caller's abort also ends the request, and with it the hold.
    res.body.on('error', () => undefined);
    if (res.statusCode !== 200) {
      this.refused(name, res.statusCode, parsed(await cappedText(res.body), `${name} answer`));
    }
    const release = (): void => void res.body.destroy();
    return new Promise((resolve, reject) => {
      let first = true;
      heldLines(res.body, {
        line: (text) => {
          const answer = answerOf(name, parsed(text, `${name} answer`));
          if (!first) return opts.onMore?.(answer);
          first = false;
          resolve({ ...answer, release });
        },
        end: (error) => {
          release();
          if (first) reject(error ?? new LinkError(`${name}: a held answer ended before its grant`));
          else opts.onEnd?.(error);
        },
      });
    });
  }

  async close(): Promise<void> {
    await Promise.all([this.calls.close(), this.holds.close()]).catch(() => undefined);
  }

  private post(name: LinkCallName, body: unknown, dispatcher: Agent, signal: AbortSignal | undefined) {
    return request(`${this.url}/${name}`, {
      dispatcher,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      ...(signal === undefined ? {} : { signal }),
    });
  }

  /** Throws the server's refusal of a call, rebuilt with its own class. */
  private refused(name: LinkCallName, status: number, json: unknown): never {
    const { error } = checked<{ error: { name: string; message: string } }>(
      '/$defs/refusal',
      json,
      `${name}: HTTP ${status} without a refusal`,
    );
    const refusal = this.refusals.get(error.name);
    if (refusal === undefined) throw new Error(error.message);
    const e = Object.create(refusal.prototype) as Error;
    Error.captureStackTrace(e, this.refused);
    e.name = error.name;
    e.message = error.message;
    throw e;
  }
}

function answerOf<K extends LinkCallName>(name: K, json: unknown): Answer<K> {
  const what = `${name} answer`;
  const answered = checked<Answer<K>>('/$defs/answered', json, what);
  checked(`/$defs/${name}/properties/answer`, answered.answer, what);
  return answered;
}

async function cappedText(body: Dispatcher.ResponseData['body']): Promise<string> {
  const acc: BodyAccumulator = { chunks: [], bytes: 0 };
  try {
    await readCapped(body, acc, LINK_MESSAGE_BYTES);
  } catch {
    throw new LinkError(`an answer over ${LINK_MESSAGE_BYTES} bytes`);
  }
  return Buffer.concat(acc.chunks).toString('utf8');
}

/** Splits a held answer into its lines (each capped), until it ends or a line is refused. */
function heldLines(
  body: NodeJS.ReadableStream,
  on: { line: (text: string) => void; end: (error?: Error) => void },
): void {
  let rest = '';
  let ended = false;
  const end = (error?: Error): void => {
    if (ended) return;
    ended = true;
    body.removeAllListeners('data');
    on.end(error);
  };
  body.on('data', (chunk: Buffer) => {
    rest += chunk.toString('utf8');
    try {
      for (let nl = rest.indexOf('\n'); nl !== -1 && !ended; nl = rest.indexOf('\n')) {
        const text = rest.slice(0, nl);
        rest = rest.slice(nl + 1);
        if (text.trim() !== '') on.line(text);
      }
      if (rest.length > LINK_MESSAGE_BYTES) throw new LinkError(`a line over ${LINK_MESSAGE_BYTES} bytes`);
    } catch (e) {
      end(e as Error);
    }
  });
  body.on('end', () => end());
  body.on('error', (e: Error) => end(e));
  body.on('close', () => end());
}
