// The floor of message/send: a plain node:http server that reads the JSON-RPC body, parses it and
// answers it re-serialised (result = the params). No validation, no task: the cost of HTTP + JSON.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serveChild } from './ipc.ts';

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    let body: string;
    try {
      const request = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        id?: unknown;
        params?: unknown;
      };
      body = JSON.stringify({ jsonrpc: '2.0', id: request.id ?? null, result: request.params ?? null });
    } catch {
      body = JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
    }
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
    res.end(body);
  });
});

server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  serveChild({ url: `http://127.0.0.1:${port}/api/v1/a2a/floor` }, {}, async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
});
