// Spec 7 and JSON-RPC 2.0 section 5.1: the error object (code integer, message string, data an object
// when present: C-40) on every error the catalogue provokes, JSON-RPC-level and transport-level alike;
// plus the standard codes on cases the envelope suite does not send (C-02, C-13).
import { ERROR_CODES, is, SIDE_BY_SIDE, suiteFile, typeOf, verifies } from '../support/index.ts';
import type { CheckContext } from '../support/index.ts';
import { CARD, errorOf, responseOf } from '../support/rpc.ts';
import { declareSample } from '../support/samples.ts';
import { ERROR_CASES, eachError, errorMember } from './error-cases.ts';

suiteFile({
  cost: { requests: 1, turns: 0 },
  // The checks read the provoked answers (error-cases.ts, one promise per case) or send their own.
  concurrent: true,
});

const FIRST_ERROR = declareSample('the answer to the first provoked error', { requests: 1, turns: 0 });

/** The checks that read the provoked errors: the first case's answer is shared, each further one may be. */
const READS_ERRORS = {
  cost: { requests: 0, turns: 0 },
  samples: [FIRST_ERROR],
  property: { requests: 1, turns: 0, cases: ERROR_CASES.length },
} as const;

/** `run` on each provoked error (an enumerated property; the answers are shared by the file's checks). */
function everyError(c: CheckContext, run: Parameters<typeof eachError>[2]) {
  return eachError(c, () => true, run);
}

verifies(
  '7/error-object',
  'every provoked error carries an error object with code and message',
  async (c) => {
    await everyError(c, (a) => {
      const error = errorMember(a);
      c.check(`${a.errorCase.name}: type of error`, typeOf(error), 'object');
      c.check(
        `${a.errorCase.name}: error has code and message`,
        error === undefined ? undefined : Object.keys(error),
        is.where(
          'keys including code and message',
          (k) => Array.isArray(k) && k.includes('code') && k.includes('message'),
        ),
      );
    });
  },
  READS_ERRORS,
);

verifies(
  '7/error-code-integer',
  'every provoked error has an integer code',
  async (c) => {
    await everyError(c, (a) => {
      c.check(
        `${a.errorCase.name}: error.code`,
        errorMember(a)?.code,
        is.where('an integer', (v) => Number.isInteger(v)),
      );
    });
  },
  READS_ERRORS,
);

verifies(
  '7/error-message-string',
  'every provoked error has a non-empty message string',
  async (c) => {
    await everyError(c, (a) => {
      c.check(`${a.errorCase.name}: error.message`, errorMember(a)?.message, is.nonEmptyString());
    });
  },
  READS_ERRORS,
);

verifies(
  '7/error-data-object',
  'every provoked error.data is absent or an object',
  async (c) => {
    // Only answers that carry an error object say anything about error.data (a missing error object
    // fails 7/error-object); with none, this rule was not exercised rather than passed.
    let errors = 0;
    await everyError(c, (a) => {
      const error = errorMember(a);
      if (error === undefined) return;
      errors += 1;
      c.check(
        `${a.errorCase.name}: type of error.data`,
        'data' in error ? typeOf(error.data) : 'absent',
        is.oneOf(['object', 'absent']),
      );
    });
    if (errors === 0) c.notExercised('no provoked request was answered with an error object');
  },
  READS_ERRORS,
);

verifies('7/parse-error-code', 'a body of plain text gets -32700 with id null', async (c) => {
  const ex = await c.rpc(CARD, undefined, { rawBody: 'hello, not json' });
  c.check('error.code', errorOf(ex)?.code, ERROR_CODES.PARSE_ERROR);
  c.check('id', responseOf(ex)?.id, null);
});

/** Valid JSON that is no request object; an object id first, the mistake a client likeliest makes. */
const NOT_REQUESTS = [
  ['an object id', `{"jsonrpc":"2.0","id":{"n":1},"method":"${CARD}"}`],
  ['a JSON string', '"hello"'],
  ['a JSON number', '42'],
  ['a boolean id', `{"jsonrpc":"2.0","id":true,"method":"${CARD}"}`],
  ['a numeric method', '{"jsonrpc":"2.0","id":"m1","method":42}'],
] as const;

verifies(
  '7/invalid-request-code',
  'valid JSON that is not a request object gets -32600',
  async (c) => {
    await c.each(
      'each body that is not a request object',
      NOT_REQUESTS,
      async ([label, body]) => {
        const ex = await c.rpc(CARD, undefined, { rawBody: body });
        c.check(`${label}: error.code`, errorOf(ex)?.code, ERROR_CODES.INVALID_REQUEST);
        c.check(`${label}: result`, responseOf(ex)?.result, is.absent());
      },
      SIDE_BY_SIDE,
    );
  },
  { property: { requests: 1, turns: 0, cases: NOT_REQUESTS.length } },
);

verifies(
  '7/method-not-found-code',
  'an unknown method with an integer id echoes the integer (C-13)',
  async (c) => {
    const ex = await c.rpc('tasks/conformanceNoSuchMethod', {}, { id: 41 });
    const code = errorOf(ex)?.code;
    // C-13 lets a server refuse numeric ids (-32600); only a -32601 answer must echo the integer id.
    if (code === ERROR_CODES.INVALID_REQUEST)
      c.notApplicable('the target refuses integer ids (-32600, C-13)');
    c.check('error.code', code, ERROR_CODES.METHOD_NOT_FOUND);
    c.check('id', responseOf(ex)?.id, 41);
  },
);
