// The agent card as the suites read it (spec 2.14, 4.8): a dotted path of it, whether it claims
// streaming (C-41), the methods it lists, its per-agent limits (C-46: positive integers, never a
// built-in default) and its file rules (C-22), each read loosely so a malformed card is recorded as it
// is, and the extended card fetched with given params.
import type { AnsweredExchange, CheckContext } from '../../harness/check/index.ts';
import { METHODS } from '../../schemas/error-codes.ts';
import { isObject } from '../../schemas/json.ts';
import { CARD, resultOf, type JsonObject } from './rpc.ts';

/** A dotted path read, e.g. 'capabilities.fileUpload.maxFileSize'. */
export function pathValue(obj: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((v, key) => (isObject(v) ? v[key] : undefined), obj);
}

/** The card does not say streaming is absent (C-41): only `capabilities.streaming: false` denies it. */
export function streamingClaimed(c: CheckContext): boolean {
  return pathValue(c.card, 'capabilities.streaming') !== false;
}

/** The card's supportedMethods when it lists them, else undefined (the card says nothing). */
export function listedMethods(card: unknown): string[] | undefined {
  const m = pathValue(card, 'capabilities.supportedMethods');
  return Array.isArray(m) ? m.filter((x): x is string => typeof x === 'string') : undefined;
}

/** The methods the card lists (C-41), or the eight of section 4 when the card does not say. */
export function servedMethods(c: CheckContext): readonly string[] {
  return listedMethods(c.card) ?? METHODS;
}

export type LimitName = 'requestsPerMinute' | 'concurrentTasks' | 'maxMessageLength' | 'systemTimeoutMs';

/**
 * A per-agent limit of the card (2.14; `systemTimeoutMs` is the C-05 extension) when it is a positive
 * integer (C-46); anything else (absent, zero, negative, fractional, a string) is no limit reported.
 */
export function cardLimit(c: CheckContext, name: LimitName): number | undefined {
  const value = pathValue(c.card, `limits.${name}`);
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
}

/** The limit, or not-exercised when the card does not report it (C-46: never a built-in default). */
export function requireCardLimit(c: CheckContext, name: LimitName, why = ''): number {
  const value = cardLimit(c, name);
  if (value === undefined) c.notExercised(`the agent card reports no positive limits.${name}${why}`);
  return value;
}

export interface FileUpload {
  supported: unknown;
  maxFileSize: number | undefined;
  supportedTypes: string[];
}

/** capabilities.fileUpload of the card (2.14), read loosely. */
export function fileUploadOf(c: CheckContext): FileUpload {
  const found = pathValue(c.card, 'capabilities.fileUpload');
  const upload = isObject(found) ? found : {};
  const types = Array.isArray(upload.supportedTypes) ? upload.supportedTypes : [];
  return {
    supported: upload.supported,
    maxFileSize: typeof upload.maxFileSize === 'number' ? upload.maxFileSize : undefined,
    supportedTypes: types.filter((t): t is string => typeof t === 'string'),
  };
}

/** A MIME type each supportedTypes entry accepts: wildcards become a concrete type of their range. */
export function concreteType(entry: string): string {
  const essence = entry.split(';')[0]!.trim();
  if (essence === '*/*') return 'application/octet-stream';
  if (essence.endsWith('/*')) return `${essence.slice(0, -2)}/x-a2a-conformance`;
  return essence;
}

/** The card's types as concrete MIME types (deduplicated), or not-exercised when it lists none. */
export function requireSupportedTypes(c: CheckContext): string[] {
  const types = [...new Set(fileUploadOf(c).supportedTypes.map(concreteType))];
  if (types.length === 0) c.notExercised('the agent card lists no capabilities.fileUpload.supportedTypes');
  return types;
}

/** A MIME type the card says the agent accepts (C-22), so only the field under test can be refused. */
export function acceptedMimeType(c: CheckContext): string {
  return fileUploadOf(c).supportedTypes.find((t) => !t.includes('*')) ?? 'text/plain';
}

/** The extended card with the given params (undefined: no params member). */
export async function fetchCard(
  c: CheckContext,
  params?: unknown,
): Promise<{ ex: AnsweredExchange; card: JsonObject | undefined }> {
  const ex = await c.rpc(CARD, params);
  return { ex, card: resultOf(ex) };
}
