// Mutants of the webhook configuration results (spec 2.13; ruling C-29): the proxy remembers what
// each set request carried and edits the get result of the same scope.
import type { Variant } from '../types.ts';
import { isObject, webhookMutant } from '../webhook-relay.ts';

const SET = 'tasks/pushNotificationConfig/set';
const GET = 'tasks/pushNotificationConfig/get';

/** The secret of the latest set per scope (task id, or '' for the agent level). */
const secrets = new Map<string, string>();

function scopeOf(params: Record<string, unknown> | undefined): string {
  return typeof params?.taskId === 'string' ? params.taskId : '';
}

const variants: Variant[] = [
  webhookMutant({
    breaks: '2.13/get-omits-secret-headers',
    slug: 'secret-returned',
    description: 'the get result returns config.secret alongside the url and events',
    hooks: {
      request(call) {
        const config = call.params?.config;
        if (call.method === SET && isObject(config) && typeof config.secret === 'string') {
          secrets.set(scopeOf(call.params), config.secret);
        }
        return undefined;
      },
      json: {
        [GET](body, ctx) {
          const secret = secrets.get(scopeOf(ctx.call.params));
          if (
            secret !== undefined &&
            isObject(body) &&
            isObject(body.result) &&
            isObject(body.result.config)
          ) {
            body.result.config.secret = secret;
          }
        },
      },
    },
  }),
  webhookMutant({
    breaks: '2.13/get-config-last-used',
    slug: 'stuck-at-created-at',
    description:
      'once a configuration has been used, get reports lastUsed as its createdAt instead of the time of the latest attempt',
    hooks: {
      json: {
        [GET](body) {
          const config = isObject(body) && isObject(body.result) ? body.result.config : undefined;
          if (isObject(config) && config.lastUsed !== null) config.lastUsed = config.createdAt ?? null;
        },
      },
    },
  }),
];

export default variants;
