// What a run was asked, built once from the resolved options and frozen (RunSettings): the target and
// its credentials, the budgets of a request and a check, the property settings, the webhook receiver's
// address, the network, and the option table's `field` rows. What the runner decides as the run goes
// lives apart from it (run-state.ts).
import { fieldValues, type ResolvedRunOptions } from '../options.ts';
import type { AskedField, ProvidedRun, RunSettings } from '../provided.ts';
import type { BundledTarget } from './bundled-target.ts';

/** The run's settings; against the bundled reference server, its address and credentials. */
export function runSettings(opts: ResolvedRunOptions, bundled: BundledTarget | undefined): RunSettings {
  const auth: ProvidedRun['auth'] = {};
  if (opts.apiKey !== undefined) auth.apiKey = opts.apiKey;
  else if (opts.bearer !== undefined) auth.bearer = opts.bearer;
  const alternate = bundled?.alternateAuth ?? alternateFromOptions(opts);
  return deepFreeze({
    baseUrl: bundled?.baseUrl ?? opts.target!,
    agentId: bundled?.agentId ?? opts.agentId!,
    auth: bundled?.auth ?? auth,
    ...(alternate === undefined ? {} : { alternateAuth: alternate }),
    timeoutMs: opts.timeoutMs,
    checkTimeoutMs: opts.checkTimeoutMs,
    seed: opts.seed,
    runs: opts.runs,
    webhookListen: { ...opts.webhookListen },
    ...(opts.webhookPublicUrl === undefined ? {} : { webhookPublicUrl: opts.webhookPublicUrl }),
    bundled: bundled !== undefined,
    ...(Object.keys(opts.network).length > 0 ? { network: structuredClone(opts.network) } : {}),
    field: askedField(opts),
  });
}

/** The profile and the option table's `field` rows, by their resolved names. */
export function askedField(opts: ResolvedRunOptions): AskedField {
  return { profile: opts.profile, ...fieldValues(opts) };
}

/** Given both --api-key and --bearer, the key is the run's credential and the token the alternate. */
function alternateFromOptions(opts: ResolvedRunOptions): ProvidedRun['alternateAuth'] {
  return opts.apiKey !== undefined && opts.bearer !== undefined ? { bearer: opts.bearer } : undefined;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
