// Streams a response body into memory up to a byte cap, and decodes it for the record. Reading
// stops at the cap (the rest is never buffered), so a target sending 100 MB cannot exhaust the
// harness's memory; JSON-RPC bodies (spec 2.2) are small, anything past the cap is a finding. A
// body in a content coding (gzip, deflate, br) is decoded as it arrives (decodedBody).
import { Readable, pipeline, type Transform } from 'node:stream';
import zlib from 'node:zlib';
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

// ---- content codings (RFC 9110 section 8.4, 12.5.3; CLARIFICATIONS.md C-56) ----------------------

/** The content codings the harness decodes, advertised as `Accept-Encoding` on every JSON-RPC request. */
export const ACCEPT_ENCODING = 'gzip, deflate, br';

/**
 * The content codings of a `Content-Encoding` value, in the order they were applied, lower case;
 * `identity` (no coding) is left out.
 */
export function contentCodings(header: string | string[] | undefined): string[] {
  const value = Array.isArray(header) ? header.join(',') : (header ?? '');
  return value
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
}

/**
 * A body the harness cannot decode; reading it fails with this. `unsupported`: a coding the harness
 * does not decode at all (else the bytes did not decode in the coding they named).
 */
export class ContentCodingError extends Error {
  constructor(
    message: string,
    readonly unsupported = false,
  ) {
    super(message);
  }
}

/** What a coded body is: an answer to the harness's request, or a webhook delivery it received. */
export type CodedBody = 'answer' | 'delivery';

/** `deflate` is the zlib format (RFC 9110 8.4.1.2), but servers also send raw deflate: the first two bytes tell. */
function isZlibHeader(b: Buffer): boolean {
  return b.length >= 2 && (b[0]! & 0x0f) === 8 && ((b[0]! << 8) | b[1]!) % 31 === 0;
}

/**
 * A decoder for one coding. `Z_SYNC_FLUSH` on finish: a stream the client closes mid-way (an SSE
 * stream after its final event) yields what arrived instead of an "unexpected end of file".
 */
function decoderFor(coding: string, head: Buffer, advertised: string | null, about: CodedBody): Transform {
  const flush = { finishFlush: zlib.constants.Z_SYNC_FLUSH };
  if (coding === 'gzip' || coding === 'x-gzip') return zlib.createGunzip(flush);
  if (coding === 'br')
    return zlib.createBrotliDecompress({ finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH });
  if (coding === 'deflate')
    return isZlibHeader(head) ? zlib.createInflate(flush) : zlib.createInflateRaw(flush);
  // Said as it was: a raw request (a malformed-HTTP probe, a delivery to a receiver) advertises nothing,
  // and then any coding is the other side's right (RFC 9110 12.5.3), not its mistake.
  // A delivery is a request: the receiver says what it accepts on its answers (C-58).
  const sent =
    about === 'delivery'
      ? `its receiver says Accept-Encoding: ${ACCEPT_ENCODING} on every answer`
      : advertised === null
        ? 'the request sent no Accept-Encoding, so any coding was allowed'
        : `it sent Accept-Encoding: ${advertised}`;
  throw new ContentCodingError(
    `the ${about} has Content-Encoding ${coding}, which the harness does not decode (it decodes ${ACCEPT_ENCODING}; ${sent})`,
    true,
  );
}

