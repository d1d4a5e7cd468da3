// A target that is no A2A agent ends the run at the probe (harness/runner/not-an-agent.ts): a web
// server answering HTML, text or 501 to every POST exits 2 with what it answered and the fix, a 401
// or 403 names the credential options, and an agent whose card method alone is broken still runs.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { probeTarget } from '../../harness/runner/probe.ts';
import { READ_ATTEMPTS } from '../../harness/io/target/faults.ts';
import { runArgv, runCli } from '../support/cli-run.ts';

type Handler = (method: string | undefined, res: ServerResponse) => void;

const servers: Server[] = [];
const dir = mkdtempSync(join(tmpdir(), 'a2a-not-an-agent-'));
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  rmSync(dir, { recursive: true, force: true });
});

/** A loopback server; `handle` gets the JSON-RPC method of each POST (when its body is JSON). */
async function serve(handle: Handler): Promise<{ url: string; seen: string[] }> {
  const seen: string[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let method: string | undefined;
      try {
        method = (JSON.parse(Buffer.concat(chunks).toString()) as { method?: string }).method;
      } catch {
        method = undefined;
      }
      seen.push(`${req.method} ${req.url} ${method}`);
      handle(method, res);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

const HTML_501 =
  '<!DOCTYPE HTML>\n<html lang="en">\n<head><title>Error response</title></head>\n<body><h1>Error response</h1><p>Error code: 501</p></body></html>\n';

const httpServer: Handler = (_m, res) => {
  res.writeHead(501, { 'content-type': 'text/html;charset=utf-8' });
  res.end(HTML_501);
};

const probe = (url: string, auth: { apiKey?: string; bearer?: string } = { apiKey: 'key-123' }) =>
  probeTarget({ baseUrl: url, agentId: 'a', auth, timeoutMs: 5000 }, undefined, { measureTurn: true });

describe('the probe tells a web server from an agent', () => {
  it('a server answering 501 HTML to every POST: could not run, naming status, type, first bytes and the fix', async () => {
    const { url, seen } = await serve(httpServer);
    const outcome = await probe(url);
    expect(outcome.couldNotRun).toMatch(/^the target is not an A2A agent: no JSON-RPC answer from /);
    expect(outcome.couldNotRun).toContain(`${url}/api/v1/a2a/a`);
    expect(outcome.couldNotRun).toContain('HTTP 501, text/html;charset=utf-8');
    expect(outcome.couldNotRun).toContain('"<!DOCTYPE HTML> <html lang=\\"en\\">');
    expect(outcome.couldNotRun).toMatch(/message\/send got the same\). Check --target .* and --agent-id$/);
    // The card (a read, sent again after an error page: READ_ATTEMPTS in all) and one message/send.
    expect(seen).toHaveLength(READ_ATTEMPTS + 1);
  });

  it('a server answering plain text 200: could not run, the text shown', async () => {
    const { url } = await serve((_m, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('hello from nginx');
    });
    const outcome = await probe(url);
    expect(outcome.couldNotRun).toContain('HTTP 200, text/plain, 16 bytes: "hello from nginx"');
  });

  it('an empty answer without a content type is said so', async () => {
    const { url } = await serve((_m, res) => {
      res.writeHead(204);
      res.end();
    });
    expect((await probe(url)).couldNotRun).toContain('HTTP 204, no content-type, empty body');
  });

  it('an agent whose card method answers a page but message/send speaks JSON-RPC still runs', async () => {
    const { url } = await serve((method, res) => {
      if (method === 'agent/authenticatedExtendedCard') return httpServer(method, res);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: 1, result: { id: 't', status: { state: 'completed' } } }));
    });
    const outcome = await probe(url);
    expect(outcome.couldNotRun).toBeNull();
    expect(outcome.card).toBeNull();
  });

  it('401 and 403 name the credential options, the one given first', async () => {
    const { url } = await serve((_m, res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32010, message: 'Unauthorized' } }));
    });
    const withKey = await probe(url, { apiKey: 'key-123' });
    expect(withKey.couldNotRun).toMatch(
      /^credential refused by the target \(HTTP 401, code -32010\): check the key given with --api-key .* or give --bearer <token>/,
    );
    const withBearer = await probe(url, { bearer: 'token-123' });
    expect(withBearer.couldNotRun).toMatch(/check the token given with --bearer .* or give --api-key <key>/);
    const gateway = await serve((_m, res) => {
      res.writeHead(403, { 'content-type': 'text/html' });
      res.end('<html><body>Forbidden by gateway</body></html>');
    });
    const page = await probe(gateway.url, { apiKey: 'key-123' });
    expect(page.couldNotRun).toMatch(
      /^credential refused by the target \(HTTP 403\) \(answered HTTP 403, text\/html, .*Forbidden by gateway.*\): check the key given with --api-key/,
    );
    expect(page.couldNotRun).toMatch(/--secret-header$/);
  });
});

describe('run against a web server that is no agent', () => {
  it('exits 2 with what it answered, no stack trace, and writes every report', async () => {
    const { url, seen } = await serve(httpServer);
    const reports = join(dir, 'reports');
    const ran = await runCli(runArgv(url, 'a', 'key-123', '--out', reports));
    expect(ran.code).toBe(2);
    expect(ran.stdout).toMatch(
      /exit 2: run could not be done: the target is not an A2A agent: .*HTTP 501, text\/html/,
    );
    expect(ran.output).not.toMatch(/harness error|TypeError|\n\s+at /);
    expect(seen).toHaveLength(READ_ATTEMPTS + 1);
    const report = JSON.parse(readFileSync(join(reports, 'report.json'), 'utf8')) as { exitCode: number };
    expect(report.exitCode).toBe(2);
    for (const name of ['junit.xml', 'report.html', 'summary.md', 'badge.svg', 'console.txt', 'report.har'])
      expect(existsSync(join(reports, name)), name).toBe(true);
  });
});
