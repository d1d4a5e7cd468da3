// Mutants of the webhook configuration results (spec 2.13; ruling C-29): the proxy remembers what
// each set request carried and edits the get result of the same scope.
import { mutant } from '../define.ts';
import { sendJson, type ProxyHooks } from '../proxy.ts';
import type { Variant } from '../types.ts';
import { isObject, webhookMutant } from '../webhook-relay.ts';

const SET = 'tasks/pushNotificationConfig/set';
const GET = 'tasks/pushNotificationConfig/get';

/** The secret of the latest set per scope (task id, or '' for the agent level). */
const secrets = new Map<string, string>();

function scopeOf(params: Record<string, unknown> | undefined): string {
  return typeof params?.taskId === 'string' ? params.taskId : '';
}

/**
 * A set for a taskId no task has is refused with -32000 as usual, but kept: when a message makes that
 * task (params.id), the kept configuration takes effect, here as the agent-level one.
 */
function keepRefusedConfigs(): ProxyHooks {
  const kept = new Map<string, unknown>();
  return {
    answer: async (call, res, upstream) => {
      const taskId = call.params?.taskId;
      if (call.method === SET && typeof taskId === 'string') {
        const answer = await upstream(SET, call.params);
        if (answer?.error?.code === -32000) kept.set(taskId, call.params?.config);
        return sendJson(res, { ...answer, id: call.id });
      }
      const made = call.params?.id;
      if (call.method?.startsWith('message/') && typeof made === 'string' && kept.has(made)) {
        await upstream(SET, { config: kept.get(made) });
        kept.delete(made);
      }
      return false;
    },
  };
}

const variants: Variant[] = [
  mutant({
    breaks: '2.11/task-scoped-unknown-task-not-stored',
    slug: 'refused-config-kept',
    area: 'webhooks',
    description:
      'a set for a taskId no task has answers -32000 but is kept, and delivers once a task is made with that id',
    hooks: keepRefusedConfigs(),
  }),
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
