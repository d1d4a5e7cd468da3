// The run's one webhook capture receiver, shared by the suites' workers. The runner binds it once
// (--webhook-listen) and keeps it listening for the whole run, so a delivery that comes after the check
// that caused it ended is still seen, and the checks' expectations are settled at the end of the run
// (harness/check/expectations.ts). Each worker follows it through a link on 127.0.0.1: a stream of
// every delivery (and of each answer's time) into a mirror that checks read and wait on, and a call
// that scripts the answers of a check's URL before the check hands it to the agent.
import type { Delivery } from '../../../core/evidence.ts';
import type { LinkStreamRecord, LinkWireDelivery } from '../../../schemas/generated/types.ts';
import {
  DeliveryStore,
  startWebhookReceiver,
  type DeliveryFilter,
  type ObservableReceiver,
  type ScriptedResponse,
  type WaitOptions,
  type WaitResult,
  type WebhookReceiver,
  type WebhookReceiverOptions,
} from '../webhooks/webhook-receiver.ts';
import { payloadOf, storedSize } from '../webhooks/deliveries.ts';
import { EncodedLine, LinkClient, serveLink, type HeldFlow } from './link-protocol.ts';

export interface WebhookLink {
  /** The link's URL (127.0.0.1) the workers connect to. */
  url: string;
  /** The run's receiver. */
  receiver: ObservableReceiver;
  close(): Promise<void>;
}

/**
 * A delivery on the link: its kept bytes in Base64 and what the receiver recorded of them, but not
 * their text and parsed JSON, which the mirror reads again from the bytes (payloadOf). Sent as well,
 * they made each 256 KiB delivery a 900 KB line, once per worker.
 */
function toWire(d: Delivery): LinkWireDelivery {
  const { text: _text, json: _json, ...recorded } = d;
  return { ...recorded, body: d.body.toString('base64') };
}

function fromWire(w: LinkWireDelivery): Delivery {
  const body = Buffer.from(w.body, 'base64');
  const { text, json } = payloadOf(body, w.parseError);
  const d = { ...(w as unknown as Delivery), body, text };
  if (json !== undefined) d.json = json;
  return d;
}

/** One record of the stream, encoded once for all the workers that follow it. */
export interface StreamLine {
  kind: 'delivery' | 'response';
  /** The delivery the record is, or whose answer's time it carries. */
  seq: number;
  line: EncodedLine<LinkStreamRecord>;
  /**
   * What it counts against a queue's cap: its line's bytes, or what a worker's store will count for
   * the delivery (storedSize: bytes, text, JSON) when that is more.
   */
  weight: number;
}

/** A record's line; `stored` is the delivery's storedSize in the receiver's store. */
export function streamLine(
  record: LinkStreamRecord & { kind: 'delivery' | 'response' },
  stored = 0,
): StreamLine {
  const seq = record.kind === 'delivery' ? record.delivery.seq : record.seq;
  const line = new EncodedLine(record);
  return { kind: record.kind, seq, line, weight: Math.max(line.bytes.length, stored) };
}

// Why these figures: a worker reads its stream between its checks' own work; a few MiB unread is
// normal, and past FOLLOWER_BUFFER_BYTES the records wait here instead, as deliveries, under the caps
// of the worker's own store (DeliveryStore: 64 MiB counted by storedSize, 1000 deliveries, the oldest
// dropped first): what it would drop on arrival waits for nothing. A target that floods the receiver
// with large deliveries filled every worker's write buffer without bound (2.8 GiB in the CLI).
const FOLLOWER_BUFFER_BYTES = 8 * 1024 * 1024;
const FOLLOWER_QUEUE_WEIGHT = 64 * 1024 * 1024;
const FOLLOWER_QUEUE_DELIVERIES = 1000;

/**
 * The records of one worker's stream, written while its client keeps up; behind it, kept up to the
 * caps of the worker's store (FOLLOWER_QUEUE_WEIGHT of weight, FOLLOWER_QUEUE_DELIVERIES), the oldest
 * deliveries dropped first with their answers' times (the worker's store would have dropped them
 * beyond its caps too). The lines are shared by every worker's queue, so the workers behind hold one
 * copy of a delivery between them.
 */
export class FollowerQueue {
  private readonly queue: StreamLine[] = [];
  private weight = 0;
  private deliveries = 0;
  dropped = 0;

  constructor(
    private readonly send: (line: EncodedLine<LinkStreamRecord>) => void,
    private readonly flow: HeldFlow,
    private readonly limits = {
      bufferBytes: FOLLOWER_BUFFER_BYTES,
      queueWeight: FOLLOWER_QUEUE_WEIGHT,
      queueDeliveries: FOLLOWER_QUEUE_DELIVERIES,
    },
  ) {
    flow.onDrain(() => this.pump());
  }

