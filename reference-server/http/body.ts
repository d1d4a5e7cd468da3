// Request body intake (spec 4; C-28 Content-Type, C-42 size cap): the cap is enforced while the
// body streams in, so an oversized upload is refused before it is buffered, and invalid UTF-8 is
// reported rather than silently replaced.
import type { IncomingMessage } from 'node:http';

export type BodyResult =
  { ok: true; text: string } | { ok: false; reason: 'too-large' | 'aborted' | 'invalid-utf8' };

/** C-28: `application/json`, parameters allowed, type and subtype case-insensitive. */
export function isJsonContentType(header: string | undefined): boolean {
  if (header === undefined) return false;
  return header.split(';')[0]?.trim().toLowerCase() === 'application/json';
}

/** Decoding without `stream` keeps no state between calls, so one decoder serves every request. */
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

export function readBody(req: IncomingMessage, limit: number): Promise<BodyResult> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit)
    return Promise.resolve({ ok: false, reason: 'too-large' });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (result: BodyResult): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onAbort);
      req.off('close', onAbort);
      resolve(result);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) finish({ ok: false, reason: 'too-large' });
      else chunks.push(chunk);
    };
    const onEnd = (): void => {
      try {
        finish({ ok: true, text: STRICT_UTF8.decode(Buffer.concat(chunks)) });
      } catch {
        finish({ ok: false, reason: 'invalid-utf8' });
      }
    };
    const onAbort = (): void => finish({ ok: false, reason: 'aborted' });
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onAbort);
    req.on('close', onAbort);
  });
}

/** How much of a refused upload is read and discarded, and for how long, before the socket is cut. */
export const DRAIN_LIMITS = Object.freeze({ bytes: 256 * 1024 * 1024, ms: 10_000 });

/**
 * Reads and discards the rest of a refused upload (C-42) so the client, still sending, receives the
 * 413 instead of a reset (EPIPE). Bounded in bytes and time so a slow or endless upload cannot hold
 * the connection: past either bound the socket is destroyed.
 */
export function drainRequest(req: IncomingMessage): void {
  let drained = 0;
  const cut = (): void => {
    clearTimeout(timer);
    req.socket.destroy();
  };
  const timer = setTimeout(cut, DRAIN_LIMITS.ms);
  timer.unref();
  req.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > DRAIN_LIMITS.bytes) cut();
  });
  req.once('end', () => clearTimeout(timer));
  req.once('close', () => clearTimeout(timer));
  req.resume();
}
