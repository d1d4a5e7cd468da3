// Raw HTTP/1.1 over a TCP socket for the connection-limit tests (C-47): requests no client library
// would send (malformed, oversized, trickled), and the exact response bytes read until the close.
import net from 'node:net';

export interface RawExchange {
  /** 0 when the server closed without answering. */
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Milliseconds from the first byte sent to the server closing the connection. */
  closedAfterMs: number;
}

export interface RawOptions {
  /** Written after `head`, one piece every `intervalMs` until the server closes. */
  trickle?: { piece: string; intervalMs: number };
  /** Give up (and fail the test) after this long. */
  timeoutMs?: number;
}

function parse(raw: Buffer): Omit<RawExchange, 'closedAfterMs'> {
  const text = raw.toString('latin1');
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) return { status: 0, headers: {}, body: text };
  const [statusLine = '', ...lines] = text.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1] ?? 0);
  return {
    status,
    headers,
    body: raw.subarray(Buffer.byteLength(text.slice(0, end + 4), 'latin1')).toString('utf8'),
  };
}

/** Sends `head` (and the trickle) to `baseUrl`'s host and reads everything until the server closes. */
export function rawExchange(
  baseUrl: string,
  head: string | Buffer,
  options: RawOptions = {},
): Promise<RawExchange> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const started = Date.now();
    const socket = net.connect(Number(port), hostname, () => {
      socket.write(head);
      if (options.trickle === undefined) return;
      const { piece, intervalMs } = options.trickle;
      const timer = setInterval(() => {
        if (socket.writable) socket.write(piece);
      }, intervalMs);
      socket.once('close', () => clearInterval(timer));
    });
    const guard = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no close within ${options.timeoutMs ?? 15_000} ms`));
    }, options.timeoutMs ?? 15_000);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    // A reset after the answer (the server cuts a client still sending) is still an answer.
    socket.on('error', () => undefined);
    socket.once('close', () => {
      clearTimeout(guard);
      resolve({ ...parse(Buffer.concat(chunks)), closedAfterMs: Date.now() - started });
    });
  });
}