  push(record: StreamLine): void {
    this.queue.push(record);
    this.count(record, 1);
    while (this.weight > this.limits.queueWeight || this.deliveries > this.limits.queueDeliveries) {
      const oldest = this.queue.find((q) => q.kind === 'delivery');
      if (oldest === undefined || this.queue.length === 1) break;
      // The delivery goes, and its answer's time with it (a mirror without the delivery ignores it).
      const gone = this.queue.filter((q) => q === oldest || (q.kind === 'response' && q.seq === oldest.seq));
      for (const g of gone) this.count(g, -1);
      this.queue.splice(0, this.queue.length, ...this.queue.filter((q) => !gone.includes(q)));
      this.dropped += 1;
    }
    this.pump();
  }

  private count(record: StreamLine, sign: 1 | -1): void {
    this.weight += sign * record.weight;
    if (record.kind === 'delivery') this.deliveries += sign;
  }

  private pump(): void {
    while (this.queue.length > 0 && this.flow.backlogBytes() < this.limits.bufferBytes) {
      const next = this.queue.shift()!;
      this.count(next, -1);
      this.send(next.line);
    }
  }
}

/** Starts the run's receiver and serves it to the workers: the webhookStream and webhookScript calls of the link. */
export async function serveWebhookLink(opts: WebhookReceiverOptions): Promise<WebhookLink> {
  const receiver = await startWebhookReceiver(opts);
  // One subscription for every worker: each record is encoded once and its line shared by their queues.
  const followers = new Set<FollowerQueue>();
  const unsubscribe = receiver.subscribe((kind, d) => {
    if (followers.size === 0) return;
    const line =
      kind === 'delivery'
        ? streamLine({ kind, delivery: toWire(d) }, storedSize(d))
        : streamLine({ kind, seq: d.seq, response: { ...d.response } });
    for (const f of followers) f.push(line);
  });
  try {
    const link = await serveLink<'webhookStream' | 'webhookScript'>({
      webhookStream: () => ({
        answer: { kind: 'hello', url: receiver.url },
        follow: (send, flow) => {
          const queue = new FollowerQueue(send, flow);
          for (const d of receiver.deliveries()) {
            queue.push(streamLine({ kind: 'delivery', delivery: toWire(d) }, storedSize(d)));
          }
          followers.add(queue);
          return () => void followers.delete(queue);
        },
      }),
      webhookScript: async ({ token, responses }) => {
        await receiver.script(token, responses);
        return { answer: {} };
      },
    });
    return {
      url: link.url,
      receiver,
      close: async () => {
        unsubscribe();
        await link.close();
        await receiver.close();
      },
    };
  } catch (e) {
    unsubscribe();
    await receiver.close();
    throw e;
  }
}

/** A worker's view of the run's receiver: every delivery, mirrored as it arrives. */
class Mirror implements WebhookReceiver {
  url = '';
  readonly store = new DeliveryStore();
  private readonly client: LinkClient;
  private release: () => void = () => undefined;

  constructor(link: string) {
    this.client = new LinkClient(link);
  }

  async connect(): Promise<void> {
    const { answer, release } = await this.client.hold(
      'webhookStream',
      {},
      {
        onMore: ({ answer: record }) => this.take(record),
        // The run ended (or the worker closes the mirror): the deliveries so far stay readable.
        onEnd: () => this.store.wakeAll(),
      },
    );
    this.release = release;
    this.take(answer);
  }

  private take(record: LinkStreamRecord): void {
    if (record.kind === 'hello') {
      this.url = record.url;
    } else if (record.kind === 'delivery') {
      this.store.add(fromWire(record.delivery));
    } else {
      const d = this.store.bySeq(record.seq);
      if (d !== undefined) Object.assign(d.response, record.response);
    }
  }

  urlFor(token: string): string {
    return `${this.url}/hooks/${encodeURIComponent(token)}`;
  }

  deliveries(filter?: DeliveryFilter): Delivery[] {
    return this.store.deliveries(filter);
  }

  async waitFor(filter: DeliveryFilter, opts: WaitOptions): Promise<Delivery[]> {
    return (await this.waitForResult(filter, opts)).deliveries;
  }

  waitForResult(filter: DeliveryFilter, opts: WaitOptions): Promise<WaitResult> {
    return this.store.waitForResult(filter, opts);
  }

  async script(token: string, responses: ScriptedResponse[]): Promise<void> {
    await this.client.call('webhookScript', { token, responses });
  }

  dropped(): { deliveries: number; bodyBytes: number } {
    return { deliveries: this.store.droppedDeliveries, bodyBytes: this.store.droppedBytes };
  }

  clear(token?: string): void {
    this.store.clear(token);
  }

  async close(): Promise<void> {
    this.release();
    this.store.wakeAll();
    await this.client.close();
  }
}

/** Follows the run's receiver from a worker. */
export async function connectWebhookLink(url: string): Promise<WebhookReceiver> {
  const mirror = new Mirror(url);
  await mirror.connect();
  return mirror;
}
