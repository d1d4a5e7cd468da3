// File handling (spec 2.5, 4.9): each variant changes how file parts of a message are taken.
import { mutant } from '../define.ts';
import { sendJson, type ProxyCall } from '../proxy.ts';
import type { Variant } from '../types.ts';

type Part = { type?: unknown; file?: Record<string, unknown> };

const SENDS = new Set(['message/send', 'message/stream']);

function fileParts(call: ProxyCall): Part[] {
  if (call.method === undefined || !SENDS.has(call.method)) return [];
  const parts = (call.params?.message as { parts?: unknown } | undefined)?.parts;
  return Array.isArray(parts)
    ? (parts as Part[]).filter((p) => p?.type === 'file' && typeof p.file === 'object')
    : [];
}

/** A request hook that edits each file object in place and forwards the edited request. */
function editFiles(edit: (file: Record<string, unknown>) => void): (call: ProxyCall) => unknown {
  return (call) => {
    const files = fileParts(call);
    if (files.length === 0) return undefined;
    for (const p of files) if (p.file !== null && p.file !== undefined) edit(p.file);
    return call.json;
  };
}

const variants: Variant[] = [
  mutant({
    breaks: '4.9/files-alongside-text',
    slug: 'two-files-refused',
    area: 'files',
    description: 'a message with more than one file part is refused with -32602',
    hooks: {
      answer: (call, res) => {
        if (fileParts(call).length < 2) return false;
        const data = { details: 'only one file part per message', field: 'message.parts' };
        return sendJson(res, {
          jsonrpc: '2.0',
          id: call.id,
          error: { code: -32602, message: 'Invalid params', data },
        });
      },
    },
  }),
  mutant({
    breaks: '2.5/file-bytes-base64-no-prefix',
    slug: 'data-url-accepted',
    area: 'files',
    description: 'file bytes with a data: URL prefix are accepted (the prefix is stripped)',
    hooks: {
      request: editFiles((f) => {
        if (typeof f.bytes === 'string') f.bytes = f.bytes.replace(/^data:[^,]*,/, '');
      }),
    },
  }),
  mutant({
    breaks: '2.5/file-name-required',
    slug: 'name-defaulted',
    area: 'files',
    description: 'a file without name is accepted under the name "file"',
    hooks: {
      request: editFiles((f) => {
        if (!('name' in f)) f.name = 'file';
      }),
    },
  }),
  mutant({
    breaks: '2.5/file-mime-type-required',
    slug: 'mime-type-defaulted',
    area: 'files',
    description: 'a file without mimeType is accepted as application/octet-stream',
    hooks: {
      request: editFiles((f) => {
        if (!('mimeType' in f)) f.mimeType = 'application/octet-stream';
      }),
    },
  }),
];

/** Caught too; left out of the detection test to keep it within its time budget (`npm run mutants -- --extended`). */
const EXTENDED = new Set([
  '2-5-file-name-required--name-defaulted',
  '2-5-file-mime-type-required--mime-type-defaulted',
]);

export const extended = variants.filter((v) => EXTENDED.has(v.name));
export default variants.filter((v) => !EXTENDED.has(v.name));