/** `source` with one coding removed, chunk by chunk as it arrives (an SSE event is decoded when its bytes are in). */
async function* decodeOne(
  coding: string,
  source: AsyncIterable<Uint8Array>,
  advertised: string | null,
  about: CodedBody,
): AsyncGenerator<Buffer> {
  const it = source[Symbol.asyncIterator]();
  const held: Buffer[] = [];
  let head = Buffer.alloc(0);
  // Two bytes tell deflate's two formats apart; a body shorter than that is decoded as it is.
  while (head.length < 2) {
    const next = await it.next();
    if (next.done === true) break;
    const chunk = Buffer.from(next.value.buffer, next.value.byteOffset, next.value.byteLength);
    held.push(chunk);
    head = Buffer.concat([head, chunk]);
  }
  if (head.length === 0) return;
  let decoder: Transform;
  try {
    decoder = decoderFor(coding, head, advertised, about);
  } catch (error) {
    await it.return?.();
    throw error;
  }
  const input = Readable.from(
    (async function* () {
      yield* held;
      for (;;) {
        const next = await it.next();
        if (next.done === true) return;
        yield Buffer.from(next.value.buffer, next.value.byteOffset, next.value.byteLength);
      }
    })(),
  );
  // Leaving early (a byte cap, a closed stream) destroys the decoder, then the input, then the body.
  input.once('close', () => void it.return?.()?.catch(() => undefined));
  pipeline(input, decoder, () => undefined);
  try {
    for await (const out of decoder) yield out as Buffer;
  } catch (error) {
    if (
      error instanceof Error &&
      /^Z_|ERR_BROTLI|ERR__ERROR/.test(String((error as { code?: unknown }).code))
    )
      throw new ContentCodingError(
        `the ${coding} content coding of the ${about} does not decode: ${error.message}`,
      );
    throw error;
  }
}

/**
 * The body of a response with its content codings removed (RFC 9110 8.4: the last one applied is
 * removed first), as it arrives; `body` itself when it has none. A caller's byte cap applies to the
 * decoded bytes, so a small compressed answer cannot grow past it in memory.
 */
export function decodedBody(
  contentEncoding: string | string[] | undefined,
  body: AsyncIterable<Uint8Array>,
  /** The request's Accept-Encoding (default: the harness's own, ACCEPT_ENCODING); null: none was sent. */
  advertised: string | null = ACCEPT_ENCODING,
  about: CodedBody = 'answer',
): AsyncIterable<Uint8Array> {
  let out = body;
  for (const coding of contentCodings(contentEncoding).reverse())
    out = decodeOne(coding, out, advertised, about);
  return out;
}

/** A body read whole, with its content codings removed (decodedWhole). */
export interface DecodedWhole {
  /** The decoded bytes, at most the cap. */
  body: Buffer;
  /** Decoded bytes seen: past the cap, the decoding stopped there (`truncated`). */
  bytes: number;
  truncated: boolean;
  /** Why the bytes did not decode; `body` then holds what did. */
  error?: ContentCodingError;
}

/**
 * `bytes` (a body already read, e.g. a webhook delivery) with its content codings removed, keeping at
 * most `maxBytes` decoded bytes: decoding stops there, so a small body that inflates without bound
 * (a compression bomb) costs no more than the cap. Never throws for what the bytes are.
 */
export async function decodedWhole(
  contentEncoding: string | string[] | undefined,
  bytes: Buffer,
  maxBytes: number,
  about: CodedBody,
): Promise<DecodedWhole> {
  const chunks: Buffer[] = [];
  let kept = 0;
  let seen = 0;
  let truncated = false;
  let error: ContentCodingError | undefined;
  const source = (async function* () {
    yield bytes;
  })();
  try {
    for await (const raw of decodedBody(contentEncoding, source, null, about)) {
      const chunk = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
      seen += chunk.length;
      const room = maxBytes - kept;
      chunks.push(chunk.subarray(0, Math.max(0, room)));
      kept += Math.min(Math.max(0, room), chunk.length);
      if (chunk.length > room) {
        truncated = true;
        break;
      }
    }
  } catch (e) {
    // Whatever a decoder throws is about these bytes: said, never thrown (a receiver records it).
    error =
      e instanceof ContentCodingError
        ? e
        : new ContentCodingError(
            `the ${about} does not decode: ${e instanceof Error ? e.message : String(e)}`,
          );
  }
  const out: DecodedWhole = { body: Buffer.concat(chunks, kept), bytes: seen, truncated };
  if (error !== undefined) out.error = error;
  return out;
}
