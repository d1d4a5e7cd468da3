// Mutants of the webhook request headers (spec 6.2; ruling C-20): the relay rewrites one header of
// every delivery and leaves the body and its signature as the server sent them.
import { randomUUID } from 'node:crypto';
import type { Variant } from '../types.ts';
import { deliveryOf, webhookMutant } from '../webhook-relay.ts';

const variants: Variant[] = [
  webhookMutant({
    breaks: '6.2/user-agent',
    slug: 'http-client-default',
    description:
      "deliveries carry the HTTP client's default User-Agent (undici), not <product>-Webhook/<version>",
    relay: {
      rewrite(a) {
        a.headers['user-agent'] = 'undici';
      },
    },
  }),
  webhookMutant({
    breaks: '6.2/configured-headers-sent',
    slug: 'dropped',
    description: 'the headers of the configuration `headers` object are stored but never sent',
    relay: {
      rewrite(a) {
        for (const name of a.route.headerNames) delete a.headers[name];
      },
    },
  }),
  webhookMutant({
    breaks: '6.5/delivery-id-stable',
    slug: 'new-id-per-attempt',
    description: 'each retry of an event carries a fresh X-Webhook-Delivery id',
    relay: {
      rewrite(a) {
        if ((deliveryOf(a).attempt ?? 1) > 1) a.headers['x-webhook-delivery'] = randomUUID();
      },
    },
  }),
  webhookMutant({
    breaks: '6.2/content-type-json',
    slug: 'text-plain',
    description: 'deliveries are sent with Content-Type: text/plain; charset=utf-8',
    relay: {
      rewrite(a) {
        a.headers['content-type'] = 'text/plain; charset=utf-8';
      },
    },
  }),
  webhookMutant({
    breaks: '6.2/event-header',
    slug: 'never-sent',
    description: 'deliveries carry no X-Webhook-Event header (the event is only in the payload)',
    relay: {
      rewrite(a) {
        delete a.headers['x-webhook-event'];
      },
    },
  }),
  webhookMutant({
    breaks: '6.2/delivery-header',
    slug: 'never-sent',
    description: 'deliveries carry no X-Webhook-Delivery header (a sequence number would be legal)',
    relay: {
      rewrite(a) {
        delete a.headers['x-webhook-delivery'];
      },
    },
  }),
  (() => {
    // The first delivery id seen for a task is reused for every later event of that task.
    const perTask = new Map<string, string>();
    return webhookMutant({
      breaks: '6.2/delivery-id-per-event',
      slug: 'one-id-per-task',
      description: 'every event of one task carries the same X-Webhook-Delivery id (the id is per task)',
      relay: {
        rewrite(a) {
          const taskId = a.json?.taskId;
          const id = a.headers['x-webhook-delivery'];
          if (typeof taskId !== 'string' || id === undefined) return;
          if (!perTask.has(taskId)) perTask.set(taskId, id);
          a.headers['x-webhook-delivery'] = perTask.get(taskId)!;
        },
      },
    });
  })(),
];

/** Caught too; left out of the detection test to keep it within its time budget (`npm run mutants -- --extended`). */
const EXTENDED = new Set([
  '6-2-configured-headers-sent--dropped',
  '6-2-content-type-json--text-plain',
  '6-2-event-header--never-sent',
  '6-2-delivery-header--never-sent',
  '6-2-delivery-id-per-event--one-id-per-task',
]);

export const extended = variants.filter((v) => EXTENDED.has(v.name));
export default variants.filter((v) => !EXTENDED.has(v.name));
