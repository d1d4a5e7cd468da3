// A replicated agent's legal choices (rulings C-59, C-60; freedom `deployment.replicas`): two replicas
// on one Redis (mutants/replica-target.ts), compared with the same replicas unchanged (REPLICAS_CONTROL)
// over the cross-replica checks: every delivery sent twice under its one id (a second replica that took
// the event too), and a second replica that answers every request 100-250 ms later than the first.
import { REPLICAS_CONTROL, startReplicaTarget } from '../replica-target.ts';
import type { LegalVariant } from '../types.ts';

/** The requirements the cross-replica checks verify (suites/*\/replicas.test.ts, the burst of 8). */
const CROSS_REPLICA = [
  '4.3/get-current-state',
  '4.4/cancel-completed-task-code',
  '4.5/resubscribe-final-task-returns-status',
  '4.7/get-reflects-set',
  '6.5/delivery-id-across-replicas',
  '8/rate-limit-agent-wide',
];

const between = (lo: number, hi: number): number => lo + Math.random() * (hi - lo);
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

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
