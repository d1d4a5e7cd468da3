// A replicated agent's legal choices (rulings C-59, C-60; freedom `deployment.replicas`): two replicas
// on one Redis (mutants/replica-target.ts), compared with the same replicas unchanged (REPLICAS_CONTROL)
// over the cross-replica checks: every delivery sent twice under its one id (a second replica that took
// the event too), and a second replica that answers every request 100-250 ms later than the first.
import { setTimeout as sleep } from 'node:timers/promises';
import { CROSS_REPLICA, REPLICAS_CONTROL, startReplicaTarget } from '../replica-target.ts';
import type { LegalVariant } from '../types.ts';

const between = (lo: number, hi: number): number => lo + Math.random() * (hi - lo);

const variants: LegalVariant[] = [
  {
    name: 'replicas-deliver-twice',
    varies: ['deployment.replicas', 'webhook.duplicate-delivery'],
    description:
      'two replicas on one Redis; every delivery attempt is sent again 50-300 ms after it was answered, same X-Webhook-Delivery, body and signature (a second replica that took the event too)',
    allowedBy:
      'C-59 (duplicates under the one delivery id are legal), spec 6.5 ("Duplicate deliveries are possible")',
    only: CROSS_REPLICA,
    control: REPLICAS_CONTROL,
    start: () =>
      startReplicaTarget({
        store: 'shared',
        relay: {
          after(a, _status, relay) {
            relay.resend(a, between(50, 300));
          },
        },
      }),
  },
  {
    name: 'replicas-uneven-latency',
    varies: ['deployment.replicas', 'deployment.network-latency'],
    description:
      'two replicas on one Redis; the second answers every request 100-250 ms later than the first (another zone, a busier node)',
    allowedBy:
      'C-59, C-60 (which replica answers, delivers or refuses is free); freedom deployment.network-latency (an agent across networks, with jitter)',
    only: CROSS_REPLICA,
    control: REPLICAS_CONTROL,
    start: () =>
      startReplicaTarget({
        store: 'shared',
        hooks: (index) =>
          index === 0
            ? {}
            : {
                async answer() {
                  await sleep(between(100, 250));
                  return false;
                },
              },
      }),
  },
];

export default variants;
