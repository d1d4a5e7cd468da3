// Certifying an agent where it lives, against real parts on loopback: the reference server behind an
// HTTPS gateway whose certificate a private CA made at test time signed, the same behind a gateway that
// requires a client certificate, and a forward proxy that counts what it relayed. Each run certifies
// one requirement (--only) through the CLI in process: what is proven is the way there, not the suites.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { Har } from 'har-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  ConformanceReport,
  ReportConnection,
  ReportTlsSession,
  ReportTraffic,
} from '../../schemas/generated/types.ts';
import { main } from '../../harness/cli/program.ts';
import { startBundledTarget, type BundledTarget } from '../../harness/runner/bundled-target.ts';
import {
  makePki,
  startForwardProxy,
  startTlsFront,
  type ForwardProxy,
  type Pki,
  type TlsFront,
} from '../support/network-parts.ts';
import { launchChromium } from '../support/offline-page.ts';

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
  out: string;
}

// One MUST requirement (a JSON-RPC call) and the INFO one that opens a stream (SSE in report.har).
const ONLY = '1/json-rpc-over-http,1/sync-or-streaming-calls';
const dir = mkdtempSync(join(tmpdir(), 'a2a-network-'));
let runs = 0;

let pki: Pki;
let agent: BundledTarget;
let front: TlsFront;
let gateway: TlsFront;
let proxy: ForwardProxy;

