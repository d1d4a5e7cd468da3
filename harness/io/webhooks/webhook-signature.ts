// Verifies X-Webhook-Signature (spec 6.2, 6.4; C-20: computed over the exact bytes sent):
// `sha256=` + hex HMAC-SHA256 of the raw body keyed with the configured secret. Returns data
// (expected beside actual) for evidence rather than a bare boolean.
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface SignatureCheck {
  ok: boolean;
  expected: string;
  actual: string | undefined;
  /** Why it failed: missing header, several headers, wrong prefix, or a mismatch. */
  reason?: 'missing' | 'multiple' | 'prefix' | 'mismatch';
}

const PREFIX = 'sha256=';

export function signatureFor(rawBody: Buffer, secret: string): string {
  return PREFIX + createHmac('sha256', secret).update(rawBody).digest('hex');
}

export function verifySignature(
  rawBody: Buffer,
  secret: string,
  header: string | string[] | undefined,
): SignatureCheck {
  const expected = signatureFor(rawBody, secret);
  if (header === undefined) return { ok: false, expected, actual: undefined, reason: 'missing' };
  if (Array.isArray(header)) return { ok: false, expected, actual: header.join(', '), reason: 'multiple' };
  if (!header.startsWith(PREFIX)) return { ok: false, expected, actual: header, reason: 'prefix' };
  // Hex is case-insensitive; compare the lower-cased digest in constant time.
  const a = Buffer.from(header.slice(PREFIX.length).toLowerCase());
  const b = Buffer.from(expected.slice(PREFIX.length));
  const ok = a.length === b.length && timingSafeEqual(a, b);
  return ok ? { ok, expected, actual: header } : { ok, expected, actual: header, reason: 'mismatch' };
}
