// Deliberately broken webhook receivers, each breaking one receiver requirement of the ledger and
// named for it like the mutants (`<requirement>--<what is broken>`), over one correct receiver
// core (the rules of C-70 to C-73). In-process node:http servers on 127.0.0.1:0.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  body: Buffer;
  json: Record<string, unknown> & { delivery?: { attempt?: number } };
}

/** A status to answer (after an optional delay), or a connection reset, or no answer at all. */
export type Answer = { status: number; delayMs?: number } | 'reset' | 'hang';

export interface ReceiverState {
  secret: string;
  /** Delivery ids acknowledged so far, with the bytes of their first delivery. */
  seen: Map<string, Buffer>;
}

export type Handler = (d: Received, state: ReceiverState) => Answer;

const hmacHex = (secret: string, bytes: Buffer | string): string =>
  createHmac('sha256', secret).update(bytes).digest('hex');

function sameHex(a: string, b: string): boolean {
  const x = Buffer.from(a.toLowerCase());
  const y = Buffer.from(b.toLowerCase());
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Spec 6.4 as C-70 reads it: exactly `sha256=` + the hex HMAC of the bytes received. */
export function signedCorrectly(secret: string, body: Buffer, header: unknown): boolean {
  if (typeof header !== 'string' || !/^sha256=[0-9a-fA-F]{64}$/.test(header)) return false;
  return sameHex(header.slice(7), hmacHex(secret, body));
}

const ACK: Answer = { status: 200 };
const REFUSE: Answer = { status: 401 };

/** The correct receiver: verify, then acknowledge (a repeat too). */
export const correct: Handler = (d, state) => {
  if (!signedCorrectly(state.secret, d.body, d.headers['x-webhook-signature'])) return REFUSE;
  state.seen.set(String(d.headers['x-webhook-delivery']), d.body);
  return ACK;
};

/** Acknowledges a correctly signed delivery unless `refuse` says otherwise. */
const correctUnless =
  (refuse: (d: Received, state: ReceiverState) => Answer | undefined): Handler =>
  (d, state) =>
    correct(d, state) === ACK ? (refuse(d, state) ?? ACK) : REFUSE;

/** Verifies with another signature rule, acknowledging what that rule accepts. */
const verifyingWith =
  (accepts: (d: Received, secret: string) => boolean): Handler =>
  (d, state) =>
    accepts(d, state.secret) ? ACK : REFUSE;

const KNOWN_MEMBERS = new Set(['event', 'timestamp', 'agentId', 'taskId', 'data', 'delivery']);
const event = (d: Received): unknown => d.headers['x-webhook-event'];
const header = (d: Received): string => String(d.headers['x-webhook-signature'] ?? '');

export interface BrokenReceiver {
  breaks: string;
  slug: string;
  handler: Handler;
  /** The delivery deadline the test gives the harness (default 5000 ms). */
  timeoutMs?: number;
}

export const BROKEN_RECEIVERS: readonly BrokenReceiver[] = [
  {
    breaks: '6.1/receiver-accepts-unknown-fields',
    slug: 'strict-schema',
    handler: correctUnless((d) =>
      Object.keys(d.json).every((k) => KNOWN_MEMBERS.has(k)) ? undefined : { status: 400 },
    ),
  },
  {
    breaks: '6.4/receiver-verifies-exact-bytes',
    slug: 'reserialises-json',
    handler: verifyingWith((d, s) => sameHex(header(d).slice(7), hmacHex(s, JSON.stringify(d.json)))),
  },
  {
    breaks: '6.4/receiver-verifies-exact-bytes',
    slug: 'decodes-latin1',
    handler: verifyingWith((d, s) => sameHex(header(d).slice(7), hmacHex(s, d.body.toString('latin1')))),
  },
  {
    breaks: '6.4/receiver-rejects-tampered-body',
    slug: 'dedups-before-verifying',
    handler: (d, state) =>
      state.seen.has(String(d.headers['x-webhook-delivery'])) ? ACK : correct(d, state),
  },
  {
    breaks: '6.4/receiver-rejects-wrong-secret',
    slug: 'checks-format-only',
    handler: verifyingWith((d) => /^sha256=[0-9a-f]{64}$/.test(header(d))),
  },
  {
    breaks: '6.4/receiver-rejects-malformed-signature',
    slug: 'strips-any-prefix',
    handler: verifyingWith((d, s) => {
      const hex = header(d).replace(/^[a-z0-9]+=/, '');
      return hex.length >= 32 && hmacHex(s, d.body).startsWith(hex.toLowerCase().slice(0, 64));
    }),
  },
  {
    breaks: '6.4/receiver-rejects-missing-signature',
    slug: 'signature-optional',
    handler: (d, state) => (d.headers['x-webhook-signature'] === undefined ? ACK : correct(d, state)),
  },
  {
    breaks: '6.5/receiver-acknowledges-events',
    slug: 'refuses-task-working',
    handler: correctUnless((d) => (event(d) === 'task.working' ? { status: 400 } : undefined)),
  },
  {
    breaks: '6.5/receiver-acknowledges-events',
    slug: 'resets-on-task-canceled',
    handler: (d, state) => (event(d) === 'task.canceled' ? 'reset' : correct(d, state)),
  },
  {
    breaks: '6.5/receiver-acknowledges-events',
    slug: 'hangs-on-task-submitted',
    // Each hung delivery costs a whole deadline: keep it short.
    timeoutMs: 2000,
    handler: (d, state) => (event(d) === 'task.submitted' ? 'hang' : correct(d, state)),
  },
  {
    breaks: '6.5/receiver-answers-within-5s',
    slug: 'answers-task-canceled-after-6s',
    // A late answer is still an acknowledgement when it comes within the delivery deadline.
    timeoutMs: 8000,
    handler: correctUnless((d) =>
      event(d) === 'task.canceled' ? { status: 200, delayMs: 6000 } : undefined,
    ),
  },
  {
    breaks: '6.5/receiver-acknowledges-duplicate',
    slug: 'answers-409',
    handler: (d, state) => {
      const before = state.seen.get(String(d.headers['x-webhook-delivery']));
      return before?.equals(d.body) ? { status: 409 } : correct(d, state);
    },
  },
  {
    breaks: '6.5/receiver-acknowledges-retry',
    slug: 'refuses-attempt-2',
    handler: correctUnless((d) => ((d.json.delivery?.attempt ?? 1) > 1 ? { status: 400 } : undefined)),
  },
];

/** Legal receivers: other statuses and other ways to refuse (C-70, C-72); each must pass everything. */
export const LEGAL_RECEIVERS: ReadonlyArray<{ slug: string; handler: Handler }> = [
  {
    slug: 'acknowledges-with-202-and-204',
    handler: (d, s) =>
      correct(d, s) === ACK ? { status: event(d) === 'task.completed' ? 202 : 204 } : REFUSE,
  },
  { slug: 'refuses-with-403', handler: (d, s) => (correct(d, s) === ACK ? ACK : { status: 403 }) },
  { slug: 'refuses-by-resetting', handler: (d, s) => (correct(d, s) === ACK ? ACK : 'reset') },
];

export const receiverName = (b: BrokenReceiver): string => `${b.breaks.replace(/[./]/g, '-')}--${b.slug}`;

export interface RunningReceiver {
  url: string;
  close(): Promise<void>;
}

/** Serves a handler on 127.0.0.1:0; closing drops the connections it holds (a hang included). */
export async function serveReceiver(handler: Handler, secret: string): Promise<RunningReceiver> {
  const state: ReceiverState = { secret, seen: new Map() };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      let json: Received['json'] = {};
      try {
        json = JSON.parse(body.toString('utf8')) as Received['json'];
      } catch {
        // not JSON: the handler sees an empty object
      }
      const answer = handler({ headers: req.headers, body, json }, state);
      if (answer === 'hang') return;
      if (answer === 'reset') return void req.socket.destroy();
      setTimeout(() => res.writeHead(answer.status).end(), answer.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
