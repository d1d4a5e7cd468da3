// The hostile targets the harness must survive: each is a loopback server on port 0 that answers
// the run's requests badly in one way (never, forever, too much, garbage, reset, redirected). With
// `probe: 'honest'` the target answers the probe (its card and its turn), so the suites meet the
// hostility.
import { randomUUID } from 'node:crypto';
import {
  AGENT_ID,
  honestProbe,
  pump,
  startFixture,
  type Handler,
  type HostileRequest,
  type HostileTarget,
} from './fixture-kit.ts';
import { startContentTypeProxy } from './content-type-proxy.ts';
import { startWebhookFlood } from './webhook-flood.ts';

export type ProbeMode = 'honest' | 'hostile';

export type TargetName =
  | 'silent'
  | 'trickle'
  | 'endless-sse'
  | 'huge-body'
  | 'invalid-utf8'
  | 'html'
  | 'wrong-content-type'
  | 'reset'
  | 'redirect-loop'
  | 'webhook-flood';

// Why these figures: a 100 MB body is the figure; a byte every 200 ms keeps a trickling
// response alive past any idle timer that counts silence; an SSE event every 100 ms keeps a stream
// busy without ever sending a final event.
const HUGE_BODY_BYTES = 100 * 1024 * 1024;
const TRICKLE_EVERY_MS = 200;
const SSE_EVERY_MS = 100;

type Counters = Record<string, number>;

function withProbe(mode: ProbeMode, hostile: Handler): Handler {
  if (mode === 'hostile') return hostile;
  const probe = honestProbe(AGENT_ID);
  return (r) => {
    if (!probe(r)) hostile(r);
  };
}

/** Calls `tick` every `ms` until the response closes. */
function every(r: HostileRequest, ms: number, tick: () => void): void {
  const timer = setInterval(() => {
    if (r.res.destroyed || r.res.writableEnded) clearInterval(timer);
    else tick();
  }, ms);
  r.res.once('close', () => clearInterval(timer));
}

const handlers: Record<
  Exclude<TargetName, 'wrong-content-type' | 'webhook-flood'>,
  (c: Counters) => Handler
> = {
  // Reads the request, then holds the connection for ever without a status line.
  silent: (c) => () => {
    c.held = (c.held ?? 0) + 1;
  },
  // Headers at once, then one byte every 200 ms for ever: a body that never completes.
  trickle: (c) => (r) => {
    r.res.writeHead(200, { 'content-type': 'application/json' });
    r.res.write('{"jsonrpc":"2.0",');
    every(r, TRICKLE_EVERY_MS, () => {
      r.res.write(' ');
      c.bytesSent = (c.bytesSent ?? 0) + 1;
    });
  },
  // A well-framed SSE stream of `working` status updates that never sends a final event.
  'endless-sse': (c) => (r) => {
    r.res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const taskId = randomUUID();
    let n = 0;
    every(r, SSE_EVERY_MS, () => {
      n += 1;
      const event = {
        jsonrpc: '2.0',
        id: r.id ?? null,
        result: {
          kind: 'status-update',
          taskId,
          contextId: taskId,
          status: { state: 'working', timestamp: new Date().toISOString() },
          final: false,
        },
      };
      const text = n % 5 === 0 ? ': ping\n\n' : `data: ${JSON.stringify(event)}\n\n`;
      r.res.write(text);
      c.bytesSent = (c.bytesSent ?? 0) + text.length;
    });
  },
  // 100 MB announced and sent (until the harness stops reading), JSON that never closes.
  'huge-body': (c) => (r) => {
    r.res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(HUGE_BODY_BYTES) });
    const head = Buffer.from('{"jsonrpc":"2.0","id":null,"result":{"pad":"');
    r.res.write(head);
    void pump(r.res, Buffer.alloc(64 * 1024, 'a'), HUGE_BODY_BYTES - head.length).then((sent) => {
      c.bytesSent = (c.bytesSent ?? 0) + sent + head.length;
      r.res.end();
    });
  },
  // A JSON-RPC-shaped answer whose bytes are not UTF-8 (C3 28, FF FE inside strings).
  'invalid-utf8': () => (r) => {
    const id = JSON.stringify(r.id ?? null);
    const body = Buffer.concat([
      Buffer.from(`{"jsonrpc":"2.0","id":${id},"result":{"kind":"message","text":"`),
      Buffer.from([0xc3, 0x28, 0xff, 0xfe, 0xed, 0xa0, 0x80]),
      Buffer.from('"}}'),
    ]);
    r.res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(body.length) });
    r.res.end(body);
  },
  // A login page where JSON-RPC was expected, as a misconfigured proxy would answer.
  html: () => (r) => {
    r.res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    r.res.end('<!doctype html><html><head><title>Sign in</title></head><body><form>…</form></body></html>');
  },
  // Headers and half a JSON body, then an RST (ECONNRESET on the harness side).
  reset: (c) => (r) => {
    r.res.writeHead(200, { 'content-type': 'application/json', 'content-length': '4096' });
    r.res.write('{"jsonrpc":"2.0","id":');
    setTimeout(() => {
      c.resets = (c.resets ?? 0) + 1;
      r.req.socket.resetAndDestroy();
    }, 20);
  },
  // 307 to the next of two paths, which redirect to each other: a loop for any client that follows.
  'redirect-loop': (c) => (r) => {
    c.redirects = (c.redirects ?? 0) + 1;
    const next = r.req.url?.endsWith('/loop-a') === true ? '/loop-b' : '/loop-a';
    r.res.writeHead(307, { location: `${r.req.url ?? '/'}`.replace(/\/loop-[ab]$/, '') + next });
    r.res.end();
  },
};

export async function startHostileTarget(name: TargetName, probe: ProbeMode): Promise<HostileTarget> {
  if (name === 'wrong-content-type') return startContentTypeProxy();
  if (name === 'webhook-flood') return startWebhookFlood();
  const counters: Counters = {};
  return startFixture(withProbe(probe, handlers[name](counters)), { stats: () => counters });
}
