// Spec 4.1 and 7 (-32602 whose error.data.details names a missing required field of 2.3-2.6), and
// C-14's invalid values (non-UUID v4 messageId, role other than user, empty parts, unknown part type,
// Base64 with a data: prefix), each answered with -32602 and data.field naming the refused field.
// Checks are independent (one request each) and run concurrently.
import { randomUUID } from 'node:crypto';
import { ERROR_CODES, is, SIDE_BY_SIDE, suiteFile, verifies, type CheckContext } from '../support/index.ts';
import { concreteType, fileUploadOf } from '../support/card.ts';
import { errorData, namesField } from '../support/errors.ts';
import { textPart } from '../support/messages.ts';
import { errorOf, resultOf, type JsonObject } from '../support/rpc.ts';

suiteFile({
  cost: { requests: 1, turns: 0 },
});

type MessageEdit = (message: JsonObject, fileType: string) => void;

interface FieldCase {
  /** What the request lacks or gets wrong, for the title. */
  what: string;
  /** The field path of C-14 (rooted at params). */
  field: string;
  edit: MessageEdit;
}

function fileTypeOf(c: CheckContext): string {
  const first = fileUploadOf(c).supportedTypes[0];
  return first === undefined ? 'text/plain' : concreteType(first);
}

/**
 * A valid text + file message, then `edit` breaks one field. Without file uploads (C-22) the file
 * part is left out, and the cases about files do not apply.
 */
function brokenParams(c: CheckContext, { field, edit }: FieldCase): JsonObject {
  const type = fileTypeOf(c);
  const files = fileUploadOf(c).supported !== false;
  if (!files && field.startsWith('message.parts[1]')) {
    c.notApplicable('the agent card says capabilities.fileUpload.supported is false');
  }
  const parts = [textPart('a message with one broken field')];
  if (files) parts.push(fileWith({ name: 'a.txt', mimeType: type, bytes: 'aGk=' }));
  const message: JsonObject = { role: 'user', messageId: randomUUID(), parts };
  edit(message, type);
  return { message };
}

function fileWith(file: JsonObject): JsonObject {
  return { type: 'file', file };
}

function setPart(index: number, part: JsonObject): MessageEdit {
  return (m) => {
    (m.parts as JsonObject[])[index] = part;
  };
}

const MISSING: readonly FieldCase[] = [
  { what: 'messageId', field: 'message.messageId', edit: (m) => delete m.messageId },
  { what: 'role', field: 'message.role', edit: (m) => delete m.role },
  { what: 'parts', field: 'message.parts', edit: (m) => delete m.parts },
  { what: 'a part type', field: 'message.parts[0].type', edit: setPart(0, { text: 'no type' }) },
  { what: 'the text of a text part', field: 'message.parts[0].text', edit: setPart(0, { type: 'text' }) },
  { what: 'the file of a file part', field: 'message.parts[1].file', edit: setPart(1, { type: 'file' }) },
  {
    what: 'a file name',
    field: 'message.parts[1].file.name',
    edit: (m, t) => setPart(1, fileWith({ mimeType: t, bytes: 'aGk=' }))(m, t),
  },
  {
    what: 'a file mimeType',
    field: 'message.parts[1].file.mimeType',
    edit: (m, t) => setPart(1, fileWith({ name: 'a.txt', bytes: 'aGk=' }))(m, t),
  },
  {
    what: 'file bytes',
    field: 'message.parts[1].file.bytes',
    edit: (m, t) => setPart(1, fileWith({ name: 'a.txt', mimeType: t }))(m, t),
  },
];

function leafOf(field: string): string {
  return field
    .split('.')
    .at(-1)!
    .replace(/\[\d+\]$/, '');
}

/** The files cases apply only to an agent that takes files (C-22); the others always. */
function applicable<T extends FieldCase>(c: CheckContext, cases: readonly T[]): T[] {
  if (fileUploadOf(c).supported !== false) return [...cases];
  const out = cases.filter((k) => !k.field.startsWith('message.parts[1]'));
  if (out.length < cases.length)
    c.info('the agent card says capabilities.fileUpload.supported is false: the file cases do not apply');
  return out;
}

