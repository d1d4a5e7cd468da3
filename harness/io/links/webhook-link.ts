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
import { LinkClient, serveLink } from './link-protocol.ts';

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

/** Starts the run's receiver and serves it to the workers: the webhookStream and webhookScript calls of the link. */
export async function serveWebhookLink(opts: WebhookReceiverOptions): Promise<WebhookLink> {
  const receiver = await startWebhookReceiver(opts);
  try {
    const link = await serveLink<'webhookStream' | 'webhookScript'>({
      webhookStream: () => ({
        answer: { kind: 'hello', url: receiver.url },
        follow: (send) => {
          for (const d of receiver.deliveries()) send({ kind: 'delivery', delivery: toWire(d) });
          return receiver.subscribe((kind, d) =>
            send(
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
