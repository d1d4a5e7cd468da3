// Maps low-level network failures (undici and Node socket errors) onto the evidence error kinds,
// so that a check can tell a target that is unreachable (a harness failure) from one that answered
// badly (a finding). Serves every spec section that the harness exercises over HTTP.
import type { IoError, IoErrorKind } from '../../../core/evidence.ts';

const CONNECT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
]);
const RESET_CODES = new Set([
  'ECONNRESET',
  'EPIPE',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
]);
const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);

/** Thrown internally when a body passes its byte cap; never escapes the io layer. */
export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`response body exceeded ${limit} bytes; reading stopped`);
  }
}

function errorCode(err: unknown): string | undefined {
  if (err === null || typeof err !== 'object') return undefined;
  const own = (err as { code?: unknown }).code;
  if (typeof own === 'string') return own;
  // undici wraps socket errors: the useful code is often on `cause`.
  return errorCode((err as { cause?: unknown }).cause);
}

function errorMessage(err: unknown): string {
  if (err instanceof Error) {
    const cause = err.cause instanceof Error ? ` (${err.cause.message})` : '';
    return `${err.message}${cause}`;
  }
  return String(err);
}

/**
 * Classifies a failure. `deadlineHit` is true when the harness's own total deadline aborted the
 * request, which is always a timeout whatever undici reports.
 */
export function classifyError(err: unknown, deadlineHit: boolean): IoError {
  const code = errorCode(err);
  const message = errorMessage(err);
  let kind: IoErrorKind = 'other';
  if (err instanceof BodyTooLargeError) kind = 'body-too-large';
  else if (deadlineHit) kind = 'timeout';
  else if (code !== undefined && CONNECT_CODES.has(code)) kind = 'connect';
  else if (code !== undefined && RESET_CODES.has(code)) kind = 'reset';
  else if (code !== undefined && TIMEOUT_CODES.has(code)) kind = 'timeout';
  return code === undefined ? { kind, message } : { kind, message, code };
}
