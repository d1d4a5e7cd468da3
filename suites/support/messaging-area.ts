// Helpers of the messaging suites (spec 4, 4.1, 4.9, 8): the card's limits and file rules (2.14,
// C-22, C-46), Invalid params readers (C-14), schema checks recorded as data, memoised samples, and
// the arbitrary of any valid message (2.3-2.5) for the message/send properties.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { is, type AnsweredExchange, type CheckContext } from '../../harness/check/index.ts';
import { validate, type SchemaName } from '../../schemas/registry.ts';
import { ERROR_CODES } from '../../schemas/error-codes.ts';
import { isObject } from '../../schemas/json.ts';
import { filePart, messageParams, resultOf, type JsonObject } from './messages.ts';
import { errorOf, responseOf } from './rpc-response.ts';

function positiveInt(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : undefined;
}

export type LimitName = 'requestsPerMinute' | 'concurrentTasks' | 'maxMessageLength' | 'systemTimeoutMs';

/** A per-agent limit of the card (2.14; `systemTimeoutMs` is the C-05 extension), when a positive integer. */
export function cardLimit(c: CheckContext, name: LimitName): number | undefined {
  const limits = isObject(c.card) ? c.card.limits : undefined;
  return positiveInt(isObject(limits) ? limits[name] : undefined);
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
  const caps = isObject(c.card) ? c.card.capabilities : undefined;
  const upload = isObject(caps) && isObject(caps.fileUpload) ? caps.fileUpload : {};
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

/** Deterministic content of a given decoded size. */
export function fileOfSize(
  size: number,
  name = `conformance-${size}.bin`,
  mimeType = 'text/plain',
): JsonObject {
  return filePart(name, mimeType, Buffer.alloc(size, 0x61));
}

/** An id no agent has issued (unknown contextId, unknown agent). */
export function unknownId(prefix: string): string {
  return `${prefix}-${randomUUID()}`;
}

/** `error.data` when it is an object. */
export function errorData(ex: AnsweredExchange): JsonObject | undefined {
  const data = errorOf(ex)?.data;
  return isObject(data) ? data : undefined;
}

/** C-22: a request over a limit gets -32602 naming the field, the limit and the actual size, and no result. */
export function expectOverLimit(
  c: CheckContext,
  ex: AnsweredExchange,
  over: { field: string; limit: number; actual: number },
): void {
  c.check('error.code', errorOf(ex)?.code, ERROR_CODES.INVALID_PARAMS);
  c.check('error.data.field', errorData(ex)?.field, over.field);
  c.check('error.data.limit', errorData(ex)?.limit, over.limit);
  c.check('error.data.actual', errorData(ex)?.actual, over.actual);
  c.check('result', resultOf(ex), is.absent());
}

/** A message/send at a limit is accepted: no error, and a result of the send-result schema. */
export function expectSendAccepted(c: CheckContext, ex: AnsweredExchange): void {
  c.check('error', errorOf(ex), is.absent());
  checkSchema(c, 'send-result', resultOf(ex), 'message/send result');
}

/** A `details` text that names a field (C-14): a non-empty string mentioning its last segment. */
export function namesField(leaf: string) {
  return (actual: unknown): boolean => typeof actual === 'string' && actual.includes(leaf);
}

/** Records a schema validation as data: `actual` is 'valid' or the registry's issues. */
export function checkSchema(c: CheckContext, name: SchemaName, value: unknown, label?: string): boolean {
  const result = validate(name, value);
  return c.check(
    label ?? `valid against schemas/${name}.schema.json`,
    result.valid ? 'valid' : result.errors,
    is.where(`valid against schemas/${name}.schema.json`, () => result.valid),
  );
}

/**
 * One promise per key for the whole file: a sample several checks only look at. It must not record
 * assertions (those belong to the check that created it), so it returns raw data.
 */
export function memoised<T>(make: (c: CheckContext) => Promise<T>): (c: CheckContext) => Promise<T> {
  let promise: Promise<T> | undefined;
  return (c) => {
    promise ??= make(c);
    return promise;
  };
}

/** Elapsed milliseconds of `work`, beside its value. */
export async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const t0 = performance.now();
  const value = await work();
  return { value, ms: Math.round(performance.now() - t0) };
}

