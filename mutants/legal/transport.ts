// Transport an agent's deployment may choose (RFC 9110, RFC 9112; spec 4 `{base_url}`; rulings C-56,
// C-57): a base URL with a path behind a gateway, answers in a content coding, another reason phrase,
// a connection closed after every answer, a network that adds uneven latency, and HTTPS with a
// certificate of a private CA.
import { setTimeout as sleep } from 'node:timers/promises';
import { rm } from 'node:fs/promises';
import { makePki, startTlsTunnel } from '../../test/support/network-parts.ts';
import { legal } from '../legal-kit.ts';
import { startMutant, type ProxyCall } from '../proxy.ts';
import type { LegalVariant, MutantTarget } from '../types.ts';

const BASE_URL = 'spec 4 line 196 (`POST {base_url}/api/v1/a2a/{agent_id}`), C-57';
const CODINGS =
  'RFC 9110 section 8.4 (content codings), 12.5.3 (Accept-Encoding); C-56 (the harness advertises gzip, deflate, br)';

const isStream = (call: ProxyCall): boolean => /text\/event-stream/i.test(String(call.headers.accept ?? ''));

const REASONS: Record<number, string> = { 200: 'Fine', 401: 'Who Are You', 404: 'Nope', 429: 'Slow Down' };

/**
 * The agent served over HTTPS only, with a server certificate a private CA signed (made with openssl
 * for this run): TLS terminated in front of the proxy, every byte passed through. The harness is told
 * the CA with --ca-cert, as a user certifying such an agent does.
 */
async function startOverTls(): Promise<MutantTarget> {
  const pki = makePki();
  const target = await startMutant();
  try {
    const tunnel = await startTlsTunnel({
      upstreamPort: Number(new URL(target.baseUrl).port),
      cert: pki.serverCert,
      key: pki.serverKey,
    });
    return {
      ...target,
      baseUrl: `https://127.0.0.1:${tunnel.port}`,
      extraArgs: [...(target.extraArgs ?? []), '--ca-cert', pki.caCert],
      async close() {
        await tunnel.close();
        await target.close();
        await rm(pki.dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await target.close();
    throw error;
  }
}

const variants: LegalVariant[] = [
  {
    name: 'https-private-ca',
    varies: ['deployment.tls'],
    description:
      'the agent is reached only over HTTPS (https://127.0.0.1:port), its certificate signed by a private CA the harness is given with --ca-cert',
    allowedBy:
      'spec 1 line 7 ("JSON-RPC 2.0 over HTTP/HTTPS"); deployment: a certificate of a company CA on an internal agent',
    start: startOverTls,
  },
  legal({
    name: 'base-url-under-path',
    varies: ['http.base-url-path'],
    description:
      'the agent is reached through a gateway mounted at /gw/a2a: the target is http://host/gw/a2a and only paths under it reach the agent',
    allowedBy: BASE_URL,
    options: { basePath: '/gw/a2a' },
  }),
  legal({
    name: 'base-url-under-path-trailing-slash',
    varies: ['http.base-url-path'],
    description: 'as base-url-under-path, with the target given with a trailing slash: http://host/gw/a2a/',
    allowedBy: BASE_URL,
    options: { basePath: '/gw/a2a/' },
  }),
  legal({
    name: 'base-url-under-path-whole-path-in-errors',
    varies: ['http.base-url-path'],
    description:
      'an agent mounted at /agents/v3 that names the whole request path in error.data.path (/agents/v3/api/v1/...)',
    allowedBy: `${BASE_URL}; C-32 (data.path names the path)`,
    options: { basePath: '/agents/v3' },
    hooks: {
      json: {
        '*': (body: { error?: { data?: { path?: unknown } } }) => {
          const data = body?.error?.data;
          if (data !== undefined && typeof data.path === 'string') data.path = `/agents/v3${data.path}`;
        },
      },
    },
  }),
  legal({
    name: 'answers-gzip',
    varies: ['http.content-coding'],
    description: 'every answer, JSON and SSE, is gzip-encoded (SSE flushed per event)',
    allowedBy: CODINGS,
    hooks: { contentCoding: () => 'gzip' },
  }),
  legal({
    name: 'streams-br-answers-deflate',
    varies: ['http.content-coding'],
    description: 'SSE streams are br-encoded (flushed per event), JSON answers deflate-encoded',
    allowedBy: CODINGS,
    hooks: { contentCoding: (call, head) => (isStream(call) && head.status === 200 ? 'br' : 'deflate') },
  }),
  legal({
    name: 'http-status-text-other',
    varies: ['http.status-text'],
    description: 'status lines carry other reason phrases: `200 Fine`, `404 Nope`, `429 Slow Down`',
    allowedBy: 'RFC 9112 section 4 ("A client SHOULD ignore the reason-phrase content")',
    hooks: {
      head: (head) => {
        head.statusText = REASONS[head.status] ?? 'Whatever';
      },
    },
  }),
  legal({
    name: 'http-connection-close-every-answer',
    varies: ['http.connection-close'],
    description: 'every answer says `Connection: close` and the connection is closed after it',
    allowedBy: 'RFC 9112 section 9.6 (the "close" connection option), C-49',
    hooks: {
      head: (head) => {
        head.headers.connection = 'close';
      },
    },
  }),
  legal({
    name: 'link-latency-jitter',
    varies: ['deployment.network-latency'],
    description: 'every request reaches the agent 5 to 60 ms late, each by another amount',
    allowedBy: 'deployment: an agent reached across a network (spec 8 sets no response time)',
    hooks: {
      answer: async () => {
        await sleep(5 + Math.floor(Math.random() * 56));
        return false;
      },
    },
  }),
];

export default variants;
