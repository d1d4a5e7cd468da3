// Messages as a check sends them (spec 2.3-2.6, 4.1): parts, a user message with a fresh messageId,
// message/send and message/stream params, message/send of text or of any parts that must yield a Task,
// and the arbitrary of any valid message for this agent (its card's limits and file rules) with the
// property that every one of them yields a valid Task.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { AnsweredExchange, CheckContext } from '../../harness/check/index.ts';
import { validate } from '../../schemas/registry.ts';
import { cardLimit, concreteType, fileUploadOf } from './card.ts';
import { responseOf, resultOf, type JsonObject } from './rpc.ts';

export function textPart(text: string): JsonObject {
  return { type: 'text', text };
}

export function filePart(name: string, mimeType: string, content: Buffer | string): JsonObject {
  const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  return { type: 'file', file: { name, mimeType, bytes: bytes.toString('base64') } };
}

/** Deterministic content of a given decoded size. */
export function fileOfSize(
  size: number,
  name = `conformance-${size}.bin`,
  mimeType = 'text/plain',
): JsonObject {
  return filePart(name, mimeType, Buffer.alloc(size, 0x61));
}

/** A request Message (2.3): role user, a fresh UUID v4 messageId, the given parts. */
export function userMessage(parts: readonly JsonObject[]): JsonObject {
  return { role: 'user', messageId: randomUUID(), parts: [...parts] };
}

/** message/send or message/stream params (2.6); `extra` adds contextId, sessionId or id. */
export function messageParams(parts: readonly JsonObject[], extra: JsonObject = {}): JsonObject {
  return { message: userMessage(parts), ...extra };
}

/** An id no agent has issued (unknown contextId, unknown agent). */
export function unknownId(prefix: string): string {
  return `${prefix}-${randomUUID()}`;
}

/** message/send of a text-only message; the raw exchange, for checks that read the answer loosely. */
export function sendText(c: CheckContext, text: string, extra: JsonObject = {}): Promise<AnsweredExchange> {
  return c.rpc('message/send', messageParams([textPart(text)], extra));
}

/** message/send that must yield a Task object; anything else ends the check as failed. */
export async function sendTask(
  c: CheckContext,
  parts: readonly JsonObject[],
  extra: JsonObject = {},
): Promise<{ ex: AnsweredExchange; task: JsonObject }> {
  const ex = await c.rpc('message/send', messageParams(parts, extra));
  const task = resultOf(ex);
  c.require('message/send result is a Task object', task === undefined ? responseOf(ex) : 'object', 'object');
  return { ex, task: task! };
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
