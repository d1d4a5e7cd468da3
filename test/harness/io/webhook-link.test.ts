// The run's webhook receiver as the workers follow it (harness/io/links/webhook-link.ts): a worker's
// mirror holds every delivery as the receiver recorded it, and under a flood of large deliveries the
// link costs one line of about the body's Base64 per delivery, encoded once for all the workers. A
// target posting 256 KiB deliveries once put a 900 KB line per delivery and worker through the CLI
// (text and parsed JSON beside the body, encoded for each worker): 1.3 to 1.7 GiB of heap.
import { gzipSync } from 'node:zlib';
import { request } from 'undici';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  connectWebhookLink,
  serveWebhookLink,
  type WebhookLink,
} from '../../../harness/io/links/webhook-link.ts';
import type { WebhookReceiver } from '../../../harness/io/webhooks/webhook-receiver.ts';

const BODY_BYTES = 256 * 1024;
// What a loaded machine may take to relay a few deliveries to the workers (a bound on the wait only).
const WAIT = { timeout: 10_000, interval: 20 };

/** A payload like a flood's: a plausible event whose one long string makes it BODY_BYTES long. */
function largePayload(n: number): string {
  const head = JSON.stringify({
    event: 'task.completed',
    taskId: `t-${n}`,
    delivery: { attempt: 1 },
    pad: '',
  });
  return `${head.slice(0, -2)}${'x'.repeat(BODY_BYTES - head.length)}"}`;
}

async function post(url: string, body: string | Buffer, headers: Record<string, string> = {}): Promise<void> {
  const res = await request(url, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', ...headers },
  });
  await res.body.text();
}

/** A worker's stream read raw: the lines the link wrote, as text. */
async function rawFollower(linkUrl: string): Promise<{ lines: string[]; close: () => void }> {
  const res = await request(`${linkUrl}/webhookStream`, {
    method: 'POST',
    body: '{}',
    headers: { 'content-type': 'application/json' },
  });
  const lines: string[] = [];
  let rest = '';
  res.body.on('data', (chunk: Buffer) => {
    rest += chunk.toString('utf8');
    for (let nl = rest.indexOf('\n'); nl !== -1; nl = rest.indexOf('\n')) {
      lines.push(rest.slice(0, nl));
      rest = rest.slice(nl + 1);
    }
  });
  res.body.on('error', () => undefined);
  return { lines, close: () => void res.body.destroy() };
}

const deliveryLines = (lines: readonly string[]): string[] =>
  lines.filter((l) => l.startsWith('{"answer":{"kind":"delivery"'));

let link: WebhookLink;
let mirror: WebhookReceiver | undefined;
beforeEach(async () => {
  link = await serveWebhookLink({ host: '127.0.0.1', port: 0 });
});
afterEach(async () => {
  vi.restoreAllMocks();
  await mirror?.close();
  mirror = undefined;
  await link.close();
});

describe('the webhook link', () => {
  it('mirrors each delivery as the receiver recorded it: bytes, text, JSON or why there is none', async () => {
    mirror = await connectWebhookLink(link.url);
    const url = link.receiver.urlFor('kept');
    const corrupt = gzipSync(Buffer.from('{"event":"task.completed"}'));
    corrupt.fill(0x41, 10, 20);
    await post(url, largePayload(1));
    await post(url, Buffer.from([0x7b, 0xff, 0xfe, 0x7d]));
    await post(url, 'not json');
    await post(url, '');
    await post(url, corrupt, { 'content-encoding': 'gzip' });
    const recorded = link.receiver.deliveries();
    expect(recorded.map((d) => d.parseError === undefined)).toEqual([true, false, false, false, false]);
    await vi.waitFor(() => {
      const got = mirror!.deliveries();
      expect(got.every((d) => d.response.atMs !== undefined)).toBe(true);
      expect(got).toEqual(recorded);
    }, WAIT);
  });

  it('sends a large delivery to every worker as one line about its Base64 size, encoded once', async () => {
    const followers = await Promise.all([1, 2, 3, 4].map(() => rawFollower(link.url)));
    try {
      const url = link.receiver.urlFor('flood');
      const bodies = [1, 2, 3, 4, 5].map(largePayload);
      const stringify = vi.spyOn(JSON, 'stringify');
      for (const body of bodies) await post(url, body);
      await vi.waitFor(() => {
        for (const f of followers) expect(deliveryLines(f.lines)).toHaveLength(bodies.length);
      }, WAIT);
      // Each delivery was encoded once for the four workers, not once per worker.
      const encoded = stringify.mock.results.filter(
        (r) => typeof r.value === 'string' && r.value.length > BODY_BYTES,
      );
      expect(encoded).toHaveLength(bodies.length);
      // A line is the body's Base64 (4/3 of it) and the record, not its text and JSON again.
      const base64 = Math.ceil(BODY_BYTES / 3) * 4;
      for (const f of followers) {
        for (const line of deliveryLines(f.lines)) {
          expect(line.length).toBeGreaterThan(base64);
          expect(line.length).toBeLessThan(base64 + 4096);
        }
      }
    } finally {
      for (const f of followers) f.close();
    }
  });
});
