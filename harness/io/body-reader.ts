// Streams a response body into memory up to a byte cap, and decodes it for the record. Reading
// stops at the cap (the rest is never buffered), so a target sending 100 MB cannot exhaust the
// harness's memory; JSON-RPC bodies (spec 2.2) are small, anything past the cap is a finding.
import { BodyTooLargeError } from './io-errors.ts';

export interface BodyAccumulator {
  chunks: Buffer[];
  bytes: number;
}

/**
 * Reads `body` into `acc` (so a caller keeps the partial bytes when this throws). Throws
 * BodyTooLargeError once more than `maxBytes` arrive; the chunk that crosses the cap is kept only
 * up to the cap.
 */
export async function readCapped(
  body: AsyncIterable<Uint8Array>,
  acc: BodyAccumulator,
  maxBytes: number,
): Promise<void> {
  for await (const raw of body) {
    const chunk = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
    const room = maxBytes - acc.bytes;
    if (chunk.length > room) {
      if (room > 0) acc.chunks.push(chunk.subarray(0, room));
      acc.bytes += Math.max(room, 0);
      // Leaving the loop destroys the body stream and its socket: the rest is never read.
      throw new BodyTooLargeError(maxBytes);
    }
    acc.chunks.push(chunk);
    acc.bytes += chunk.length;
  }
}

const strictDecoder = new TextDecoder('utf-8', { fatal: true });
const lenientDecoder = new TextDecoder('utf-8');

/** Decodes bytes as UTF-8; invalid sequences become U+FFFD and are flagged. */
export function decodeUtf8(bytes: Buffer): { text: string; invalidUtf8: boolean } {
  try {
    return { text: strictDecoder.decode(bytes), invalidUtf8: false };
  } catch {
    return { text: lenientDecoder.decode(bytes), invalidUtf8: true };
  }
}

/** Parses JSON text, reporting failure as data rather than an exception. */
export function parseJson(text: string): { json?: unknown; parseError?: string } {
  if (text.trim().length === 0) return { parseError: 'empty body' };
  try {
    return { json: JSON.parse(text) as unknown };
  } catch (err) {
    return { parseError: err instanceof Error ? err.message : String(err) };
  }
}

/** Media type of a Content-Type value, lower-case, parameters dropped. */
export function mediaType(contentType: string | string[] | undefined): string | undefined {
  const value = Array.isArray(contentType) ? contentType[0] : contentType;
  if (value === undefined) return undefined;
  return value.split(';')[0]?.trim().toLowerCase();
}
