// What a low-level network failure (undici and Node socket errors) carries: its code and message,
// and the body reader's own failure past its cap. faults.ts classifies them into the evidence's
// error kinds, so a check can tell an unreachable target (a harness failure) from a bad answer.

/** Thrown internally when a body passes its byte cap; never escapes the io layer. */
export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`response body exceeded ${limit} bytes; reading stopped`);
  }
}

/** The Node or undici code of a failure, from the error or its cause. */
export function errorCode(err: unknown): string | undefined {
  if (err === null || typeof err !== 'object') return undefined;
  const own = (err as { code?: unknown }).code;
  if (typeof own === 'string') return own;
  // undici wraps socket errors: the useful code is often on `cause`.
  return errorCode((err as { cause?: unknown }).cause);
}

/** A failure's message, with its cause's. */
export function errorMessage(err: unknown): string {
  if (err instanceof Error) {
    const cause = err.cause instanceof Error ? ` (${err.cause.message})` : '';
    return `${err.message}${cause}`;
  }
  return String(err);
}
