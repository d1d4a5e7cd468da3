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

export const pushConfigSet: MethodHandler = async ({ runtime, webhooks, params }) => {
  const { engine } = runtime;
  return unwrap(
    await webhooks.setConfig(runtime.config.id, params, async (id) => (await engine.find(id)) !== undefined),
  );
};

export const pushConfigGet: MethodHandler = async ({ runtime, webhooks, params }) =>
  unwrap(await webhooks.getConfig(runtime.config.id, params));