/** The facts of a directive reply (docs/directives.md section 4): `<keyword> <compact JSON>` lines. */
export interface ReplyFacts {
  echo?: unknown;
  files: unknown[];
  turn?: unknown;
  history?: unknown;
}

export function replyFacts(text: string | undefined): ReplyFacts {
  const facts: ReplyFacts = { files: [] };
  for (const line of (text ?? '').split('\n')) {
    const space = line.indexOf(' ');
    if (space < 0) continue;
    const keyword = line.slice(0, space);
    let value: unknown;
    try {
      value = JSON.parse(line.slice(space + 1));
    } catch {
      continue;
    }
    if (keyword === 'file') facts.files.push(value);
    else if (keyword === 'echo' || keyword === 'turn' || keyword === 'history') facts[keyword] = value;
  }
  return facts;
}

// The message/send properties: any valid message yields a valid Task.

const MAX_PARTS = 5;
// Small files keep a run of many cases fast; size limits have their own checks (suites/08-limits).
const MAX_GENERATED_FILE = 2048;
const MAX_GENERATED_TEXT = 200;
// A directive part would script the agent (docs/directives.md) instead of being content.
const DIRECTIVE = /^\s*a2a:directive(?=\s|\{|$)/;

// Any Unicode scalar value (surrogate halves skipped: they are not characters), with printable ASCII
// and characters that often break JSON or text handling mixed in. fast-check's own 'binary' unit
// does the same but is two orders of magnitude slower.
const arbCodePoint = fc
  .integer({ min: 0, max: 0x10ffff - 0x800 })
  .map((n) => String.fromCodePoint(n >= 0xd800 ? n + 0x800 : n));
const arbAscii = fc.integer({ min: 0x20, max: 0x7e }).map((n) => String.fromCharCode(n));
const arbTricky = fc.constantFrom('\u0000', '"', '\\', '\n', '\u{1F600}', 'e\u0301', '\u202e', '\ufeff');
const arbUnit = fc.oneof(arbCodePoint, arbAscii, arbTricky);

function arbTextPart(maxLength: number): fc.Arbitrary<JsonObject> {
  return fc
    .string({ unit: arbUnit, maxLength })
    .filter((text) => !DIRECTIVE.test(text))
    .map((text) => ({ type: 'text', text }));
}

function arbFilePart(types: readonly string[], maxSize: number): fc.Arbitrary<JsonObject> {
  return fc
    .record({
      name: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 24 }),
      mimeType: fc.constantFrom(...types),
      content: fc.uint8Array({ minLength: 1, maxLength: maxSize }),
    })
    .map(({ name, mimeType, content }) => ({
      type: 'file',
      file: { name, mimeType, bytes: Buffer.from(content).toString('base64') },
    }));
}

/** Parts of any valid message for this agent (spec 2.3-2.5): text within maxMessageLength, files only when accepted. */
export function arbMessageParts(c: CheckContext): fc.Arbitrary<JsonObject[]> {
  const maxLength = cardLimit(c, 'maxMessageLength');
  const perPart = Math.min(MAX_GENERATED_TEXT, Math.floor((maxLength ?? MAX_GENERATED_TEXT) / MAX_PARTS));
  const upload = fileUploadOf(c);
  const types = [...new Set(upload.supportedTypes.map(concreteType))];
  const maxSize = Math.min(MAX_GENERATED_FILE, upload.maxFileSize ?? MAX_GENERATED_FILE);
  const part =
    upload.supported === true && types.length > 0 && maxSize > 0
      ? fc.oneof(arbTextPart(perPart), arbFilePart(types, maxSize))
      : arbTextPart(perPart);
  return fc.array(part, { minLength: 1, maxLength: MAX_PARTS });
}

/** Sends one generated message; a result that is no valid Task fails the case with the schema issues. */
export async function sendsValidTask(
  c: CheckContext,
  parts: JsonObject[],
  extra: JsonObject = {},
): Promise<void> {
  const ex = await c.rpc('message/send', messageParams(parts, extra));
  const result = resultOf(ex);
  for (const schema of ['task', 'send-result'] as const) {
    const verdict = validate(schema, result);
    if (!verdict.valid) {
      const issues = JSON.stringify(verdict.errors);
      const answer = JSON.stringify(result ?? responseOf(ex)).slice(0, 400);
      throw new Error(`the answer is not a valid ${schema}: ${issues}; answer: ${answer}`);
    }
  }
}