/** Params without message first: the member every request of the method needs. */
const WITHOUT_MESSAGE = { what: 'message', field: 'message', edit: () => undefined } as const;

verifies(
  '4.1/missing-required-field-32602',
  'params without message, or a message without one required field: -32602 naming it',
  async (c) => {
    await c.each(
      'each missing member',
      applicable(c, [WITHOUT_MESSAGE, ...MISSING]),
      async (fieldCase) => {
        const { what, field } = fieldCase;
        const ex = await c.rpc(
          'message/send',
          fieldCase === WITHOUT_MESSAGE ? {} : brokenParams(c, fieldCase),
        );
        const leaf = leafOf(field);
        c.check(`without ${what}: error.code`, errorOf(ex)?.code, ERROR_CODES.INVALID_PARAMS);
        c.check(
          `without ${what}: error.data.details`,
          errorData(ex)?.details,
          is.where(`a string naming "${leaf}"`, namesField(leaf)),
        );
        c.check(`without ${what}: result`, resultOf(ex), is.absent());
        // C-14 grades data.field as SHOULD: noted here, checked by the invalid-value checks below.
        if (fieldCase !== WITHOUT_MESSAGE)
          c.info(`without ${what}: error.data.field (C-14 expects ${field})`, errorData(ex)?.field);
      },
      SIDE_BY_SIDE,
    );
  },
  { concurrent: true, property: { requests: 1, turns: 0, cases: 1 + MISSING.length } },
);

const INVALID: ReadonlyArray<FieldCase & { id: string }> = [
  {
    id: '2.3/message-id-uuid-v4',
    what: 'a messageId that is no UUID',
    field: 'message.messageId',
    edit: (m) => (m.messageId = 'conformance-not-a-uuid'),
  },
  {
    id: '2.3/message-id-uuid-v4',
    what: 'a version 1 UUID messageId',
    field: 'message.messageId',
    edit: (m) => (m.messageId = 'c232ab00-9414-11ec-b3c8-9f6bdeced846'),
  },
  { id: '2.3/role-user', what: 'role agent', field: 'message.role', edit: (m) => (m.role = 'agent') },
  { id: '2.3/role-user', what: 'role system', field: 'message.role', edit: (m) => (m.role = 'system') },
  {
    id: '2.3/parts-non-empty-array',
    what: 'empty parts',
    field: 'message.parts',
    edit: (m) => (m.parts = []),
  },
  {
    id: '2.4/part-type',
    what: 'a part of type data',
    field: 'message.parts[0].type',
    edit: setPart(0, { type: 'data', data: { a: 1 } }),
  },
  {
    id: '2.4/part-type',
    what: 'a part of type image',
    field: 'message.parts[0].type',
    edit: setPart(0, { type: 'image', text: 'not a text part' }),
  },
  {
    id: '2.5/file-bytes-base64-no-prefix',
    what: 'Base64 with a data: prefix',
    field: 'message.parts[1].file.bytes',
    edit: (m, t) =>
      setPart(1, fileWith({ name: 'a.txt', mimeType: t, bytes: `data:${t};base64,aGk=` }))(m, t),
  },
];

// One check per requirement, its cases in the order above (the likeliest client mistake first).
for (const id of [...new Set(INVALID.map((k) => k.id))]) {
  const cases = INVALID.filter((k) => k.id === id);
  verifies(
    id,
    `a message with ${cases.map((k) => k.what).join(', or ')}: -32602 with data.field ${cases[0]!.field}`,
    async (c) => {
      await c.each(
        'each invalid value',
        cases,
        async (fieldCase) => {
          const { what, field } = fieldCase;
          const ex = await c.rpc('message/send', brokenParams(c, fieldCase));
          c.check(`${what}: error.code`, errorOf(ex)?.code, ERROR_CODES.INVALID_PARAMS);
          c.check(`${what}: error.data.field`, errorData(ex)?.field, field);
          c.check(`${what}: error.data.details`, errorData(ex)?.details, is.nonEmptyString());
          c.check(`${what}: result`, resultOf(ex), is.absent());
        },
        SIDE_BY_SIDE,
      );
    },
    {
      concurrent: true,
      property: { requests: 1, turns: 0, cases: cases.length },
      crossSection: 'graded on the invalid message/send params table',
    },
  );
}
