// Spec 7 notes 2 and 4 with C-03: JSON-RPC-level errors come with HTTP 200 and application/json;
// transport-level conditions (401, 404, 405, 415; C-23, C-28, C-32, C-33) with their status and still
// a JSON-RPC error body; a deterministic error is never a 5xx (clients retry only those).
import { validate } from '../../schemas/registry.ts';
import { ERROR_CODES, is, suiteFile, verifies } from '../support/index.ts';
import { header } from '../support/calls.ts';
import { pathValue } from '../support/card.ts';
import { sendText } from '../support/messages.ts';
import { errorOf } from '../support/rpc.ts';
import { declareSample } from '../support/samples.ts';
import { ERROR_CASES, eachError, errorMember, type ErrorAnswer, type ErrorCase } from './error-cases.ts';

suiteFile({
  cost: { requests: 0, turns: 0 },
  // The checks read the provoked answers (error-cases.ts, one promise per case) or send their own body.
  concurrent: true,
});

const JSON_RPC_LEVEL = (e: ErrorCase) => !e.transport;
const TRANSPORT_LEVEL = (e: ErrorCase) => e.transport;
const EVERY = () => true;

/** A check that reads the provoked errors `filter` keeps, its first one from `sample`. */
function readsErrors(filter: (e: ErrorCase) => boolean, sample: string) {
  return {
    cost: { requests: 0, turns: 0 },
    samples: [sample],
    property: { requests: 1, turns: 0, cases: ERROR_CASES.filter(filter).length },
  };
}
const FIRST_JSON_RPC = declareSample('the answer to the first provoked JSON-RPC-level error', {
  requests: 1,
  turns: 0,
});
const FIRST_TRANSPORT = declareSample('the answer to the first provoked transport-level error', {
  requests: 1,
  turns: 0,
});

/** Media type without parameters, lower-cased (C-28 allows charset). */
function mediaType(a: ErrorAnswer): string | undefined {
  return header(a.ex, 'content-type')?.split(';')[0]?.trim().toLowerCase();
}

verifies(
  '7/jsonrpc-errors-http-200',
  'JSON-RPC-level errors come with HTTP 200 and application/json',
  async (c) => {
    await eachError(c, JSON_RPC_LEVEL, (a) => {
      c.check(`${a.errorCase.name}: HTTP status`, a.status, 200);
      c.check(`${a.errorCase.name}: Content-Type`, mediaType(a), 'application/json');
    });
  },
  readsErrors(JSON_RPC_LEVEL, FIRST_JSON_RPC),
);

verifies(
  '7/transport-errors-http-status',
  'transport-level conditions use their HTTP status and code',
  async (c) => {
    await eachError(
      c,
      TRANSPORT_LEVEL,
      (a) => {
        c.check(`${a.errorCase.name}: HTTP status`, a.status, a.errorCase.status);
        c.check(`${a.errorCase.name}: error.code`, errorMember(a)?.code, is.oneOf(a.errorCase.codes));
        c.check(`${a.errorCase.name}: Content-Type`, mediaType(a), 'application/json');
      },
      'keep',
    );
  },
  readsErrors(TRANSPORT_LEVEL, FIRST_TRANSPORT),
);

const NOT_ALLOWED = (e: ErrorCase) => e.status === 405;

verifies(
  '7/transport-errors-http-status',
  'a 405 names the allowed methods (Allow: POST)',
  async (c) => {
    await eachError(
      c,
      NOT_ALLOWED,
      (a) => {
        const allow = (header(a.ex, 'allow') ?? '').toUpperCase();
        c.check(
          `${a.errorCase.name}: Allow`,
          allow,
          is.where('a list containing POST', (v) => /\bPOST\b/.test(v as string)),
        );
      },
      'keep',
    );
  },
  { property: { requests: 1, turns: 0, cases: ERROR_CASES.filter(NOT_ALLOWED).length } },
);

// A body bigger than this is not worth sending for one status line.
const MAX_BODY_SENT = 8 * 1024 * 1024;

verifies(
  '7/transport-errors-http-status',
  'a request body over the limit gets 413 (C-42)',
  async (c) => {
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
  },
  { cost: { requests: 1, turns: 0 } },
);

verifies(
  '7/error-body-always-jsonrpc',
  'every provoked error, whatever its status, has a JSON-RPC error body',
  async (c) => {
    await eachError(c, EVERY, (a) => {
      c.check(
        `${a.errorCase.name} (HTTP ${String(a.status)}): body parsed as JSON`,
        a.ex.response?.parseError,
        is.absent(),
      );
      const v = validate('jsonrpc-error-response', a.json);
      // The members inside error.data are graded by the requirement of each code, not here.
      const errors = v.valid ? [] : v.errors.filter((e) => !e.path.startsWith('error.data.'));
      c.check(`${a.errorCase.name}: jsonrpc-error-response schema errors (outside error.data)`, errors, []);
    });
  },
  readsErrors(EVERY, FIRST_JSON_RPC),
);

verifies(
  '7/no-5xx-for-deterministic-errors',
  'no provoked deterministic error is sent with a 5xx status',
  async (c) => {
    await eachError(
      c,
      EVERY,
      (a) => {
        c.check(
          `${a.errorCase.name}: HTTP status`,
          a.status,
          is.where('below 500', (v) => typeof v === 'number' && v < 500),
        );
      },
      'keep',
    );
  },
  readsErrors(EVERY, FIRST_JSON_RPC),
);
