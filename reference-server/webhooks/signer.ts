// Webhook signatures (spec 6.4; ruling C-20): HMAC-SHA256 over the exact bytes sent, hex encoded,
// prefixed with `sha256=`. The receiver-side check is here too, for tests and tooling.
import { createHmac, timingSafeEqual } from 'node:crypto';

export function signBody(secret: string, body: Buffer): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** Constant-time comparison of a received X-Webhook-Signature with the expected one. */
export function verifySignature(secret: string, body: Buffer, header: string | undefined): boolean {
  if (header === undefined) return false;
  const expected = Buffer.from(signBody(secret, body), 'utf8');
  const actual = Buffer.from(header, 'utf8');
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
