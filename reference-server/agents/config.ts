// Per-agent configuration: the documented defaults and the validation that turns an
// AgentConfigInput into a resolved AgentConfig (spec 2.14 and 8; CLARIFICATIONS C-04, C-05, C-41, C-42, C-44).
import { METHODS, type MethodName } from '../../schemas/error-codes.ts';
import type { AgentCapabilities, AgentConfig, AgentConfigInput } from '../types.ts';
import { isObject } from '../../schemas/json.ts';
import { Checker } from './config-check.ts';

export const DEFAULT_SUPPORTED_TYPES: readonly string[] = Object.freeze([
  'text/plain',
  'application/json',
  'image/png',
  'application/pdf',
  'application/octet-stream',
]);

export const AGENT_DEFAULTS = Object.freeze({
  version: '1.0.0',
  type: 'workflow',
  status: 'active',
  maxFileSize: 5_242_880,
  requestsPerMinute: 600,
  concurrentTasks: 4,
  maxMessageLength: 100_000,
  systemTimeoutMs: 300_000,
  keepAliveMs: 15_000,
  turnMs: 0,
  maxTasks: 10_000,
  maxStreams: 100,
} as const);

/** Agent ids travel in the URL path; a restricted alphabet keeps them unambiguous there. */
export const AGENT_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const MIME_PATTERN = /^(\*\/\*|[a-z0-9][a-z0-9!#$&^_.+-]*\/(\*|[a-z0-9][a-z0-9!#$&^_.+-]*))$/i;
/** Decoded file size cap: the request body limit (C-42) grows with it and is held in memory. */
const MAX_FILE_SIZE_CEILING = 64 * 1024 * 1024;

const AGENT_KEYS = [
  'id',
  'name',
  'description',
  'version',
  'type',
  'status',
  'apiKeys',
  'bearerTokens',
  'capabilities',
  'limits',
  'systemTimeoutMs',
  'keepAliveMs',
  'turnMs',
  'maxTasks',
  'maxStreams',
] as const;
const CAPABILITY_KEYS = ['supportedMethods', 'fileUpload', 'streaming', 'multiTurn', 'webhooks'] as const;
const FILE_UPLOAD_KEYS = ['supported', 'maxFileSize', 'supportedTypes'] as const;
const LIMIT_KEYS = ['requestsPerMinute', 'concurrentTasks', 'maxMessageLength'] as const;

/** C-41: methods a disabled capability removes from the served set. */
function methodsDisabledBy(streaming: boolean, webhooks: boolean): Set<MethodName> {
  const disabled = new Set<MethodName>();
  if (!streaming) disabled.add('message/stream');
  if (!webhooks) {
    disabled.add('tasks/pushNotificationConfig/set');
    disabled.add('tasks/pushNotificationConfig/get');
  }
  return disabled;
}

function resolveCapabilities(raw: unknown, path: string, check: Checker): AgentCapabilities {
  const caps = isObject(raw) ? raw : {};
  if (raw !== undefined) check.object(path, raw, CAPABILITY_KEYS);
  const flag = (key: string, fallback: boolean): boolean =>
    caps[key] === undefined ? fallback : check.boolean(`${path}.${key}`, caps[key]) && (caps[key] as boolean);
  const streaming = flag('streaming', true);
  const webhooks = flag('webhooks', true);
  const disabled = methodsDisabledBy(streaming, webhooks);
  let supportedMethods = METHODS.filter((method) => !disabled.has(method));
  const listed = caps.supportedMethods;
  if (listed !== undefined && check.stringArray(`${path}.supportedMethods`, listed, false)) {
    listed.forEach((method, index) => {
      const at = `${path}.supportedMethods[${index}]`;
      if (!check.oneOf(at, method, METHODS)) return;
      if (disabled.has(method))
        check.fail(at, 'is disabled by capabilities.streaming/webhooks false', method);
      if (listed.indexOf(method) !== index) check.fail(at, 'is listed twice', method);
    });
    supportedMethods = METHODS.filter((method) => listed.includes(method));
  }
  return {
    supportedMethods,
    fileUpload: resolveFileUpload(caps.fileUpload, `${path}.fileUpload`, check),
    streaming,
    multiTurn: flag('multiTurn', true),
    webhooks,
  };
}

function resolveFileUpload(raw: unknown, path: string, check: Checker): AgentCapabilities['fileUpload'] {
  const upload = isObject(raw) ? raw : {};
  if (raw !== undefined) check.object(path, raw, FILE_UPLOAD_KEYS);
  let supportedTypes = [...DEFAULT_SUPPORTED_TYPES];
  const types = upload.supportedTypes;
  if (types !== undefined && check.stringArray(`${path}.supportedTypes`, types, false)) {
    types.forEach((type, index) => check.string(`${path}.supportedTypes[${index}]`, type, MIME_PATTERN));
    supportedTypes = types.map((type) => type.toLowerCase());
  }
  const supported = upload.supported === undefined ? true : upload.supported;
  check.boolean(`${path}.supported`, supported);
  const maxFileSize = upload.maxFileSize === undefined ? AGENT_DEFAULTS.maxFileSize : upload.maxFileSize;
  check.integer(`${path}.maxFileSize`, maxFileSize, 0, MAX_FILE_SIZE_CEILING);
  return { supported: supported === true, maxFileSize: maxFileSize as number, supportedTypes };
}

function resolveLimits(raw: unknown, path: string, check: Checker): AgentConfig['limits'] {
  const limits = isObject(raw) ? raw : {};
  if (raw !== undefined) check.object(path, raw, LIMIT_KEYS);
  const int = (key: keyof typeof AGENT_DEFAULTS, min: number, max: number): number => {
    const value = limits[key] === undefined ? AGENT_DEFAULTS[key] : limits[key];
    return check.integer(`${path}.${key}`, value, min, max) ? (value as number) : 1;
  };
  return {
    requestsPerMinute: int('requestsPerMinute', 1, 1_000_000),
    concurrentTasks: int('concurrentTasks', 1, 1000),
    maxMessageLength: int('maxMessageLength', 1, 10_000_000),
  };
}

function optionalString(check: Checker, path: string, value: unknown, fallback: string): string {
  if (value === undefined) return fallback;
  return check.string(path, value) ? value : fallback;
}

function credentials(check: Checker, path: string, value: unknown): string[] {
  if (value === undefined) return [];
  return check.stringArray(path, value, true) ? [...value] : [];
}

function resolveOne(raw: unknown, path: string, check: Checker): AgentConfig | undefined {
  if (!check.object(path, raw, AGENT_KEYS)) return undefined;
  const id = check.string(`${path}.id`, raw.id, AGENT_ID_PATTERN) ? raw.id : '';
  const number = (key: keyof typeof AGENT_DEFAULTS, min: number, max: number): number => {
    const value = raw[key] === undefined ? AGENT_DEFAULTS[key] : raw[key];
    return check.integer(`${path}.${key}`, value, min, max) ? (value as number) : min;
  };
  const apiKeys = credentials(check, `${path}.apiKeys`, raw.apiKeys);
  const bearerTokens = credentials(check, `${path}.bearerTokens`, raw.bearerTokens);
  if (apiKeys.length + bearerTokens.length === 0) {
    check.problems.push(`${path}: needs at least one credential in apiKeys or bearerTokens`);
  }
  const status = raw.status === undefined ? AGENT_DEFAULTS.status : raw.status;
  check.oneOf(`${path}.status`, status, ['active', 'inactive', 'maintenance'] as const);
  return {
    id,
    name: optionalString(check, `${path}.name`, raw.name, id),
    description: optionalString(check, `${path}.description`, raw.description, DEFAULT_DESCRIPTION),
    version: optionalString(check, `${path}.version`, raw.version, AGENT_DEFAULTS.version),
    type: optionalString(check, `${path}.type`, raw.type, AGENT_DEFAULTS.type),
    status: status as AgentConfig['status'],
    apiKeys,
    bearerTokens,
    capabilities: resolveCapabilities(raw.capabilities, `${path}.capabilities`, check),
    limits: resolveLimits(raw.limits, `${path}.limits`, check),
    systemTimeoutMs: number('systemTimeoutMs', 1, 86_400_000),
    keepAliveMs: number('keepAliveMs', 10, 3_600_000),
    turnMs: number('turnMs', 0, 3_600_000),
    maxTasks: number('maxTasks', 1, 1_000_000),
    maxStreams: number('maxStreams', 1, 10_000),
  };
}

const DEFAULT_DESCRIPTION =
  'Deterministic reference agent of a2a-conformance: echoes text and follows a2a:directive parts.';

/** Validates and resolves a list of agents; throws ConfigError listing every problem. */
export function resolveAgentConfigs(raw: unknown, path = 'agents'): AgentConfig[] {
  const check = new Checker();
  const agents: AgentConfig[] = [];
  if (!Array.isArray(raw) || raw.length === 0) {
    check.fail(path, 'must be a non-empty array of agents', raw);
  } else {
    raw.forEach((entry, index) => {
      const agent = resolveOne(entry, `${path}[${index}]`, check);
      if (agent === undefined) return;
      if (agents.some((other) => other.id === agent.id && agent.id !== '')) {
        check.fail(`${path}[${index}].id`, 'duplicates another agent id', agent.id);
      }
      agents.push(agent);
    });
  }
  check.throwIfAny();
  return agents;
}

/** C-42: the request body cap, sized so a message may carry several maximal Base64 files. */
export function maxBodyBytes(agent: AgentConfig): number {
  return Math.ceil((agent.capabilities.fileUpload.maxFileSize * 4) / 3) * 8 + 1024 * 1024;
}

export type { AgentConfigInput };
