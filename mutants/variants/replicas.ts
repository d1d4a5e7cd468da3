// Mutants of a replicated agent, one per cross-replica check (--replica; spec 4.3-4.7, 6.5, 8; rulings
// C-59, C-60), each held against two replicas on one Redis (REPLICAS_CONTROL). The state-not-shared
// mutants keep each replica's tasks in its own memory and give the first replica as --target, so the
// plain checks pass there and only the cross-replica check can see the other replica not knowing the
// task. All extended (`npm run mutants -- --extended`): each starts replicas and a Redis.
import { randomUUID } from 'node:crypto';
import { variantIdentity } from '../define.ts';
import { REPLICAS_CONTROL, startReplicaTarget, type ReplicaTargetOptions } from '../replica-target.ts';
import type { Area, Variant } from '../types.ts';
import { deliveryOf } from '../webhook-relay.ts';

function replicaMutant(spec: {
  breaks: string;
  slug: string;
  area: Area;
  description: string;
  target: ReplicaTargetOptions;
}): Variant {
  return {
    ...variantIdentity(spec),
    only: [spec.breaks],
    control: REPLICAS_CONTROL,
    start: () => startReplicaTarget(spec.target),
  };
}

/** Each replica keeps tasks in its own memory; --target is the first replica. */
const OWN_MEMORY: ReplicaTargetOptions = { store: 'isolated', target: 'first' };

const stateNotShared = (breaks: string, area: Area, what: string): Variant =>
  replicaMutant({
    breaks,
    slug: 'replica-own-memory',
    area,
    description: `each replica keeps its tasks in its own memory: ${what} through the second replica answers "Task not found" for a task made through the first`,
    target: OWN_MEMORY,
  });

/** Delivery ids seen from the first replica: the copy the "other replica" sends is made once per id. */
const copied = new Set<string>();

export const extended: Variant[] = [
  stateNotShared('4.3/get-current-state', 'tasks', 'tasks/get'),
  stateNotShared('4.4/cancel-completed-task-code', 'cancel', 'tasks/cancel'),
  stateNotShared('4.5/resubscribe-final-task-returns-status', 'resubscribe', 'tasks/resubscribe'),
  stateNotShared('4.7/get-reflects-set', 'webhooks', 'tasks/pushNotificationConfig/set and get'),
  replicaMutant({
    breaks: '6.5/delivery-id-across-replicas',
    slug: 'each-replica-its-own-id',
    area: 'webhooks',
    description:
      'two replicas both deliver each event, each under an id of its own (the outbox is not shared): the first attempt comes again 50 ms later under a fresh X-Webhook-Delivery',
    target: {
      store: 'shared',
      relay: {
        after(a, _status, relay) {
          const id = a.headers['x-webhook-delivery'];
          if (id === undefined || (deliveryOf(a).attempt ?? 1) !== 1 || copied.has(id)) return;
          copied.add(id);
          relay.resend({ ...a, headers: { ...a.headers, 'x-webhook-delivery': randomUUID() } }, 50);
        },
      },
    },
  }),
  replicaMutant({
    breaks: '8/rate-limit-agent-wide',
    slug: 'window-per-replica',
    area: 'limits',
    description:
      'each replica counts requestsPerMinute in its own window: spread across two replicas, twice the announced limit is served',
    target: { store: 'isolated' },
  }),
];

export default [] as Variant[];
