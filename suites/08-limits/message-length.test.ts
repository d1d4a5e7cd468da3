// Spec 8 and 2.14: the card reports its per-agent limits (C-46); limits.maxMessageLength counts the
// code points of all text parts of a message (C-22: over it, -32602 with field, limit and actual);
// the reference's request body bound (C-42, INFO: HTTP 413 with -32600). The checks run
// concurrently: the large requests overlap.
import { ERROR_CODES, is, suiteFile, verifies, type CheckContext } from '../support/index.ts';
import { fileUploadOf, requireCardLimit } from '../support/card.ts';
import { expectOverLimit, expectSendAccepted } from '../support/errors.ts';
import { messageParams, textPart } from '../support/messages.ts';
import { CARD, resultOf } from '../support/rpc.ts';

suiteFile({
  cost: { requests: 1, turns: 1 },
  // Messages of up to a few MB, and a body over the reference bound: each upload takes a second over a
  // slow link, so the file starts with the long ones rather than ending the run alone.
  span: 'long',
});

// Longest message (in code points) the checks send: a few MB of JSON at most.
const MAX_EXERCISED_LENGTH = 2_000_000;
// One code point, two UTF-16 code units: a server counting UTF-16 (JavaScript's length) overcounts it.
const ASTRAL = '\u{1F600}';

function requireLength(c: CheckContext): number {
  const limit = requireCardLimit(c, 'maxMessageLength');
  if (limit > MAX_EXERCISED_LENGTH) {
    c.notExercised(`limits.maxMessageLength ${limit} is above the ${MAX_EXERCISED_LENGTH} code points sent`);
  }
  return limit;
}

verifies(
  '8/limits-reported',
  'the card reports the three per-agent limits as positive numbers',
  async (c) => {
    const ex = await c.rpc(CARD, {});
    const limits = (resultOf(ex)?.limits ?? {}) as Record<string, unknown>;
    const positive = is.where('a positive number', (v) => typeof v === 'number' && v > 0);
    for (const name of ['requestsPerMinute', 'concurrentTasks', 'maxMessageLength']) {
      c.check(`limits.${name}`, limits[name], positive);
    }
  },
  { concurrent: true },
);

verifies(
  '8/max-message-length',
  'one code point over the limit: -32602 with field, limit and actual',
  async (c) => {
    const limit = requireLength(c);
    const head = 'a'.repeat(Math.floor(limit / 2));
    const tail = 'b'.repeat(limit + 1 - head.length);
    const ex = await c.rpc('message/send', messageParams([textPart(head), textPart(tail)]));
    expectOverLimit(c, ex, { field: 'message.parts[1].text', limit, actual: limit + 1 });
  },
  { concurrent: true },
);

verifies(
  '8/max-message-length',
  'exactly the limit in code points, emoji included, is accepted',
  async (c) => {
    const limit = requireLength(c);
    const astral = Math.min(1000, Math.floor(limit / 2));
    const parts = [textPart(ASTRAL.repeat(astral)), textPart('c'.repeat(limit - astral))];
    expectSendAccepted(c, await c.rpc('message/send', messageParams(parts)));
  },
  { concurrent: true },
);

verifies(
  '8/reference-bounds',
  'a body over the reference bound gets HTTP 413 and -32600 (C-42)',
  async (c) => {
    const maxFileSize = fileUploadOf(c).maxFileSize ?? 0;
    const bound = Math.ceil((maxFileSize * 4) / 3) * 8 + 1024 * 1024;
    if (bound > 128 * 1024 * 1024) c.notExercised(`the reference body bound for this card is ${bound} bytes`);
    // A valid request padded with whitespace: a target without the bound answers it normally.
    const envelope = Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 'bound-1', method: CARD, params: {} }));
    const body = Buffer.concat([envelope, Buffer.alloc(bound + 1 - envelope.length, 0x20)]);
    // The server may answer before reading the body and close the connection; the client's write can
    // then fail (EPIPE) before the answer is read, so a few attempts are made.
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      const ex = await c.client.rpc(CARD, undefined, { rawBody: body, timeoutMs: 30_000 });
      if (ex.response === undefined && attempt < 3) {
        c.info(`attempt ${attempt}: no answer (${ex.error?.message ?? 'unknown'})`);
        continue;
      }
      const json = ex.response?.json as { error?: { code?: unknown } } | undefined;
      c.check('HTTP status', ex.response?.status ?? `no answer: ${ex.error?.message}`, 413);
      c.check('error.code', json?.error?.code, ERROR_CODES.INVALID_REQUEST);
      return;
    }
  },
  { concurrent: true },
);
