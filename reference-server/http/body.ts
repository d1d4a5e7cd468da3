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
        finish({ ok: true, text: new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks)) });
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
