// CORS for browser clients (spec 5 last line, C-38): Access-Control-Allow-Origin on every response
// to an allowed Origin, and unauthenticated OPTIONS preflights answered 204.

export const CORS_ALLOW_METHODS = 'POST, OPTIONS';
export const CORS_ALLOW_HEADERS = 'Content-Type, Authorization, x-api-key, Accept';
export const CORS_EXPOSE_HEADERS = 'Retry-After, WWW-Authenticate';
export const CORS_MAX_AGE_SECONDS = '600';

/** Headers every response to this request carries. */
export function corsHeaders(
  origin: string | undefined,
  allowedOrigins: readonly string[],
): Record<string, string> {
  const wildcard = allowedOrigins.includes('*');
  // A listed-origins answer depends on the request's Origin, so caches must key on it.
  const headers: Record<string, string> = wildcard ? {} : { Vary: 'Origin' };
  if (origin === undefined) return headers;
  if (!wildcard && !allowedOrigins.includes(origin)) return headers;
  headers['Access-Control-Allow-Origin'] = wildcard ? '*' : origin;
  headers['Access-Control-Expose-Headers'] = CORS_EXPOSE_HEADERS;
  return headers;
}

/** The extra headers of a 204 preflight answer. */
export function preflightHeaders(): Record<string, string> {
  return {
    Allow: CORS_ALLOW_METHODS,
    'Access-Control-Allow-Methods': CORS_ALLOW_METHODS,
    'Access-Control-Allow-Headers': CORS_ALLOW_HEADERS,
    'Access-Control-Max-Age': CORS_MAX_AGE_SECONDS,
  };
}
