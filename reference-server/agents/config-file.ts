// The JSON config file of the reference server (`serve --config FILE`): the same fields as
// startReferenceServer's options, validated with one readable line per problem.
import { readFileSync } from 'node:fs';
import { HTTP_LIMITS } from '../http/limits.ts';
import type { ReferenceServerOptions } from '../types.ts';
import { ConfigError } from '../../schemas/config-error.ts';
import { Checker, serverConfigError } from './config-check.ts';
import { resolveAgentConfigs } from './config.ts';
import { isStoreSpec, STORE_FORMS } from '../store/index.ts';

const SERVER_KEYS = [
  'host',
  'port',
  'corsOrigins',
  'allowPrivateWebhookTargets',
  'headersTimeoutMs',
  'requestTimeoutMs',
  'deliveryLogSize',
  'maxPendingDeliveries',
  'store',
  'agents',
] as const;

/** Validates the server-level fields of an options object (agents are checked by resolveAgentConfigs). */
export function checkServerOptions(raw: unknown, check: Checker): ReferenceServerOptions {
  if (!check.object('config', raw, SERVER_KEYS)) return {};
  const options: ReferenceServerOptions = {};
  if (raw.host !== undefined && check.string('host', raw.host)) options.host = raw.host;
  if (raw.port !== undefined && check.integer('port', raw.port, 0, 65535)) options.port = raw.port;
  if (raw.corsOrigins !== undefined && check.stringArray('corsOrigins', raw.corsOrigins, false)) {
    options.corsOrigins = raw.corsOrigins;
  }
  if (raw.allowPrivateWebhookTargets !== undefined) {
    if (check.boolean('allowPrivateWebhookTargets', raw.allowPrivateWebhookTargets)) {
      options.allowPrivateWebhookTargets = raw.allowPrivateWebhookTargets;
    }
  }
  checkTimeouts(raw, check, options);
  if (
    raw.deliveryLogSize !== undefined &&
    check.integer('deliveryLogSize', raw.deliveryLogSize, 1, 1_000_000)
  ) {
    options.deliveryLogSize = raw.deliveryLogSize;
  }
  const pending = raw.maxPendingDeliveries;
  if (pending !== undefined && check.integer('maxPendingDeliveries', pending, 1, 1_000_000)) {
    options.maxPendingDeliveries = pending;
  }
  if (raw.store !== undefined && check.string('store', raw.store)) {
    if (isStoreSpec(raw.store)) options.store = raw.store;
    else check.fail('store', `must be ${STORE_FORMS}`, raw.store);
  }
  return options;
}

/** C-47: slow-client timeouts; node refuses a header timeout longer than the request timeout. */
function checkTimeouts(raw: Record<string, unknown>, check: Checker, options: ReferenceServerOptions): void {
  const { headersTimeoutMs, requestTimeoutMs } = raw;
  if (headersTimeoutMs !== undefined && check.integer('headersTimeoutMs', headersTimeoutMs, 100, 600_000)) {
    options.headersTimeoutMs = headersTimeoutMs;
  }
  if (requestTimeoutMs !== undefined && check.integer('requestTimeoutMs', requestTimeoutMs, 100, 3_600_000)) {
    options.requestTimeoutMs = requestTimeoutMs;
  }
  const headers = options.headersTimeoutMs ?? HTTP_LIMITS.headersTimeoutMs;
  const request = options.requestTimeoutMs ?? HTTP_LIMITS.requestTimeoutMs;
  if (headers > request)
    check.fail('headersTimeoutMs', `must not exceed requestTimeoutMs (${request})`, headers);
}

/** Parses a config file's text; `source` names the file in error messages. */
export function parseConfigText(text: string, source: string): ReferenceServerOptions {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw serverConfigError([`${source}: not valid JSON (${(error as Error).message})`]);
  }
  const check = new Checker();
  const options = checkServerOptions(raw, check);
  const agentsRaw = (raw as { agents?: unknown } | null)?.agents;
  let agentProblems: string[] = [];
  try {
    options.agents = resolveAgentConfigs(agentsRaw);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    agentProblems = error.problems;
  }
  const problems = [...check.problems, ...agentProblems];
  if (problems.length > 0) throw serverConfigError(problems.map((problem) => `${source}: ${problem}`));
  return options;
}

export function loadConfigFile(path: string): ReferenceServerOptions {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw serverConfigError([
      `${path}: cannot read the config file (${(error as NodeJS.ErrnoException).code})`,
    ]);
  }
  return parseConfigText(text, path);
}
