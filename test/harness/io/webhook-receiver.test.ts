// The webhook capture receiver (spec 6.2-6.5, C-20): what it records, signature verification over
// the exact bytes, scripted failures (500, hang, reset, delay), waitFor timeouts and memory caps.
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import {
  signatureFor,
  startWebhookReceiver,
  verifySignature,
  type WebhookReceiver,
  type WebhookReceiverOptions,
} from '../../../harness/io/webhooks/webhook-receiver.ts';

let receiver: WebhookReceiver | undefined;

afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

async function setup(opts: WebhookReceiverOptions = {}): Promise<WebhookReceiver> {
  receiver = await startWebhookReceiver(opts);
  return receiver;
}

async function post(
  url: string,
  body: string | Buffer,
  headers: Record<string, string> = {},
  timeoutMs = 2000,
) {
  try {
    const res = await request(url, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', ...headers },
      signal: AbortSignal.timeout(timeoutMs),
    });
    await res.body.text();
    return { status: res.statusCode };
  } catch (err) {
    // DOMException (AbortSignal.timeout) has a numeric code; socket errors a string one.
    const e = err as { code?: unknown; name?: string };
    return { error: typeof e.code === 'string' ? e.code : e.name };
  }
}

describe('capture', () => {
  it('says how late it may have stamped an arrival while its event loop was held up (stampLagMs)', async () => {
    const r = await setup();
    await new Promise((resolve) => setTimeout(resolve, 30));
    const sent = post(r.urlFor('busy'), '{}');
    // Client and receiver share this process: holding it up delays the receiver's stamp.
    const until = performance.now() + 200;
    while (performance.now() < until) {
      // busy
    }
    expect(await sent).toEqual({ status: 200 });
    expect(r.deliveries()[0]!.stampLagMs).toBeGreaterThanOrEqual(180);
  });

  it('records path, token, method, lower-case headers, exact bytes, text, JSON and timings', async () => {
    const r = await setup();
    expect(r.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const body = Buffer.from('{"event":"task.completed","taskId":"t1"}');
    const before = performance.now();
    const res = await post(r.urlFor('test a/1'), body, { 'X-Webhook-Event': 'task.completed' });
    expect(res).toEqual({ status: 200 });
    const [d] = r.deliveries();
    expect(d).toMatchObject({
      seq: 1,
      token: 'test a/1',
      method: 'POST',
      path: '/hooks/test%20a%2F1',
      text: body.toString(),
      json: { event: 'task.completed', taskId: 't1' },
      bodyBytes: body.length,
      bodyTruncated: false,
      remoteAddress: '127.0.0.1',
      response: {},
    });
    expect(d!.body.equals(body)).toBe(true);
    expect(d!.headers['x-webhook-event']).toBe('task.completed');
    expect(d!.receivedAtMs).toBeGreaterThanOrEqual(before);
    expect(d!.bodyCompleteAtMs).toBeGreaterThanOrEqual(d!.receivedAtMs);
    expect(Date.parse(d!.timestamp)).not.toBeNaN();
  });

  it('keeps tokens apart and filters by token, event and predicate', async () => {
    const r = await setup();
    await post(r.urlFor('a'), '{"event":"task.submitted"}');
    await post(r.urlFor('b'), '{"event":"task.completed"}');
    await post(r.urlFor('a'), 'not json');
    expect(r.deliveries({ token: 'a' }).map((d) => d.seq)).toEqual([1, 3]);
    expect(r.deliveries({ event: 'task.completed' }).map((d) => d.token)).toEqual(['b']);
    expect(r.deliveries((d) => d.parseError !== undefined).map((d) => d.seq)).toEqual([3]);
    r.clear('a');
    expect(r.deliveries().map((d) => d.token)).toEqual(['b']);
  });

  it('uses publicUrl for the advertised URLs', async () => {
    const r = await setup({ publicUrl: 'https://hooks.example.test/x/' });
    expect(r.urlFor('t')).toBe('https://hooks.example.test/x/hooks/t');
  });
});

describe('verifySignature', () => {
  const body = Buffer.from('{"event":"task.completed","é":1}');
  const secret = 'whsec-1';
  const good = signatureFor(body, secret);

  it('accepts sha256=<hex HMAC> of the exact bytes, hex in either case', () => {
    expect(good).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(verifySignature(body, secret, good)).toEqual({ ok: true, expected: good, actual: good });
    expect(verifySignature(body, secret, `sha256=${good.slice(7).toUpperCase()}`).ok).toBe(true);
  });

  it('rejects a wrong secret, changed bytes, a missing header, a bad prefix and duplicates', () => {
    expect(verifySignature(body, 'other', good)).toMatchObject({
      ok: false,
      reason: 'mismatch',
      actual: good,
    });
    expect(verifySignature(Buffer.concat([body, Buffer.from(' ')]), secret, good).reason).toBe('mismatch');
    expect(verifySignature(body, secret, undefined)).toMatchObject({ ok: false, reason: 'missing' });
    expect(verifySignature(body, secret, good.slice(7)).reason).toBe('prefix');
    expect(verifySignature(body, secret, 'sha256=abc').reason).toBe('mismatch');
    expect(verifySignature(body, secret, [good, good]).reason).toBe('multiple');
  });
});

describe('scripted answers', () => {
  it('fails twice with 500 then succeeds, recording each answer', async () => {
    const r = await setup();
    r.script('t', [{ status: 500 }, { status: 503 }]);
    const statuses = [];
    for (let i = 0; i < 3; i += 1) statuses.push((await post(r.urlFor('t'), '{}')).status);
    expect(statuses).toEqual([500, 503, 200]);
    expect(r.deliveries().map((d) => d.response.status)).toEqual([500, 503, undefined]);
    expect(r.deliveries().every((d) => d.response.atMs !== undefined)).toBe(true);
  });

  it('delays an answer', async () => {
    const r = await setup();
    r.script('t', [{ delayMs: 200 }]);
    const t0 = performance.now();
    expect(await post(r.urlFor('t'), '{}')).toEqual({ status: 200 });
    expect(performance.now() - t0).toBeGreaterThanOrEqual(190);
    const [d] = r.deliveries();
    expect(d!.response.atMs! - d!.receivedAtMs).toBeGreaterThanOrEqual(190);
  });

  it('hangs (the sender must time out) and still closes promptly', async () => {
    const r = await setup();
    r.script('t', [{ hang: true }]);
    expect(await post(r.urlFor('t'), '{}', {}, 300)).toEqual({ error: 'TimeoutError' });
    expect(r.deliveries()[0]!.response).toMatchObject({ hang: true });
    const t0 = performance.now();
    r.script('u', [{ hang: true }]);
    void post(r.urlFor('u'), '{}', {}, 5000);
    await r.waitFor({ token: 'u' }, { timeoutMs: 1000 });
    await r.close();
    receiver = undefined;
    expect(performance.now() - t0).toBeLessThan(1000);
  });

  it('resets the connection', async () => {
    const r = await setup();
    r.script('t', [{ reset: true }]);
    expect(await post(r.urlFor('t'), '{}')).toEqual({ error: 'ECONNRESET' });
    expect(r.deliveries()[0]!.response).toMatchObject({ reset: true });
  });
});

describe('waitFor', () => {
  it('resolves as soon as the awaited deliveries arrived', async () => {
    const r = await setup();
    setTimeout(() => void post(r.urlFor('w'), '{"event":"task.completed"}'), 50);
    const t0 = performance.now();
    const got = await r.waitFor({ token: 'w', event: 'task.completed' }, { timeoutMs: 3000 });
    expect(got).toHaveLength(1);
    expect(performance.now() - t0).toBeLessThan(1000);
  });

  it('returns what arrived at the timeout, never hanging', async () => {
    const r = await setup();
    await post(r.urlFor('w'), '{}');
    const t0 = performance.now();
    const res = await r.waitForResult({ token: 'w' }, { timeoutMs: 200, count: 2 });
    expect(res.timedOut).toBe(true);
    expect(res.deliveries).toHaveLength(1);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(190);
    expect(await r.waitFor({ token: 'none' }, { timeoutMs: 50 })).toEqual([]);
    expect((await r.waitForResult({ token: 'w' }, { timeoutMs: 50 })).timedOut).toBe(false);
  });
});

describe('memory caps', () => {
  it('keeps the newest deliveries up to maxDeliveries and counts the dropped ones', async () => {
    const r = await setup({ maxDeliveries: 3 });
    for (let i = 0; i < 5; i += 1) await post(r.urlFor('c'), `{"i":${i}}`);
    expect(r.deliveries().map((d) => d.seq)).toEqual([3, 4, 5]);
    expect(r.dropped()).toEqual({ deliveries: 2, bodyBytes: 0 });
  });

  it('counts against maxStoredBytes what a delivery holds: its bytes, their text and their parsed JSON', async () => {
    // 256 KiB payloads of one long string: bytes, text and the JSON's copy of the string, 768 KiB each.
    const r = await setup({ maxStoredBytes: 3 * 1024 * 1024 });
    const head = '{"event":"task.completed","pad":"';
    const payload = `${head}${'x'.repeat(256 * 1024 - head.length - 2)}"}`;
    for (let i = 0; i < 10; i += 1) await post(r.urlFor('c'), payload);
    expect(r.deliveries().map((d) => d.seq)).toEqual([7, 8, 9, 10]);
    expect(r.dropped().deliveries).toBe(6);
  });

  it('stores at most maxBodyBytes of a body, counting the rest', async () => {
    const r = await setup({ maxBodyBytes: 10 });
    await post(r.urlFor('c'), Buffer.alloc(100, 0x61));
    const [d] = r.deliveries();
    expect(d).toMatchObject({ bodyBytes: 100, bodyTruncated: true, text: 'a'.repeat(10) });
    expect(d!.body.length).toBe(10);
    expect(r.dropped().bodyBytes).toBe(90);
  });
});

describe('content codings of deliveries (C-58)', () => {
  const payload = JSON.stringify({ event: 'task.completed', taskId: 't-1', data: { text: 'é'.repeat(50) } });
  const bytes = Buffer.from(payload);

  async function answerOf(url: string, body: Buffer, coding: string) {
    const res = await request(url, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', 'content-encoding': coding },
    });
    await res.body.text();
    return { status: res.statusCode, acceptEncoding: res.headers['accept-encoding'] };
  }

  it('reads gzip, deflate (zlib and raw), br and stacked codings as their decoded payload, and says so', async () => {
    const r = await setup();
    const sent: Array<[string, Buffer]> = [
      ['gzip', gzipSync(bytes)],
      ['x-gzip', gzipSync(bytes)],
      ['deflate', deflateSync(bytes)],
      ['deflate', deflateRawSync(bytes)],
      ['br', brotliCompressSync(bytes)],
      ['gzip, br', brotliCompressSync(gzipSync(bytes))],
      ['identity', bytes],
    ];
    for (const [coding, body] of sent) {
      expect(await answerOf(r.urlFor('coded'), body, coding)).toEqual({
        status: 200,
        acceptEncoding: 'gzip, deflate, br',
      });
    }
    const got = r.deliveries({ token: 'coded' });
    expect(got).toHaveLength(sent.length);
    for (const [i, d] of got.entries()) {
      expect(d.json, sent[i]![0]).toEqual(JSON.parse(payload));
      // The signature covers the payload text: the decoded bytes.
      expect(d.body.equals(bytes), sent[i]![0]).toBe(true);
      expect(d.bodyBytes).toBe(bytes.length);
    }
    expect(got[0]).toMatchObject({ contentEncoding: 'gzip', codedBytes: sent[0]![1].length });
    expect(got.at(-1)?.contentEncoding).toBeUndefined();
  });

  it('records a body that does not decode as a delivery whose payload failed to parse, answered as scripted', async () => {
    const r = await setup();
    const broken = gzipSync(bytes);
    broken.fill(0x41, 10, 40);
    expect((await answerOf(r.urlFor('corrupt'), broken, 'gzip')).status).toBe(200);
    expect((await answerOf(r.urlFor('corrupt'), Buffer.from('not brotli at all'), 'br')).status).toBe(200);
    const [gz, br] = r.deliveries({ token: 'corrupt' });
    expect(gz?.json).toBeUndefined();
    expect(gz?.parseError).toMatch(/^the gzip content coding of the delivery does not decode/);
    expect(br?.parseError).toMatch(/^the br content coding of the delivery does not decode/);
  });

  it('refuses a coding it does not decode with 415 and what it accepts, spending no scripted answer', async () => {
    const r = await setup();
    await r.script('zstd', [{ status: 500 }]);
    expect(await answerOf(r.urlFor('zstd'), Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0]), 'zstd')).toEqual({
      status: 415,
      acceptEncoding: 'gzip, deflate, br',
    });
    const [d] = r.deliveries({ token: 'zstd' });
    expect(d?.response.status).toBe(415);
    expect(d?.parseError).toContain('Content-Encoding zstd, which the harness does not decode');
    // The scripted 500 is still there for the next attempt.
    expect((await answerOf(r.urlFor('zstd'), gzipSync(bytes), 'gzip')).status).toBe(500);
  });

  it('keeps at most maxBodyBytes of a decoded body: a small body that inflates without bound costs no more', async () => {
    const r = await setup({ maxBodyBytes: 1024 });
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x20));
    expect(bomb.length).toBeLessThan(128 * 1024);
    expect((await answerOf(r.urlFor('bomb'), bomb, 'gzip')).status).toBe(200);
    const [d] = r.deliveries({ token: 'bomb' });
    expect(d?.body.length).toBe(1024);
    expect(d?.bodyTruncated).toBe(true);
    expect(d?.codedBytes).toBe(bomb.length);
    expect(d?.bodyBytes).toBeLessThan(2 * 1024 * 1024);
  });
});
