#!/usr/bin/env node
// An example A2A webhook receiver (spec 6.2 to 6.5) that passes `a2a-conformance receiver`: it
// verifies X-Webhook-Signature over the exact bytes received (6.4, C-20), refuses forgeries with 401
// (C-70), acknowledges at once with 200 (6.5, C-72) and treats a repeated X-Webhook-Delivery as
// already processed, never as an error (C-71). A delivery in a content coding (gzip, deflate, br) is
// decoded first and its signature checked over the decoded payload text; any other coding gets 415,
// and every answer says which codings it accepts (C-58). Node 20, no dependency.
//
//   WEBHOOK_SECRET=s3cret node examples/receiver/receiver.mjs      # prints its URL, then serves
//
// Environment: WEBHOOK_SECRET (without it, deliveries are not authenticated), HOST (default
// 127.0.0.1), PORT (default 0: a free port).
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync } from 'node:zlib';

const SECRET = process.env.WEBHOOK_SECRET;
// Why a cap: a delivery is a small JSON document; a larger body is refused before it fills memory.
const MAX_BODY_BYTES = 1024 * 1024;
// Why a bound: the delivery ids kept for idempotency; the oldest are forgotten first.
const MAX_REMEMBERED = 10_000;
const SIGNATURE = /^sha256=([0-9a-f]{64})$/i;

const processed = new Set();

// C-58: the content codings this receiver decodes, said on every answer (RFC 9110 12.5.3).
const ACCEPT_ENCODING = 'gzip, deflate, br';
const DECODERS = {
  gzip: gunzipSync,
  'x-gzip': gunzipSync,
  br: brotliDecompressSync,
  // The zlib format, or raw deflate as some senders send it.
  deflate: (bytes, options) => {
    try {
      return inflateSync(bytes, options);
    } catch {
      return inflateRawSync(bytes, options);
    }
  },
};

/**
 * The body with its content codings removed, the last applied first (RFC 9110 8.4), at most
 * MAX_BODY_BYTES decoded: `{ body }`, `{ unsupported: coding }`, or `{ status, error }` for bytes
 * that do not decode or decode too large.
 */
export function decodeBody(header, body) {
  const codings = String(header ?? '')
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
  let out = body;
  for (const coding of codings.reverse()) {
    const decode = DECODERS[coding];
    if (decode === undefined) return { unsupported: coding };
    try {
      out = decode(out, { maxOutputLength: MAX_BODY_BYTES });
    } catch (e) {
      if (e?.code === 'ERR_BUFFER_TOO_LARGE') return { status: 413, error: 'body too large' };
      return { status: 400, error: `body does not decode as ${coding}` };
    }
  }
  return { body: out };
}

/** Spec 6.4: `sha256=` + hex HMAC-SHA256 of the received bytes, compared in constant time. */
export function signatureMatches(secret, body, header) {
  if (typeof header !== 'string') return false; // missing, or repeated (C-70)
  const match = SIGNATURE.exec(header);
  if (match === null) return false;
  const expected = createHmac('sha256', secret).update(body).digest();
  const actual = Buffer.from(match[1], 'hex');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

function answer(res, status, body) {
  res.writeHead(status, { 'content-type': 'application/json', 'accept-encoding': ACCEPT_ENCODING });
  res.end(JSON.stringify(body));
}

function remember(deliveryId) {
  processed.add(deliveryId);
  if (processed.size > MAX_REMEMBERED) processed.delete(processed.values().next().value);
}

/** What the application does with an event; here, one log line on stderr. */
function handleEvent(payload) {
  process.stderr.write(`${payload.event} task ${payload.taskId} (attempt ${payload.delivery?.attempt})\n`);
}

function onDelivery(req, res, received) {
  const decoded = decodeBody(req.headers['content-encoding'], received);
  if (decoded.unsupported !== undefined) {
    return answer(res, 415, { error: `content coding ${decoded.unsupported} not accepted` });
  }
  if (decoded.body === undefined) return answer(res, decoded.status, { error: decoded.error });
  // The signature covers the payload text: the bytes before any content coding (6.4, C-58).
  const body = decoded.body;
  if (SECRET !== undefined && !signatureMatches(SECRET, body, req.headers['x-webhook-signature'])) {
    return answer(res, 401, { error: 'invalid signature' });
  }
  let payload;
  try {
    payload = JSON.parse(body.toString('utf8'));
  } catch {
    return answer(res, 400, { error: 'body is not JSON' });
  }
  const deliveryId = req.headers['x-webhook-delivery'];
  // A repeat (a duplicate, or a retry whose first attempt did arrive) is acknowledged, not redone.
  if (typeof deliveryId === 'string' && processed.has(deliveryId))
    return answer(res, 200, { duplicate: true });
  if (typeof deliveryId === 'string') remember(deliveryId);
  answer(res, 200, { received: true });
  // Acknowledge first, work after: the service waits at most 5 seconds (spec 6.5).
  setImmediate(() => handleEvent(payload));
}

const server = createServer((req, res) => {
  if (req.method !== 'POST') return answer(res, 405, { error: 'POST only' });
  const chunks = [];
  let size = 0;
  req.on('data', (chunk) => {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) {
      answer(res, 413, { error: 'body too large' });
      req.destroy();
      return;
    }
    chunks.push(chunk);
  });
  req.on('end', () => {
    if (!res.headersSent) onDelivery(req, res, Buffer.concat(chunks));
  });
});

server.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? '127.0.0.1', () => {
  const { address, port } = server.address();
  process.stdout.write(`http://${address}:${port}/webhook\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
