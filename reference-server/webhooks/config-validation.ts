// Validation of tasks/pushNotificationConfig/set and /get params (spec 2.11, 4.6, 4.7; rulings C-14,
// C-18, C-19): every refusal is -32602 with data {details, field} naming the exact offending field.
import { ERROR_CODES, ERROR_MESSAGES, WEBHOOK_EVENTS } from '../../schemas/error-codes.ts';
import { isObject } from '../../schemas/json.ts';
import type { Outcome, RetryPolicy, RpcError, WebhookConfigInput, WebhookEvent } from './types.ts';
import { ipLiteralOf, isForbiddenAddress } from './ssrf-guard.ts';

export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = Object.freeze({
  maxRetries: 3,
  backoffMultiplier: 2,
  initialDelay: 1,
});

// Limits on stored input: configs live in memory for the server's lifetime, so each one is bounded.
const MAX_URL_LENGTH = 2048; // the common practical URL limit of browsers and proxies
const MAX_HEADERS = 32;
const MAX_HEADER_VALUE_LENGTH = 4096;
const MAX_SECRET_LENGTH = 1024;

// C-19 forbids overriding these; hop-by-hop headers are refused too because they would corrupt the
// request framing (undici itself rejects several of them at send time, too late to tell the client).
const RESERVED_HEADERS = new Set([
  'content-type',
  'content-length',
  'host',
  'user-agent',
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'expect',
]);
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/; // RFC 9110 token
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/; // no CR, LF, NUL or other controls

export function invalidParams(field: string, details: string, extra: Record<string, unknown> = {}): RpcError {
  const code = ERROR_CODES.INVALID_PARAMS;
  return { code, message: ERROR_MESSAGES[code], data: { details, field, ...extra } };
}

const fail = (field: string, details: string): { ok: false; error: RpcError } => ({
  ok: false,
  error: invalidParams(field, details),
});

