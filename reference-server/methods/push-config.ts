// tasks/pushNotificationConfig/set and /get (spec 2.11-2.13, 4.6, 4.7): thin adapters to the
// webhook service, which validates params and owns the configurations (C-17..C-19, C-29).
import { fail } from '../rpc/errors.ts';
import type { MethodHandler } from './context.ts';

type Outcome =
  | { ok: true; result: unknown }
  | { ok: false; error: { code: number; message: string; data?: Record<string, unknown> } };

function unwrap(outcome: Outcome): { result: unknown } {
  if (!outcome.ok) fail(outcome.error);
  return { result: outcome.result };
}

export const pushConfigSet: MethodHandler = ({ runtime, webhooks, params }) => {
  const store = runtime.engine.store;
  return unwrap(webhooks.setConfig(runtime.config.id, params, (taskId) => store.has(taskId)));
};

export const pushConfigGet: MethodHandler = ({ runtime, webhooks, params }) =>
  unwrap(webhooks.getConfig(runtime.config.id, params));