async function run(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Ran> {
  let stdout = '';
  let stderr = '';
  const out = join(dir, `run-${(runs += 1)}`);
  const io = { out: (t: string) => void (stdout += t), err: (t: string) => void (stderr += t), env };
  const argv = ['run', '--agent-id', agent.agentId, '--only', ONLY, '--evidence', 'all', '--out', out];
  const code = await main(['node', 'a2a-conformance', ...argv, ...args], io);
  return { code, stdout, stderr, out };
}

const apiKey = (): NodeJS.ProcessEnv => ({ A2A_API_KEY: agent.auth.apiKey });
/** report.json of a run that probed an HTTPS target (its connection and traffic are there). */
type Doc = ConformanceReport & {
  connection: ReportConnection & { tls: ReportTlsSession };
  traffic: ReportTraffic;
};
const report = (r: Ran): Doc => JSON.parse(readFileSync(join(r.out, 'report.json'), 'utf8')) as Doc;
const readHar = (path: string): Har => JSON.parse(readFileSync(path, 'utf8')) as Har;
/** The HAR 1.2 JSON schemas (har-schema: one file per HAR object, by $id). */
const HAR_SCHEMAS = createRequire(import.meta.url)('har-schema') as Record<string, object>;

beforeAll(async () => {
  pki = makePki();
  agent = await startBundledTarget();
  const upstreamPort = Number(new URL(agent.baseUrl).port);
  front = await startTlsFront({ upstreamPort, cert: pki.serverCert, key: pki.serverKey });
  gateway = await startTlsFront({
    upstreamPort,
    cert: pki.shortCert,
    key: pki.shortKey,
    clientCa: pki.caCert,
  });
  proxy = await startForwardProxy();
}, 60_000);

afterAll(async () => {
  await Promise.allSettled([front?.close(), gateway?.close(), proxy?.close()]);
  await agent?.close();
});

describe('TLS with a private CA', () => {
  it('fails to connect without --ca-cert: exit 2, naming --ca-cert and --insecure', async () => {
    const r = await run(['--target', `https://127.0.0.1:${front.port}`], apiKey());
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(/exit 2: run could not be done: target unreachable: .*--ca-cert.*--insecure/);
    expect(report(r).reachability.reachable).toBe(false);
  }, 60_000);

  it('passes with --ca-cert, and records the TLS session the harness saw', async () => {
    const r = await run(['--target', `https://127.0.0.1:${front.port}`, '--ca-cert', pki.caCert], apiKey());
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const tls = report(r).connection.tls;
    expect(tls).toMatchObject({ verified: true, verification: 'ca-cert', clientCertificate: false });
    expect(tls.protocol).toMatch(/^TLSv1\.[23]$/);
    expect(tls.subject).toContain('CN=agent.test');
    expect(tls.issuer).toContain('CN=a2a test CA');
    expect(tls.daysLeft).toBeGreaterThan(390);
    expect(report(r).connection.notes).toEqual([]);
    expect(report(r).options.caCert).toBe(pki.caCert);
  }, 60_000);

  it('passes with --insecure, and every report says so at the top and in the verdict line', async () => {
    const r = await run(['--target', `https://127.0.0.1:${front.port}`], { ...apiKey(), A2A_INSECURE: '1' });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const doc = report(r);
    expect(doc.options.insecure).toBe(true);
    expect(doc.compliance.insecure).toBe(true);
    expect(doc.connection.tls).toMatchObject({ verified: false, verification: 'off' });
    const verdict = r.stdout.split('\n').find((l) => l.startsWith('MUST-compliant'))!;
    expect(verdict).toContain('TLS not verified (--insecure)');
    const first = (file: string, n: number): string =>
      readFileSync(join(r.out, file), 'utf8').split('\n').slice(0, n).join('\n');
    expect(first('console.txt', 2)).toMatch(/WARN TLS verification off \(--insecure\)/);
    expect(first('summary.md', 3)).toMatch(/\*\*WARN\*\* TLS verification off \(--insecure\)/);
    expect(readFileSync(join(r.out, 'report.html'), 'utf8')).toMatch(
      /<h1>[^<]*<\/h1>\s*<noscript>.*<\/noscript>\s*<ul id="connection"><li class="warn"><strong>WARN<\/strong> TLS verification off \(--insecure\)/,
    );
    expect(readFileSync(join(r.out, 'junit.xml'), 'utf8')).toContain('TLS not verified (--insecure)');
  }, 60_000);
});

describe('a gateway that requires a client certificate', () => {
  it('refuses the run without --client-cert (exit 2, naming it)', async () => {
    const r = await run(['--target', `https://127.0.0.1:${gateway.port}`, '--ca-cert', pki.caCert], apiKey());
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(/target unreachable: .*--client-cert/);
  }, 60_000);

  it('certifies with --client-cert/--client-key; a loopback target is never proxied by HTTPS_PROXY; a certificate near expiry is an info note', async () => {
    const tunnels = proxy.tunnels.length;
    const seen = gateway.seen.length;
    const r = await run(
      [
        '--target',
        `https://127.0.0.1:${gateway.port}`,
        '--client-cert',
        pki.clientCert,
        '--client-key',
        pki.clientKey,
      ],
      { ...apiKey(), A2A_CA_CERT: pki.caCert, HTTPS_PROXY: proxy.url },
    );
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const doc = report(r);
    const fresh = gateway.seen.slice(seen);
    expect(fresh.length).toBe(doc.traffic.requests);
    expect(fresh.every((s) => s.clientCn === 'harness-client')).toBe(true);
    expect(proxy.tunnels.length).toBe(tunnels);
    expect(doc.connection.proxy).toBeUndefined();
    expect(doc.connection.tls.clientCertificate).toBe(true);
    expect(doc.connection.notes).toEqual([
      expect.stringMatching(/^the agent's TLS certificate expires in 9 day\(s\)/),
    ]);
    expect(readFileSync(join(r.out, 'console.txt'), 'utf8')).toMatch(
      /INFO the agent's TLS certificate expires in 9 day/,
    );
  }, 60_000);
});

describe('proxies and gateway headers', () => {
  const TENANT = 'acme-tenant';
  const GATEWAY_KEY = 'gk-9f8e7d6c5b4a';
  const ROUTE = 'route-7c6b5a4d3e2f';
  let r: Ran;
  let seenBefore: number;
  let tunnelsBefore: number;

  beforeAll(async () => {
    seenBefore = front.seen.length;
    tunnelsBefore = proxy.tunnels.length;
    // agent.test resolves nowhere but in the proxy: the run can only reach it through the proxy.
    r = await run(
      [
        '--target',
        `https://agent.test:${front.port}`,
        '--ca-cert',
        pki.caCert,
        '--header',
        `X-Tenant: ${TENANT}`,
        '--header',
        `X-Gateway-Key: ${GATEWAY_KEY}`,
      ],
      { ...apiKey(), HTTPS_PROXY: proxy.url, A2A_SECRET_HEADERS: `X-Route: ${ROUTE}` },
    );
  }, 60_000);

  it('sends every request to the target through HTTPS_PROXY: the proxy relayed each one the report counts', () => {
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const doc = report(r);
    const fresh = front.seen.slice(seenBefore);
    expect(proxy.tunnels.slice(tunnelsBefore).every((t) => t === `agent.test:${front.port}`)).toBe(true);
    expect(proxy.tunnels.length).toBeGreaterThan(tunnelsBefore);
    // Each request the gateway saw came on a connection the proxy opened, and there are as many as
    // the report counts.
    expect(fresh.length).toBe(doc.traffic.requests);
    expect(fresh.every((s) => proxy.upstreamPorts.has(s.remotePort))).toBe(true);
    expect(doc.connection.proxy).toEqual({ url: proxy.url, source: 'environment' });
  });

  it('sends --header and --secret-header on every request, and never a secret value in any report', () => {
    const fresh = front.seen.slice(seenBefore);
    for (const s of fresh) {
      expect(s.headers['x-tenant']).toBe(TENANT);
      expect(s.headers['x-gateway-key']).toBe(GATEWAY_KEY);
      expect(s.headers['x-route']).toBe(ROUTE);
    }
    for (const file of readdirSync(r.out)) {
      const text = readFileSync(join(r.out, file), 'utf8');
      expect(text, file).not.toContain(GATEWAY_KEY);
      expect(text, file).not.toContain(ROUTE);
      expect(text, file).not.toContain(agent.auth.apiKey);
    }
    expect(r.stdout).not.toContain(GATEWAY_KEY);
    expect(report(r).options.headers).toEqual([
      `x-tenant: ${TENANT}`,
      'x-gateway-key: [redacted]',
      'x-route: [redacted]',
    ]);
  });

  it('writes report.har: HAR 1.2 valid against its schema, one entry per exchange the report kept', () => {
    const har = readHar(join(r.out, 'report.har'));
    // har-schema is draft-06; Ajv 8 reads it without checking the meta-schema.
    const ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false });
    addFormatsModule.default(ajv);
    for (const s of Object.values(HAR_SCHEMAS)) ajv.addSchema(s);
    const valid = ajv.validate('har.json#', har);
    expect(ajv.errors ?? [], 'HAR schema errors').toEqual([]);
    expect(valid).toBe(true);
    const doc = report(r);
    const exchanges = doc.requirements.flatMap((q) => q.checks.flatMap((c) => c.evidence.exchanges));
    expect(har.log.entries.length).toBe(exchanges.length);
    expect(har.log.entries.length).toBeGreaterThan(0);
    for (const e of har.log.entries) {
      expect(e.request.url).toMatch(new RegExp(`^https://agent\\.test:${front.port}/`));
      expect(e.request.headers).toContainEqual({ name: 'x-gateway-key', value: '[redacted]' });
    }
    // The stream of message/stream is there as its text.
    const stream = har.log.entries.find((e) => e.response.content.mimeType.startsWith('text/event-stream'));
    expect(stream?.response.content.text).toMatch(/^data: /m);
  });

  it('report.har loads in Chromium: a page there is answered from it (Playwright routeFromHAR)', async () => {
    const harPath = join(r.out, 'report.har');
    const har = readHar(harPath);
    const entry = har.log.entries.find(
      (e) => e.request.method === 'POST' && e.response.content.mimeType.startsWith('application/json'),
    )!;
    const origin = new URL(entry.request.url).origin;
    const browser = await launchChromium();
    try {
      const context = await browser.newContext();
      // The page is on the agent's origin so that its fetch is same-origin; nothing goes to the network.
      await context.route(`${origin}/`, (route) =>
        route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>report.har</title>' }),
      );
      await context.routeFromHAR(harPath, { url: `${origin}/api/**`, notFound: 'abort' });
      const page = await context.newPage();
      await page.goto(`${origin}/`);
      const answer = await page.evaluate(
        async ({ url, body }) => {
          const res = await fetch(url, {
            method: 'POST',
            body,
            headers: { 'content-type': 'application/json' },
          });
          return { status: res.status, text: await res.text() };
        },
        { url: entry.request.url, body: entry.request.postData!.text! },
      );
      expect(answer).toEqual({ status: entry.response.status, text: entry.response.content.text });
    } finally {
      await browser.close();
    }
  }, 60_000);

  it('keeps a host NO_PROXY names direct: nothing reaches the proxy (agent.test resolves nowhere else)', async () => {
    const tunnels = proxy.tunnels.length;
    const direct = await run(['--target', `https://agent.test:${front.port}`, '--ca-cert', pki.caCert], {
      ...apiKey(),
      HTTPS_PROXY: proxy.url,
      NO_PROXY: '.example.com,agent.test',
    });
    expect(direct.code).toBe(2);
    expect(direct.stdout).toMatch(/target unreachable: .*(ENOTFOUND|EAI_AGAIN)/);
    expect(proxy.tunnels.length).toBe(tunnels);
  }, 60_000);
});

describe('--proxy', () => {
  it('sends every request, loopback included, through the given proxy: its count equals the report count', async () => {
    const before = proxy.requests.length;
    const r = await run(['--target', agent.baseUrl, '--proxy', proxy.url], apiKey());
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const doc = report(r);
    const relayed = proxy.requests.slice(before);
    expect(relayed.length).toBe(doc.traffic.requests);
    expect(relayed.every((q) => q.url.startsWith(`${agent.baseUrl}/api/v1/a2a/`))).toBe(true);
    expect(doc.connection.proxy).toEqual({ url: proxy.url, source: 'option' });
    expect(doc.options.proxy).toBe(proxy.url);
  }, 60_000);
});
