// Reading and grading JSON-RPC errors (spec 7; C-14, C-22, C-26): the error of an answer that came as
// plain JSON or as one SSE event, its `data` object, the -32602 Invalid params expectations (data.details
// naming the field, C-22's limit fields) and a refusal's code and field for expected-vs-actual records.
import { is, type AnsweredExchange, type CheckContext } from '../../harness/check/index.ts';
import { ERROR_CODES } from '../../schemas/error-codes.ts';
import { isObject } from '../../schemas/json.ts';
import type { Answer } from './calls.ts';
import { answerOf, errorOf, resultOf, type JsonObject } from './rpc.ts';
import { checkSchema } from './schemas.ts';

/**
 * The JSON-RPC error object of an answer: a plain JSON body, or the only (first) event of an SSE stream
 * (C-26), whether read by answer() or recorded as an exchange.
 */
export function answerError(a: Answer | AnsweredExchange): JsonObject | undefined {
  const body = 'served' in a ? (Array.isArray(a.json) && a.eventStream ? a.json[0] : a.json) : answerOf(a);
  return isObject(body) && isObject(body.error) ? body.error : undefined;
}

/** `error.data` when it is an object. */
export function errorData(ex: AnsweredExchange): JsonObject | undefined {
  const data = errorOf(ex)?.data;
  return isObject(data) ? data : undefined;
}

/** The error code and data.field of a refused call, for expected-vs-actual records. */
export function refusal(ex: AnsweredExchange): { code: unknown; field: unknown } {
  return { code: errorOf(ex)?.code, field: errorData(ex)?.field };
}

/** A `details` text that names a field (C-14): a non-empty string mentioning its last segment. */
export function namesField(leaf: string) {
  return (actual: unknown): boolean => typeof actual === 'string' && actual.includes(leaf);
}

/**
 * C-14: -32602 with data.details. `field` is checked too when `strict` (the requirement's own level
 * covers data.field: SHOULD ids); under a MUST id it is only noted, since C-14 grades it SHOULD.
 */
export function expectInvalidParams(
  c: CheckContext,
  ex: AnsweredExchange,
  field: string,
  strict: boolean,
  label = '',
): void {
  const at = label === '' ? '' : `${label}: `;
  const error = answerError(ex);
  const data = isObject(error?.data) ? error.data : undefined;
  c.check(`${at}error.code`, error?.code, ERROR_CODES.INVALID_PARAMS);
  c.check(`${at}error.data.details`, data?.details, is.nonEmptyString());
  if (strict) c.check(`${at}error.data.field`, data?.field, field);
  else if (data?.field !== field) {
    c.info(`${at}error.data.field is ${JSON.stringify(data?.field)}, C-14 rules "${field}"`);
  }
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
