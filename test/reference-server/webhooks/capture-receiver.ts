// A webhook capture receiver for the webhook service tests: records raw bodies and headers on
// 127.0.0.1 (port 0) and answers each request per a plan (2xx, an error status, hang, reset, redirect).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';

export type Reply =
  | { kind: 'status'; status: number; location?: string; delayMs?: number }
  | { kind: 'hang' }
  | { kind: 'reset' };

export interface Captured {
  index: number;
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** performance.now() when the full body had arrived, and when the reply was sent. */
  receivedAt: number;
  respondedAt: number | undefined;
  json(): Record<string, unknown>;
}

export interface CaptureReceiver {
  /** Base URL, e.g. http://127.0.0.1:41234 */
  origin: string;
  port: number;
  requests: Captured[];
  /** Decides the reply to the request with this 0-based index; default 200. */
  plan: (request: Captured) => Reply;
  waitForRequests(count: number, timeoutMs?: number): Promise<Captured[]>;
  close(): Promise<void>;
}

export const ok = (status = 200): Reply => ({ kind: 'status', status });
/** The first `n` requests get `status`, later ones 200. */
export const failFirst =
  (n: number, status = 500) =>
  (request: Captured): Reply =>
    request.index < n ? { kind: 'status', status } : ok();

export async function startCaptureReceiver(): Promise<CaptureReceiver> {
  const waiters = new Set<() => void>();
  const receiver = { requests: [] as Captured[], plan: (): Reply => ok() } as unknown as CaptureReceiver;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const captured: Captured = {
        index: receiver.requests.length,
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body,
        receivedAt: performance.now(),
        respondedAt: undefined,
        json: () => JSON.parse(body.toString('utf8')) as Record<string, unknown>,
      };
      receiver.requests.push(captured);
      for (const wake of waiters) wake();
      reply(receiver.plan(captured), captured, req, res);
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  receiver.port = port;
  receiver.origin = `http://127.0.0.1:${port}`;

  receiver.waitForRequests = (count, timeoutMs = 5000) =>
    new Promise((resolve, reject) => {
      const check = () => {
        if (receiver.requests.length < count) return;
        cleanup();
        resolve(receiver.requests.slice(0, count));
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(
          new Error(
            `expected ${count} webhook requests within ${timeoutMs} ms, got ${receiver.requests.length}`,
          ),
        );
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        waiters.delete(check);
      };
      waiters.add(check);
      check();
    });

  receiver.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}

function reply(plan: Reply, captured: Captured, req: http.IncomingMessage, res: http.ServerResponse): void {
  if (plan.kind === 'hang') return;
  if (plan.kind === 'reset') return void req.socket.destroy();
  const send = () => {
    captured.respondedAt = performance.now();
    if (plan.location) res.setHeader('Location', plan.location);
    res.statusCode = plan.status;
    res.end('{"received":true}');
  };
  if (plan.delayMs) setTimeout(send, plan.delayMs);
  else send();
}

/** Waits `ms` milliseconds (to show that nothing more arrives). */
