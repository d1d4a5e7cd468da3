// Spec 4.1 with 2.3-2.5 and 4.9: any valid message (any Unicode text, any number of text and file
// parts, files of the card's types within its size) yields a schema-valid message/send Task. The
// run count and seed come from the run's one property setting (--runs, --seed).
import fc from 'fast-check';
import { validate } from '../../schemas/registry.ts';
import {
  messageParams,
  resultOf,
  responseOf,
  verifies,
  type CheckContext,
  type JsonObject,
} from '../support/index.ts';
import { cardLimit, fileUploadOf, concreteType } from '../support/messaging-area.ts';

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

/** Parts of a valid message for this agent: text within maxMessageLength, files only when accepted. */
function arbParts(c: CheckContext): fc.Arbitrary<JsonObject[]> {
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
async function sendsValidTask(c: CheckContext, parts: JsonObject[], extra: JsonObject = {}): Promise<void> {
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

verifies(
  '4.1/send-result-final-true',
  'any valid message yields a send-result with final true',
  async (c) => {
    await c.property('every generated message/send result', arbParts(c), (parts) => sendsValidTask(c, parts));
  },
);

// Another arbitrary than above (an optional sessionId, 2.6), so the two checks do not replay one case list.
verifies(
  '4.1/send-result-states',
  'any valid message, with or without sessionId, yields a Task in a send state',
  async (c) => {
    const arb = fc.tuple(
      arbParts(c),
      fc.option(fc.string({ minLength: 1, maxLength: 40 }), { nil: undefined }),
    );
    await c.property('every generated message/send result', arb, ([parts, sessionId]) =>
      sendsValidTask(c, parts, sessionId === undefined ? {} : { sessionId }),
    );
  },
);
