// Mutants of the webhook payload (spec 6.1, 6.3; rulings C-20, C-39, C-43): the relay edits one field
// of every delivery and signs the edited body afresh, so only that field is wrong.
import type { ProxyHooks } from '../proxy-hooks.ts';
import type { Variant } from '../types.ts';
import {
  deliveryOf,
  isObject,
  setPayload,
  webhookMutant,
  type JsonObject,
  type RelayAttempt,
  type WebhookMutantSpec,
} from '../webhook-relay.ts';

/** Edits the payload of each delivery with `edit`, re-signing it. */
function editPayload(edit: (payload: JsonObject, a: RelayAttempt) => void) {
  return {
    rewrite(a: RelayAttempt): void {
      if (a.json === undefined) return;
      const payload = structuredClone(a.json);
      edit(payload, a);
      setPayload(a, payload);
    },
  };
}

/** The events list of each set request (by JSON-RPC id), for the events-filter mutants. */
const requested = new Map<string, JsonObject[keyof JsonObject]>();

/**
 * The events list of a set request (of every configuration, or only of a task-level one) never
 * reaches the server, which therefore delivers all five events; the set result is given the
 * client's list back, so only the deliveries show the filter was not applied.
 */
function eventsFilterDropped(which: 'every configuration' | 'task-level'): ProxyHooks {
  return {
    request(call) {
      const config = call.params?.config;
      if (call.method !== 'tasks/pushNotificationConfig/set' || !isObject(config)) return undefined;
      if (which === 'task-level' && typeof call.params?.taskId !== 'string') return undefined;
      if (!Array.isArray(config.events)) return undefined;
      requested.set(String(call.id), config.events);
      delete config.events;
      return call.json;
    },
    json: {
      'tasks/pushNotificationConfig/set'(body, ctx) {
        const events = requested.get(String(ctx.call.id));
        if (events !== undefined && isObject(body) && isObject(body.result)) body.result.events = events;
      },
    },
  };
}

/** The events list of each set request by the URL it configures, for the late-filter mutant. */
const requestedByUrl = new Map<string, JsonObject[keyof JsonObject]>();

/**
 * As eventsFilterDropped('every configuration'), and each event the list leaves out reaches the
 * receiver 3 s late (held by the relay): a wrongly delivered event that comes long after the check
 * that configured the list, as from an outbox.
 */
function eventsFilterDroppedLate(): Pick<WebhookMutantSpec, 'hooks' | 'relay'> {
  const dropped = eventsFilterDropped('every configuration');
  return {
    hooks: {
      ...dropped,
      request(call) {
        const config = call.params?.config;
        if (call.method === 'tasks/pushNotificationConfig/set' && isObject(config)) {
          if (typeof config.url === 'string' && Array.isArray(config.events)) {
            requestedByUrl.set(config.url, config.events);
          }
        }
        return dropped.request?.(call);
      },
    },
    relay: {
      holdMs(a) {
        const events = requestedByUrl.get(a.route.target);
        return Array.isArray(events) && !events.includes(a.json?.event ?? null) ? 3_000 : 0;
      },
    },
  };
}

const variants: Variant[] = [
  webhookMutant({
    breaks: '6.3/payload-timestamp',
    slug: 'epoch-milliseconds',
    description: 'the payload timestamp is a number of milliseconds since the epoch, not an ISO 8601 string',
    relay: editPayload((p) => {
      p.timestamp = Date.parse(String(p.timestamp));
    }),
  }),
  webhookMutant({
    breaks: '6.3/payload-delivery-attempt',
    slug: 'zero-based',
    description: 'delivery.attempt counts from 0 (0 on the first attempt)',
    relay: editPayload((p, a) => {
      if (isObject(p.delivery)) p.delivery.attempt = (deliveryOf(a).attempt ?? 1) - 1;
    }),
  }),
  webhookMutant({
    breaks: '6.1/events-filter',
    slug: 'filter-ignored',
    description:
      'a configuration with an events list is delivered every event (the list is stored and reported, never applied)',
    hooks: eventsFilterDropped('every configuration'),
  }),
  webhookMutant({
    breaks: '6.1/events-filter',
    slug: 'ignored-for-task-level',
    description:
      'the events list of a task-level configuration is ignored (every event of the task is delivered); agent-level lists are applied',
    hooks: eventsFilterDropped('task-level'),
  }),
  webhookMutant({
    breaks: '6.1/events-filter',
    slug: 'filter-ignored-late',
    description:
      'a configuration with an events list is delivered every event, the unsubscribed ones 3 s after their transition',
    ...eventsFilterDroppedLate(),
  }),
  webhookMutant({
    breaks: '6.3/payload-agent-id',
    slug: 'display-name',
    description: "the payload agentId carries the agent's display name instead of its id",
    relay: editPayload((p) => {
      p.agentId = 'Reference agent';
    }),
  }),
  webhookMutant({
    breaks: '6.3/payload-delivery-max-attempts',
    slug: 'equals-max-retries',
    description: 'delivery.maxAttempts is retryPolicy.maxRetries (the first attempt not counted)',
    relay: editPayload((p, a) => {
      if (isObject(p.delivery)) p.delivery.maxAttempts = (deliveryOf(a).maxAttempts ?? 1) - 1;
    }),
  }),
  webhookMutant({
    breaks: '6.1/completed-data',
    slug: 'no-context-id',
    description: 'task.completed data leaves out contextId',
    relay: editPayload((p) => {
      if (p.event === 'task.completed' && isObject(p.data)) delete p.data.contextId;
    }),
  }),
];

/** Caught too; left out of the detection test to keep it within its time budget (`npm run mutants -- --extended`). */
const EXTENDED = new Set([
  '6-1-events-filter--filter-ignored-late',
  '6-3-payload-delivery-attempt--zero-based',
  '6-3-payload-agent-id--display-name',
  '6-3-payload-delivery-max-attempts--equals-max-retries',
  '6-1-completed-data--no-context-id',
]);

export const extended = variants.filter((v) => EXTENDED.has(v.name));
export default variants.filter((v) => !EXTENDED.has(v.name));
