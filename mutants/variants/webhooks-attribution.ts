// Mutants of the fields a delivery is found by (spec 6.2, 6.3): the payload taskId and event, the
// payload delivery object and the X-Webhook-Delivery id, missing or garbled on every delivery. The
// relay re-signs each edited body, so only that field is wrong. A check must attribute such a
// delivery to itself by the URL it registered and fail the requirement, never wait out its budget for
// a delivery it cannot recognise.
import type { Variant } from '../types.ts';
import { isObject, setPayload, webhookMutant, type JsonObject, type RelayAttempt } from '../webhook-relay.ts';

/** Edits the payload of each delivery with `edit`, re-signing it. */
function editPayload(edit: (payload: JsonObject) => void) {
  return {
    rewrite(a: RelayAttempt): void {
      if (a.json === undefined) return;
      const payload = structuredClone(a.json);
      edit(payload);
      setPayload(a, payload);
    },
  };
}

const variants: Variant[] = [
  webhookMutant({
    breaks: '6.3/payload-task-id',
    slug: 'missing',
    description: 'the payload carries no taskId',
    relay: editPayload((p) => {
      delete p.taskId;
    }),
  }),
  webhookMutant({
    breaks: '6.3/payload-task-id',
    slug: 'garbled',
    description: 'the payload taskId is not the id of the task (a suffix appended to it)',
    relay: editPayload((p) => {
      if (typeof p.taskId === 'string') p.taskId = `${p.taskId}-x`;
    }),
  }),
  webhookMutant({
    breaks: '6.3/payload-event',
    slug: 'missing',
    description: 'the payload carries no event (X-Webhook-Event still names it)',
    relay: editPayload((p) => {
      delete p.event;
    }),
  }),
  webhookMutant({
    breaks: '6.3/payload-event',
    slug: 'garbled',
    description: 'the payload event drops its "task." prefix ("completed"); X-Webhook-Event still names it',
    relay: editPayload((p) => {
      if (typeof p.event === 'string') p.event = p.event.replace(/^task\./, '');
    }),
  }),
  webhookMutant({
    breaks: '6.3/payload-delivery-attempt',
    slug: 'delivery-missing',
    description: 'the payload carries no delivery object',
    relay: editPayload((p) => {
      delete p.delivery;
    }),
  }),
  webhookMutant({
    breaks: '6.3/payload-delivery-attempt',
    slug: 'delivery-garbled',
    description: 'the payload delivery is a string ("1/4"), not an object with attempt and maxAttempts',
    relay: editPayload((p) => {
      if (isObject(p.delivery))
        p.delivery = `${String(p.delivery.attempt)}/${String(p.delivery.maxAttempts)}`;
    }),
  }),
  webhookMutant({
    breaks: '6.2/delivery-header',
    slug: 'blank',
    description: 'X-Webhook-Delivery is sent blank',
    relay: {
      rewrite(a) {
        a.headers['x-webhook-delivery'] = ' ';
      },
    },
  }),
];

/**
 * Caught too; left out of the detection test to keep it within its time budget (`npm run mutants --
 * --extended`). A payload without taskId stays in it: the agent the detection set most needs to fail.
 */
const EXTENDED = new Set([
  '6-3-payload-task-id--garbled',
  '6-3-payload-event--missing',
  '6-3-payload-event--garbled',
  '6-3-payload-delivery-attempt--delivery-missing',
  '6-3-payload-delivery-attempt--delivery-garbled',
  '6-2-delivery-header--blank',
]);

export const extended = variants.filter((v) => EXTENDED.has(v.name));
export default variants.filter((v) => !EXTENDED.has(v.name));
