// Spec 7 notes 2 and 4 with C-03: JSON-RPC-level errors come with HTTP 200 and application/json;
// transport-level conditions (401, 404, 405, 415; C-23, C-28, C-32, C-33) with their status and still
// a JSON-RPC error body; a deterministic error is never a 5xx (clients retry only those).
import { validate } from '../../schemas/registry.ts';
import { ERROR_CODES, is, suiteFile, verifies } from '../support/index.ts';
import { header } from '../support/calls.ts';
import { pathValue } from '../support/card.ts';
import { sendText } from '../support/messages.ts';
import { errorOf } from '../support/rpc.ts';
import { errorMember, gradable, provokeAll, type ErrorAnswer } from './error-cases.ts';

suiteFile({
  cost: { requests: 3, turns: 0 },
});

/** Media type without parameters, lower-cased (C-28 allows charset). */
function mediaType(a: ErrorAnswer): string | undefined {
  return header(a.ex, 'content-type')?.split(';')[0]?.trim().toLowerCase();
}

verifies(
  '7/jsonrpc-errors-http-200',
  'JSON-RPC-level errors come with HTTP 200 and application/json',
  async (c) => {
    for (const a of gradable(await provokeAll(c, (e) => !e.transport), c)) {
      c.check(`${a.errorCase.name}: HTTP status`, a.status, 200);
      c.check(`${a.errorCase.name}: Content-Type`, mediaType(a), 'application/json');
    }
  },
);

verifies(
  '7/transport-errors-http-status',
  'transport-level conditions use their HTTP status and code',
  async (c) => {
    for (const a of await provokeAll(c, (e) => e.transport)) {
      c.check(`${a.errorCase.name}: HTTP status`, a.status, a.errorCase.status);
      c.check(`${a.errorCase.name}: error.code`, errorMember(a)?.code, is.oneOf(a.errorCase.codes));
      c.check(`${a.errorCase.name}: Content-Type`, mediaType(a), 'application/json');
    }
  },
);

verifies('7/transport-errors-http-status', 'a 405 names the allowed methods (Allow: POST)', async (c) => {
  for (const a of await provokeAll(c, (e) => e.status === 405)) {
    const allow = (header(a.ex, 'allow') ?? '').toUpperCase();
    c.check(
      `${a.errorCase.name}: Allow`,
      allow,
      is.where('a list containing POST', (v) => /\bPOST\b/.test(v as string)),
    );
  }
});

// A body bigger than this is not worth sending for one status line.
const MAX_BODY_SENT = 8 * 1024 * 1024;

verifies('7/transport-errors-http-status', 'a request body over the limit gets 413 (C-42)', async (c) => {
  const maxFileSize = pathValue(c.card, 'capabilities.fileUpload.maxFileSize');
  if (typeof maxFileSize !== 'number')
    c.notExercised('the card states no fileUpload.maxFileSize to derive the body limit from');
  const limit = Math.ceil(((maxFileSize as number) * 4) / 3) * 8 + 1024 * 1024;
  if (limit + 1 > MAX_BODY_SENT) {
    c.notExercised(
      `the body limit derived from the card (C-42: ${limit} bytes) is above the ${MAX_BODY_SENT} bytes this check sends`,
    );
  }
  const text = 'x'.repeat(limit + 1);
  const ex = await sendText(c, text);
  c.check('HTTP status', ex.response.status, 413);
  c.check('error.code', errorOf(ex)?.code, ERROR_CODES.INVALID_REQUEST);
});

verifies(
  '7/error-body-always-jsonrpc',
  'every provoked error, whatever its status, has a JSON-RPC error body',
  async (c) => {
    for (const a of gradable(await provokeAll(c), c)) {
      c.check(
        `${a.errorCase.name} (HTTP ${String(a.status)}): body parsed as JSON`,
        a.ex.response?.parseError,
        is.absent(),
      );
      const v = validate('jsonrpc-error-response', a.json);
      // The members inside error.data are graded by the requirement of each code, not here.
      const errors = v.valid ? [] : v.errors.filter((e) => !e.path.startsWith('error.data.'));
      c.check(`${a.errorCase.name}: jsonrpc-error-response schema errors (outside error.data)`, errors, []);
    }
  },
);

verifies(
  '7/no-5xx-for-deterministic-errors',
  'no provoked deterministic error is sent with a 5xx status',
  async (c) => {
    for (const a of await provokeAll(c)) {
      c.check(
        `${a.errorCase.name}: HTTP status`,
        a.status,
        is.where('below 500', (v) => typeof v === 'number' && v < 500),
      );
    }
  },
);