function validateUrl(raw: unknown, allowPrivateTargets: boolean): Outcome<string> {
  const field = 'config.url';
  if (raw === undefined) return fail(field, 'config.url is required');
  if (typeof raw !== 'string') return fail(field, 'config.url must be a string');
  if (raw.length > MAX_URL_LENGTH)
    return fail(field, `config.url is longer than ${MAX_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return fail(field, 'config.url must be an absolute URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return fail(field, 'config.url must use the http: or https: scheme');
  }
  // Credentials in the URL would be echoed by get (spec 2.13 hides secrets) and undici drops them.
  if (url.username !== '' || url.password !== '') {
    return fail(field, 'config.url must not carry credentials; use config.headers.Authorization');
  }
  const literal = ipLiteralOf(url.hostname);
  if (!allowPrivateTargets && literal !== null && isForbiddenAddress(literal)) {
    return fail(
      field,
      `config.url targets a non-public address (${literal}); webhook targets must be public`,
    );
  }
  return { ok: true, result: raw };
}

function validateHeaders(raw: unknown): Outcome<Record<string, string>> {
  if (raw === undefined) return { ok: true, result: {} };
  if (!isObject(raw)) return fail('config.headers', 'config.headers must be an object of string values');
  const entries = Object.entries(raw);
  if (entries.length > MAX_HEADERS)
    return fail('config.headers', `config.headers has more than ${MAX_HEADERS} entries`);
  const seen = new Set<string>();
  const headers: Record<string, string> = {};
  for (const [name, value] of entries) {
    const field = `config.headers.${name}`;
    const lower = name.toLowerCase();
    if (!HEADER_NAME.test(name)) return fail(field, `"${name}" is not a valid HTTP header name`);
    if (RESERVED_HEADERS.has(lower) || lower.startsWith('x-webhook-')) {
      return fail(field, `header "${name}" is set by the server and cannot be configured`);
    }
    if (seen.has(lower)) return fail(field, `header "${name}" is given twice (names are case-insensitive)`);
    seen.add(lower);
    if (typeof value !== 'string') return fail(field, `header "${name}" must have a string value`);
    if (value.length > MAX_HEADER_VALUE_LENGTH || !HEADER_VALUE.test(value)) {
      return fail(field, `header "${name}" has an invalid value (control characters or too long)`);
    }
    headers[name] = value;
  }
  return { ok: true, result: headers };
}

function validateEvents(raw: unknown): Outcome<WebhookEvent[]> {
  if (raw === undefined) return { ok: true, result: [...WEBHOOK_EVENTS] };
  if (!Array.isArray(raw)) return fail('config.events', 'config.events must be an array of event names');
  if (raw.length === 0)
    return fail('config.events', 'config.events must not be empty (omit it for all events)');
  const events: WebhookEvent[] = [];
  for (const [i, name] of raw.entries()) {
    if (typeof name !== 'string' || !(WEBHOOK_EVENTS as readonly string[]).includes(name)) {
      return fail(`config.events[${i}]`, `unknown event; allowed: ${WEBHOOK_EVENTS.join(', ')}`);
    }
    // C-18: duplicates are collapsed, first occurrence keeps its place.
    if (!events.includes(name as WebhookEvent)) events.push(name as WebhookEvent);
  }
  return { ok: true, result: events };
}

type NumberRule = { key: keyof RetryPolicy; ok: (n: number) => boolean; rule: string };
const RETRY_RULES: readonly NumberRule[] = [
  { key: 'maxRetries', ok: (n) => Number.isInteger(n) && n >= 0 && n <= 10, rule: 'an integer from 0 to 10' },
  { key: 'backoffMultiplier', ok: (n) => n >= 1 && n <= 10, rule: 'a number from 1 to 10' },
  { key: 'initialDelay', ok: (n) => n > 0 && n <= 3600, rule: 'a number of seconds > 0 and <= 3600' },
];

function validateRetryPolicy(raw: unknown): Outcome<RetryPolicy> {
  if (raw === undefined) return { ok: true, result: { ...DEFAULT_RETRY_POLICY } };
  if (!isObject(raw)) return fail('config.retryPolicy', 'config.retryPolicy must be an object');
  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY };
  for (const { key, ok, rule } of RETRY_RULES) {
    const value = raw[key];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isFinite(value) || !ok(value)) {
      return fail(`config.retryPolicy.${key}`, `config.retryPolicy.${key} must be ${rule}`);
    }
    policy[key] = value;
  }
  return { ok: true, result: policy };
}

function validateSecret(raw: unknown): Outcome<string | undefined> {
  if (raw === undefined) return { ok: true, result: undefined };
  if (typeof raw !== 'string' || raw.length === 0)
    return fail('config.secret', 'config.secret must be a non-empty string');
  if (raw.length > MAX_SECRET_LENGTH)
    return fail('config.secret', `config.secret is longer than ${MAX_SECRET_LENGTH} characters`);
  return { ok: true, result: raw };
}

/** Validates `params.config`; unknown fields are ignored (C-36). */
export function validateConfig(raw: unknown, allowPrivateTargets: boolean): Outcome<WebhookConfigInput> {
  if (raw === undefined) return fail('config', 'config is required');
  if (!isObject(raw)) return fail('config', 'config must be an object');
  const url = validateUrl(raw.url, allowPrivateTargets);
  if (!url.ok) return url;
  const headers = validateHeaders(raw.headers);
  if (!headers.ok) return headers;
  const events = validateEvents(raw.events);
  if (!events.ok) return events;
  const retryPolicy = validateRetryPolicy(raw.retryPolicy);
  if (!retryPolicy.ok) return retryPolicy;
  const secret = validateSecret(raw.secret);
  if (!secret.ok) return secret;
  const config = { url: url.result, headers: headers.result, events: events.result };
  return { ok: true, result: { ...config, retryPolicy: retryPolicy.result, secret: secret.result } };
}

/** Validates the optional `taskId` of set/get: absent means agent-level scope. */
export function validateTaskId(raw: unknown): Outcome<string | undefined> {
  if (raw === undefined) return { ok: true, result: undefined };
  if (typeof raw !== 'string' || raw.length === 0) return fail('taskId', 'taskId must be a non-empty string');
  return { ok: true, result: raw };
}

/** set params: an object with `config` (required) and `taskId` (optional). */
export function validateSetParams(
  params: unknown,
  allowPrivateTargets: boolean,
): Outcome<{ config: WebhookConfigInput; taskId: string | undefined }> {
  if (!isObject(params)) return fail('params', 'params must be an object with a config');
  const config = validateConfig(params.config, allowPrivateTargets);
  if (!config.ok) return config;
  const taskId = validateTaskId(params.taskId);
  if (!taskId.ok) return taskId;
  return { ok: true, result: { config: config.result, taskId: taskId.result } };
}

/** get params are optional (spec 2.1): absent or null means agent-level scope. */
export function validateGetParams(params: unknown): Outcome<{ taskId: string | undefined }> {
  if (params === undefined || params === null) return { ok: true, result: { taskId: undefined } };
  if (!isObject(params)) return fail('params', 'params must be an object');
  const taskId = validateTaskId(params.taskId);
  if (!taskId.ok) return taskId;
  return { ok: true, result: { taskId: taskId.result } };
}
