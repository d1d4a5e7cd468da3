// The run's one webhook capture receiver, shared by the suites' workers. The runner binds it once
// (--webhook-listen) and keeps it listening for the whole run, so a delivery that comes after the check
// that caused it ended is still seen, and the checks' expectations are settled at the end of the run
// (harness/check/expectations.ts). Each worker follows it through a link on 127.0.0.1: a stream of
// every delivery (and of each answer's time) into a mirror that checks read and wait on, and a call
// that scripts the answers of a check's URL before the check hands it to the agent.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { linkAgent, linkServer } from '../../kit/loopback.ts';
import type { Delivery } from '../../../core/evidence.ts';
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

export interface WebhookLink {
  /** The link's URL (127.0.0.1) the workers connect to. */
  url: string;
  /** The run's receiver. */
  receiver: ObservableReceiver;
  close(): Promise<void>;
}

type Wire = Omit<Delivery, 'body'> & { body: string };

function toWire(d: Delivery): Wire {
  return { ...d, body: d.body.toString('base64') };
}

function fromWire(w: Wire): Delivery {
  return { ...w, body: Buffer.from(w.body, 'base64') };
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
}

/** Starts the run's receiver and serves it to the workers. */
export async function serveWebhookLink(opts: WebhookReceiverOptions): Promise<WebhookLink> {
  const receiver = await startWebhookReceiver(opts);
  const streams = new Set<ServerResponse>();
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (req.url === '/stream') {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      const send = (line: unknown): void => void res.write(`${JSON.stringify(line)}\n`);
      send({ kind: 'hello', url: receiver.url });
      for (const d of receiver.deliveries()) send({ kind: 'delivery', delivery: toWire(d) });
      const stop = receiver.subscribe((kind, d) =>
        send(
          kind === 'delivery' ? { kind, delivery: toWire(d) } : { kind, seq: d.seq, response: d.response },
        ),
      );
      streams.add(res);
      res.on('close', () => {
        stop();
        streams.delete(res);
      });
      return;
    }
    if (req.url === '/script') {
      const body = await readJson(req);
      await receiver.script(String(body.token), (body.responses ?? []) as ScriptedResponse[]);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      return;
    }
    res.writeHead(404).end();
  };
  const server: Server = linkServer((req, res) => void handle(req, res).catch(() => res.destroy()));
  try {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  } catch (e) {
    await receiver.close();
    throw e;
  }
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    receiver,
    close: async () => {
      for (const s of streams) s.end();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await receiver.close();
    },
  };
}

/** A worker's view of the run's receiver: every delivery, mirrored as it arrives. */
class Mirror implements WebhookReceiver {
  url = '';
  readonly store = new DeliveryStore();
  private readonly dispatcher = linkAgent({ bodyTimeout: 0 });
  private readonly aborted = new AbortController();

  constructor(private readonly link: string) {}

  async connect(): Promise<void> {
    const res = await request(`${this.link}/stream`, {
      method: 'POST',
      dispatcher: this.dispatcher,
      signal: this.aborted.signal,
    });
    let hello: () => void = () => undefined;
    const ready = new Promise<void>((resolve) => (hello = resolve));
    let rest = '';
    res.body.on('data', (chunk: Buffer) => {
      rest += chunk.toString('utf8');
      let nl: number;
      while ((nl = rest.indexOf('\n')) !== -1) {
        const line = rest.slice(0, nl);
        rest = rest.slice(nl + 1);
        if (line.trim() === '') continue;
        const msg = JSON.parse(line) as {
          kind: string;
          url?: string;
          delivery?: Wire;
          seq?: number;
          response?: Delivery['response'];
        };
        if (msg.kind === 'hello') {
          this.url = msg.url ?? '';
          hello();
        } else if (msg.kind === 'delivery' && msg.delivery !== undefined) {
          this.store.add(fromWire(msg.delivery));
        } else if (msg.kind === 'response' && msg.seq !== undefined) {
          const d = this.store.bySeq(msg.seq);
          if (d !== undefined && msg.response !== undefined) Object.assign(d.response, msg.response);
        }
      }
    });
    // The run ended (or the worker closes the mirror): the deliveries so far stay readable.
    res.body.on('error', () => this.store.wakeAll());
    res.body.on('end', () => this.store.wakeAll());
    await ready;
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
    const res = await request(`${this.link}/script`, {
      method: 'POST',
      dispatcher: this.dispatcher,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token, responses }),
    });
    await res.body.text();
  }

  dropped(): { deliveries: number; bodyBytes: number } {
    return { deliveries: this.store.droppedDeliveries, bodyBytes: this.store.droppedBytes };
  }

  clear(token?: string): void {
    this.store.clear(token);
  }

  async close(): Promise<void> {
    this.aborted.abort();
    this.store.wakeAll();
    await this.dispatcher.close().catch(() => undefined);
  }
}

/** Follows the run's receiver from a worker. */
export async function connectWebhookLink(url: string): Promise<WebhookReceiver> {
  const mirror = new Mirror(url);
  await mirror.connect();
  return mirror;
}
