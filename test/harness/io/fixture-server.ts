// Loopback fixture servers for the io-layer tests: a node:http server on 127.0.0.1, port 0, whose
// handler each test writes to misbehave in one precise way. close() also ends hung connections.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export interface Fixture {
  url: string;
  seen: SeenRequest[];
  close(): Promise<void>;
}

export type Handler = (req: IncomingMessage, res: ServerResponse, body: Buffer) => void;

export async function startFixture(handler: Handler): Promise<Fixture> {
  const seen: SeenRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: { ...req.headers }, body });
      handler(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}

/** Writes `chunks` one after another, `gapMs` apart, then calls `after` (unless the socket closed). */
export function writeSlowly(
  res: ServerResponse,
  chunks: Array<string | Buffer>,
  gapMs: number,
  after?: () => void,
): void {
  let i = 0;
  const step = (): void => {
    if (res.destroyed) return;
    const chunk = chunks[i];
    if (chunk === undefined) {
      after?.();
      return;
    }
    i += 1;
    res.write(chunk);
    setTimeout(step, gapMs);
  };
  step();
}

/** Writes `chunk` every `everyMs` until the client goes away. */
export function writeForever(res: ServerResponse, chunk: string, everyMs: number): void {
  const timer = setInterval(() => {
    if (res.destroyed || res.socket?.destroyed === true) clearInterval(timer);
    else res.write(chunk);
  }, everyMs);
  res.on('close', () => clearInterval(timer));
}
