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
];

export default variants;
