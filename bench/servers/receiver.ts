// A webhook receiver for the benchmark (spec 6.2-6.5), in its own process. `/ok/*` verifies the
// HMAC-SHA256 signature (6.4) and answers 204; `/fail/*` records the attempt and answers 500, so the
// sender retries on its schedule (2.11 retryPolicy). IPC `stats` returns the counts and arrival times.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serveChild } from './ipc.ts';

const secret = process.argv[2] ?? '';
let signed = 0;
let badSignature = 0;
let firstMs = Number.NaN;
let lastMs = Number.NaN;
/** Arrival times (performance.now) of each attempt on /fail, per X-Webhook-Delivery. */
const attempts = new Map<string, number[]>();

function signatureOk(body: Buffer, header: string | undefined): boolean {
  if (header === undefined) return false;
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(body).digest('hex')}`);
  const given = Buffer.from(header);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const server = createServer((req, res) => {
  const arrived = performance.now();
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    if (req.url?.startsWith('/fail/')) {
      const id = String(req.headers['x-webhook-delivery']);
      attempts.set(id, [...(attempts.get(id) ?? []), arrived]);
      res.writeHead(500).end();
      return;
    }
    if (signatureOk(Buffer.concat(chunks), req.headers['x-webhook-signature'] as string | undefined)) {
      signed += 1;
      if (Number.isNaN(firstMs)) firstMs = arrived;
      lastMs = arrived;
    } else {
      badSignature += 1;
    }
    res.writeHead(204).end();
  });
});

server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  serveChild(
    { url: `http://127.0.0.1:${port}` },
    { stats: () => ({ signed, badSignature, firstMs, lastMs, attempts: [...attempts.values()] }) },
    async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  );
});
