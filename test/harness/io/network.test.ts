// The network options (harness/io/target/network.ts, harness/options.ts): --header and --secret-header in
// every form (flag, A2A_HEADERS lines, config list or object), the headers the harness sets refused,
// secret values by name or mark, the proxy chosen from --proxy or the environment (NO_PROXY, loopback
// never), unusable PEM files refused before the run, and the TLS hints of a failed connection.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { headerSecrets, networkSecrets, proxyFor, resolveProxy } from '../../../harness/io/target/network.ts';
import { tlsHint } from '../../../harness/io/target/connection-seen.ts';
import { headerLine, isSecretHeaderName } from '../../../core/redaction.ts';
import { ConfigError, readEnv, resolveOptions, type RawOptions } from '../../../harness/options.ts';
import { makePki } from '../../support/network-parts.ts';

const none: RawOptions = {};
const resolve = (flag: RawOptions, env: NodeJS.ProcessEnv = {}, processEnv: NodeJS.ProcessEnv = {}) =>
  resolveOptions({ flag, env: readEnv(env), file: none }, processEnv);

describe('--header and --secret-header', () => {
  it('reads them from flags, A2A_HEADERS lines and config objects alike, names lower-cased', () => {
    expect(resolve({ header: ['X-Tenant: acme', 'x-trace:1'] }).network.headers).toEqual({
      'x-tenant': 'acme',
      'x-trace': '1',
    });
    expect(resolve({}, { A2A_HEADERS: 'X-Tenant: acme\nX-Region: eu\n' }).network.headers).toEqual({
      'x-tenant': 'acme',
      'x-region': 'eu',
    });
    const file = resolveOptions({ flag: none, env: none, file: { header: { 'X-Tenant': 'acme' } } });
    expect(file.network.headers).toEqual({ 'x-tenant': 'acme' });
  });

  it('marks --secret-header values secret, and any header whose name says it is one', () => {
    const o = resolve({
      header: ['X-Tenant: acme', 'X-Gateway-Key: gk-1'],
      secretHeader: ['X-Route: r-2'],
    });
    expect(o.network.secretHeaders).toEqual(['x-route']);
    expect(headerSecrets(o.network).sort()).toEqual(['gk-1', 'r-2']);
    for (const name of ['x-gateway-key', 'x-auth-tenant', 'cookie', 'x-session', 'x-secret', 'x-token'])
      expect(isSecretHeaderName(name), name).toBe(true);
    for (const name of ['x-tenant', 'x-region', 'x-request-id'])
      expect(isSecretHeaderName(name), name).toBe(false);
    expect(headerLine('x-tenant', 'acme', false)).toBe('x-tenant: acme');
    expect(headerLine('x-tenant', 'acme', true)).toBe('x-tenant: [redacted]');
  });

  it('refuses the headers the harness sets (credentials, media types) and the transport ones, naming why', () => {
    expect(() => resolve({ header: ['Authorization: Bearer x'] })).toThrow(
      /may not set authorization.*--bearer/,
    );
    expect(() => resolve({ header: ['X-API-Key: k'] })).toThrow(/may not set x-api-key.*--api-key/);
    expect(() => resolve({ header: ['Content-Type: text/plain'] })).toThrow(/may not set content-type/);
    expect(() => resolve({ secretHeader: ['Accept: */*'] })).toThrow(/--secret-header may not set accept/);
    expect(() => resolve({ header: ['Host: other'] })).toThrow(/the HTTP client sets it/);
    expect(() => resolve({ header: ['no colon'] })).toThrow(ConfigError);
  });
});

describe('the proxy', () => {
  it('takes HTTPS_PROXY / HTTP_PROXY (either case) with NO_PROXY, and never proxies loopback', () => {
    const p = resolveProxy(undefined, {
      https_proxy: 'http://u:p%40ss@proxy:3128',
      NO_PROXY: '.internal.example,db:5432',
    })!;
    expect(p.source).toBe('environment');
    expect(proxyFor('https://agents.example.com', p)).toBe('http://u:p%40ss@proxy:3128');
    expect(proxyFor('http://agents.example.com', p)).toBeUndefined(); // no HTTP_PROXY
    expect(proxyFor('https://a.internal.example', p)).toBeUndefined();
    expect(proxyFor('https://db:5432', p)).toBeUndefined();
    expect(proxyFor('https://db:5433', p)).toBe('http://u:p%40ss@proxy:3128');
    for (const loop of [
      'https://127.0.0.1:8443',
      'https://localhost',
      'https://[::1]:9',
      'https://127.1.2.3',
    ])
      expect(proxyFor(loop, p), loop).toBeUndefined();
    expect(resolveProxy(undefined, { NO_PROXY: 'x' })).toBeUndefined();
  });

  it('sends everything, loopback included, through --proxy; its credentials are secrets and never shown', () => {
    const o = resolve({ proxy: 'http://user:pa55word@proxy:3128' }, {}, { HTTPS_PROXY: 'http://other:1' });
    expect(o.network.proxy).toMatchObject({ source: 'option', noProxy: '' });
    expect(proxyFor('http://127.0.0.1:8080', o.network.proxy)).toBe('http://user:pa55word@proxy:3128');
    expect(networkSecrets(o.network)).toContain('pa55word');
    expect(() => resolve({ proxy: 'socks5://proxy:1080' })).toThrow(/http:\/\/ or https:\/\/ proxy URL/);
  });
});

describe('TLS files', () => {
  it('refuses a missing file, a file without a certificate and a key without its certificate (exit 2)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'a2a-tls-'));
    writeFileSync(join(dir, 'empty.pem'), 'not a pem\n');
    expect(() => resolve({ caCert: join(dir, 'missing.pem') })).toThrow(
      /--ca-cert: cannot read the CA bundle/,
    );
    expect(() => resolve({ caCert: join(dir, 'empty.pem') })).toThrow(/holds no PEM certificate/);
    expect(() => resolve({ clientKey: join(dir, 'empty.pem') })).toThrow(/--client-key needs --client-cert/);
  });

  it('refuses a client key that does not match its certificate, and takes matching ones (A2A_INSECURE too)', () => {
    const pki = makePki();
    expect(() => resolve({ clientCert: pki.clientCert, clientKey: pki.serverKey })).toThrow(/cannot be used/);
    const o = resolve(
      { clientCert: pki.clientCert, clientKey: pki.clientKey, caCert: pki.caCert },
      { A2A_INSECURE: 'true' },
    );
    expect(o.network).toMatchObject({
      clientCert: pki.clientCert,
      clientKey: pki.clientKey,
      caCert: pki.caCert,
      insecure: true,
    });
    expect(() => resolve({}, { A2A_INSECURE: 'maybe' })).toThrow(/insecure must be true or false/);
  }, 30_000);
});

describe('tlsHint', () => {
  it('names --ca-cert and --insecure for an unverified certificate, --client-cert for a refused handshake', () => {
    const hint = tlsHint({
      kind: 'other',
      message: 'unable to verify',
      code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
    });
    expect(hint).toMatch(/--ca-cert.*--insecure/);
    expect(tlsHint({ kind: 'other', message: 'x', code: 'ERR_TLS_CERT_ALTNAME_INVALID' })).toMatch(
      /--ca-cert/,
    );
    expect(
      tlsHint({ kind: 'other', message: 'x', code: 'ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED' }),
    ).toMatch(/--client-cert/);
    expect(tlsHint({ kind: 'connect', message: 'refused', code: 'ECONNREFUSED' })).toBeUndefined();
  });
});
