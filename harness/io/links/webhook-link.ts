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
import { LinkClient, serveLink, type HeldFlow } from './link-protocol.ts';

export interface WebhookLink {
  /** The link's URL (127.0.0.1) the workers connect to. */
  url: string;
  /** The run's receiver. */
  receiver: ObservableReceiver;
  close(): Promise<void>;
}

function toWire(d: Delivery): LinkWireDelivery {
  return { ...d, body: d.body.toString('base64') };
}

function fromWire(w: LinkWireDelivery): Delivery {
  return { ...(w as unknown as Delivery), body: Buffer.from(w.body, 'base64') };
}

// Why these figures: a worker reads its stream between its checks' own work; a few MiB unread is
// normal, and past FOLLOWER_BUFFER_BYTES the records wait here instead, as deliveries, under the same
// total a receiver keeps (DeliveryStore: 64 MiB, the oldest dropped first). A target that floods the
// receiver with large deliveries filled every worker's write buffer without bound (2.8 GiB in the CLI).
const FOLLOWER_BUFFER_BYTES = 8 * 1024 * 1024;
const FOLLOWER_QUEUE_BYTES = 64 * 1024 * 1024;

/**
 * The records of one worker's stream, written while its client keeps up; behind it, kept up to
 * FOLLOWER_QUEUE_BYTES, the oldest deliveries dropped first with their answers' times (the worker's
 * own store would have dropped them beyond its cap too).
 */
export class FollowerQueue {
  private readonly queue: Array<{ record: LinkStreamRecord; bytes: number }> = [];
  private queuedBytes = 0;
  dropped = 0;

  constructor(
    private readonly send: (record: LinkStreamRecord) => void,
    private readonly flow: HeldFlow,
    private readonly limits = { bufferBytes: FOLLOWER_BUFFER_BYTES, queueBytes: FOLLOWER_QUEUE_BYTES },
  ) {
    flow.onDrain(() => this.pump());
  }

  push(record: LinkStreamRecord): void {
    const bytes = record.kind === 'delivery' ? record.delivery.body.length + 1024 : 256;
    this.queue.push({ record, bytes });
    this.queuedBytes += bytes;
    while (this.queuedBytes > this.limits.queueBytes) {
      const oldest = this.queue.find((q) => q.record.kind === 'delivery');
      if (oldest === undefined || oldest.record.kind !== 'delivery' || this.queue.length === 1) break;
      // The delivery goes, and its answer's time with it (a mirror without the delivery ignores it).
      const seq = oldest.record.delivery.seq;
      const gone = this.queue.filter(
        (q) => q === oldest || (q.record.kind === 'response' && q.record.seq === seq),
      );
      for (const g of gone) this.queuedBytes -= g.bytes;
      this.queue.splice(0, this.queue.length, ...this.queue.filter((q) => !gone.includes(q)));
      this.dropped += 1;
    }
    this.pump();
  }

  private pump(): void {
    while (this.queue.length > 0 && this.flow.backlogBytes() < this.limits.bufferBytes) {
      const next = this.queue.shift()!;
      this.queuedBytes -= next.bytes;
      this.send(next.record);
    }
  }
}

/** Starts the run's receiver and serves it to the workers: the webhookStream and webhookScript calls of the link. */
export async function serveWebhookLink(opts: WebhookReceiverOptions): Promise<WebhookLink> {
  const receiver = await startWebhookReceiver(opts);
  try {
    const link = await serveLink<'webhookStream' | 'webhookScript'>({
      webhookStream: () => ({
        answer: { kind: 'hello', url: receiver.url },
        follow: (send, flow) => {
          const queue = new FollowerQueue(send, flow);
          for (const d of receiver.deliveries()) queue.push({ kind: 'delivery', delivery: toWire(d) });
          return receiver.subscribe((kind, d) =>
            queue.push(
              kind === 'delivery'
                ? { kind, delivery: toWire(d) }
                : { kind, seq: d.seq, response: { ...d.response } },
            ),
          );
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
        await link.close();
        await receiver.close();
      },
    };
  } catch (e) {
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
