// 2.4 Part and 2.5 File: request parts need a type of "text" or "file" and the field that type names;
// a file needs name, mimeType and plain Base64 bytes (C-14: -32602, data.field at SHOULD level).
// Reply parts are read from a real result. File checks are gated on capabilities.fileUpload (C-41).
import { randomUUID } from 'node:crypto';
import { isObject } from '../../schemas/json.ts';
import { is, suiteFile, typeOf, verifies, type CheckContext } from '../support/index.ts';
import { acceptedMimeType } from '../support/card.ts';
import { expectInvalidParams } from '../support/errors.ts';
import { textPart } from '../support/messages.ts';
import { errorOf, resultOf, type JsonObject } from '../support/rpc.ts';
import { sentAndStreamed, sharedSample } from '../support/samples.ts';
import { statusOf } from '../support/tasks.ts';

suiteFile({
  cost: { requests: 1, turns: 0 },
  concurrent: true,
});

async function sendParts(c: CheckContext, parts: unknown[]) {
  return c.rpc('message/send', { message: { role: 'user', messageId: randomUUID(), parts } });
}

function file(c: CheckContext, omit?: string, bytes = 'aGVsbG8='): JsonObject {
  const f: JsonObject = { name: 'hello.txt', mimeType: acceptedMimeType(c), bytes };
  if (omit !== undefined) delete f[omit];
  return f;
}

verifies('2.4/part-type-required', 'a part without type gets -32602 with details', async (c) => {
  expectInvalidParams(c, await sendParts(c, [{ text: 'no type' }]), 'message.parts[0].type', false);
});

verifies(
  '2.4/part-type',
  'parts of type "image", "data" or "TEXT" get -32602 naming their type field',
  async (c) => {
    for (const type of ['image', 'data', 'TEXT']) {
      const ex = await sendParts(c, [textPart('first part is fine'), { type, text: 'x' }]);
      expectInvalidParams(c, ex, 'message.parts[1].type', true, `type "${type}"`);
    }
  },
);

verifies('2.4/text-part-needs-text', 'a text part without text gets -32602 with details', async (c) => {
  expectInvalidParams(c, await sendParts(c, [{ type: 'text' }]), 'message.parts[0].text', false);
});

verifies('2.4/text-part-needs-text', 'a text part with an empty text is accepted', async (c) => {
  const ex = await sendParts(c, [textPart('')]);
  c.check('error', errorOf(ex), is.absent());
  c.check('type of result.id', typeOf(resultOf(ex)?.id), 'string');
});

verifies('2.4/file-part-needs-file', 'a file part without file gets -32602 with details', async (c) => {
  expectInvalidParams(c, await sendParts(c, [{ type: 'file' }]), 'message.parts[0].file', false);
});

const replies = sharedSample(
  'message/send result and message/stream events',
  { requests: 5, turns: 4 },
  async (c) => {
    const { send, streamed = [] } = await sentAndStreamed(c, 'reply parts sample');
    return [send, ...streamed];
  },
);

verifies(
  '2.4/reply-part-shape',
  'every reply part has a string type, and text parts a string text',
  async (c) => {
    const messages = (await replies(c)).map((r) => statusOf(r)?.message).filter(isObject);
    if (messages.length === 0)
      c.notExercised('no result or event carried status.message (no task completed)');
    messages.forEach((m, i) => {
      c.require(`agent message ${i + 1}: type of parts`, typeOf(m.parts), 'array');
      (m.parts as unknown[]).forEach((p, k) => {
        const part = isObject(p) ? p : {};
        c.check(`message ${i + 1} part ${k}: type of type`, typeOf(part.type), 'string');
        if (part.type === 'text')
          c.check(`message ${i + 1} part ${k}: type of text`, typeOf(part.text), 'string');
      });
    });
  },
);

for (const field of ['name', 'mimeType', 'bytes'] as const) {
  const id = {
    name: '2.5/file-name-required',
    mimeType: '2.5/file-mime-type-required',
    bytes: '2.5/file-bytes-required',
  }[field];
  verifies(id, `a file without ${field} gets -32602 with details`, async (c) => {
    const ex = await sendParts(c, [{ type: 'file', file: file(c, field) }]);
    expectInvalidParams(c, ex, `message.parts[0].file.${field}`, false);
  });
}

const BAD_BYTES: ReadonlyArray<[string, string]> = [
  ['a data: URL prefix', 'data:text/plain;base64,aGVsbG8='],
  ['a character outside the Base64 alphabet', 'aGVs*G8='],
  ['URL-safe Base64 characters', 'aGVs_-8='],
];

verifies(
  '2.5/file-bytes-base64-no-prefix',
  'bytes with a data: prefix or outside Base64 get -32602 on bytes',
  async (c) => {
    for (const [label, bytes] of BAD_BYTES) {
      const parts = [textPart('a file follows'), { type: 'file', file: file(c, undefined, bytes) }];
      expectInvalidParams(
        c,
        await sendParts(c, parts),
        'message.parts[1].file.bytes',
        true,
        `bytes with ${label}`,
      );
    }
  },
);

verifies('2.5/file-bytes-base64-no-prefix', 'plain Base64 bytes without a prefix are accepted', async (c) => {
  const ex = await sendParts(c, [{ type: 'file', file: file(c) }]);
  c.check('error', errorOf(ex), is.absent());
  c.check('type of result.id', typeOf(resultOf(ex)?.id), 'string');
});
