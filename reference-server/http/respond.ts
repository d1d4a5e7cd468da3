// Writing plain JSON responses (C-03): every answer, errors included, is a complete JSON-RPC
// response with Content-Type application/json; transport conditions add their HTTP status.
import type { ServerResponse } from 'node:http';
import type { RpcResponse } from '../rpc/errors.ts';

export function sendJson(
  res: ServerResponse,
  status: number,
  body: RpcResponse,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    'Content-Type': 'application/json',
    'Content-Length': String(Buffer.byteLength(text)),
    'Cache-Control': 'no-store',
  });
  res.end(text);
}
