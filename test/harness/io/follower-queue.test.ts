// A worker's webhook stream behind its reader (harness/io/links/webhook-link.ts FollowerQueue): records
// are written while the worker keeps up; behind it they wait in a queue capped like a receiver's store,
// the oldest deliveries dropped first with their answers' times, and writing resumes when it drains.
// A target flooding the receiver with 256 KiB deliveries once grew the CLI to 2.8 GiB this way.
import { describe, expect, it } from 'vitest';
import { FollowerQueue, streamLine } from '../../../harness/io/links/webhook-link.ts';
import type { EncodedLine } from '../../../harness/io/links/link-protocol.ts';
import type { LinkStreamRecord } from '../../../schemas/generated/types.ts';

function delivery(seq: number, bytes: number, stored = 0) {
  return streamLine({ kind: 'delivery', delivery: { seq, body: 'x'.repeat(bytes), response: {} } }, stored);
}

function response(seq: number) {
  return streamLine({ kind: 'response', seq, response: { status: 200 } });
}

/** A client that reads nothing until told to: its backlog is what was sent and not drained. */
function slowClient() {
  const sent: LinkStreamRecord[] = [];
  let backlog = 0;
  let drained = (): void => undefined;
  const flow = { backlogBytes: () => backlog, onDrain: (fn: () => void) => (drained = fn) };
  const send = (line: EncodedLine<LinkStreamRecord>): void => {
    sent.push((JSON.parse(line.bytes.toString('utf8')) as { answer: LinkStreamRecord }).answer);
    backlog += line.bytes.length;
  };
  const drain = (): void => {
    backlog = 0;
    drained();
  };
  return { sent, flow, send, drain };
}

const LIMITS = { bufferBytes: 10_000, queueWeight: 50_000, queueDeliveries: 1000 };

describe('FollowerQueue', () => {
  it('writes every record at once while the worker keeps up', () => {
    const c = slowClient();
    const q = new FollowerQueue(c.send, c.flow, LIMITS);
    for (let i = 0; i < 100; i += 1) {
      q.push(delivery(i, 100));
      c.drain();
    }
    expect(c.sent).toHaveLength(100);
    expect(q.dropped).toBe(0);
  });

  it('keeps what waits for a worker behind it under the cap, dropping the oldest deliveries and their answers', () => {
    const c = slowClient();
    const q = new FollowerQueue(c.send, c.flow, LIMITS);
    // 5 KiB deliveries, each followed by its answer's time: two fill the client's buffer, the rest wait.
    for (let i = 0; i < 1000; i += 1) {
      q.push(delivery(i, 5_000));
      q.push(response(i));
    }
    const written = c.sent.length;
    expect(written).toBeLessThanOrEqual(4);
    expect(q.dropped).toBeGreaterThan(900);
    // The client reads: what waited is written, in order, the newest deliveries and every answer kept.
    for (let k = 0; k < 1000 && c.sent.length < 2000; k += 1) c.drain();
    const seqs = c.sent
      .slice(written)
      .filter((r) => r.kind === 'delivery')
      .map((r) => r.delivery.seq);
    expect(seqs.at(-1)).toBe(999);
    expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);
    // Every delivery written has its answer's time after it; a dropped one has none.
    const answered = c.sent.filter((r) => r.kind === 'response').map((r) => r.seq);
    expect(answered.slice(-seqs.length)).toEqual(seqs);
    expect(seqs.length * 5_000).toBeLessThanOrEqual(LIMITS.queueWeight + LIMITS.bufferBytes);
  });

  it("waits for no more than the worker's store keeps: the deliveries' stored size, and their count", () => {
    // Deliveries whose text and JSON the store keeps beside their bytes: 15 KB each, three fit 50 KB.
    const big = slowClient();
    const q = new FollowerQueue(big.send, big.flow, { ...LIMITS, bufferBytes: 1 });
    for (let i = 0; i < 20; i += 1) q.push(delivery(i, 5_000, 15_000));
    for (let k = 0; k < 10; k += 1) big.drain();
    expect(big.sent.map((r) => (r.kind === 'delivery' ? r.delivery.seq : -1))).toEqual([0, 17, 18, 19]);
    // Small deliveries: no more than the store's count.
    const small = slowClient();
    const few = new FollowerQueue(small.send, small.flow, { ...LIMITS, bufferBytes: 1, queueDeliveries: 5 });
    for (let i = 0; i < 20; i += 1) few.push(delivery(i, 10));
    for (let k = 0; k < 10; k += 1) small.drain();
    expect(small.sent).toHaveLength(6);
    expect(few.dropped).toBe(14);
  });
});
