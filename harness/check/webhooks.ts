// The webhook capture receiver as a check sees it (spec 6, C-17, C-20): one receiver per worker,
// started lazily on --webhook-listen, and per-check URLs whose deliveries become the check's evidence.
import { randomUUID } from 'node:crypto';
import type { Delivery } from '../../core/evidence.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../io/webhook-receiver.ts';
import type { ProvidedRun } from '../provided.ts';

let shared: Promise<WebhookReceiver> | undefined;

/** The worker's receiver; a fixed --webhook-listen port is bound once and reused by every check. */
export function sharedReceiver(
  run: Pick<ProvidedRun, 'webhookListen' | 'webhookPublicUrl'>,
): Promise<WebhookReceiver> {
  if (shared === undefined) {
    const opts: Parameters<typeof startWebhookReceiver>[0] = { ...run.webhookListen };
    if (run.webhookPublicUrl !== undefined) opts.publicUrl = run.webhookPublicUrl;
    shared = startWebhookReceiver(opts);
    // A failed start is retried by the next check instead of poisoning every later one.
    shared.catch(() => {
      shared = undefined;
    });
  }
  return shared;
}

/** Called after each suite file (suites/support/setup.ts) so a fixed port is free for the next file. */
export async function closeSharedReceiver(): Promise<void> {
  const current = shared;
  shared = undefined;
  if (current) await (await current.catch(() => undefined))?.close();
}

export interface CheckWebhooks {
  /** The worker's receiver (waitFor, script, ...). */
  readonly receiver: WebhookReceiver;
  /** A fresh URL for this check; deliveries to it are the check's evidence. */
  newUrl(label?: string): { token: string; url: string };
  /** Deliveries to this check's URLs so far. */
  deliveries(): Delivery[];
}

export class WebhookScope {
  private readonly tokens = new Set<string>();
  private receiver: WebhookReceiver | undefined;

  constructor(private readonly run: Pick<ProvidedRun, 'webhookListen' | 'webhookPublicUrl'>) {}

  async open(): Promise<CheckWebhooks> {
    const receiver = await sharedReceiver(this.run);
    this.receiver = receiver;
    return {
      receiver,
      newUrl: (label = 'hook') => {
        const token = `${label.replace(/[^A-Za-z0-9_-]/g, '_')}-${randomUUID()}`;
        this.tokens.add(token);
        return { token, url: receiver.urlFor(token) };
      },
      deliveries: () => this.deliveries(),
    };
  }

  deliveries(): Delivery[] {
    if (this.receiver === undefined || this.tokens.size === 0) return [];
    return this.receiver.deliveries((d) => d.token !== undefined && this.tokens.has(d.token));
  }
}
