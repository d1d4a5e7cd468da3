// How the harness reaches a target where it lives: TLS trust (--ca-cert, --insecure), a client
// certificate for a gateway that requires mutual TLS (--client-cert, --client-key), a forward proxy
// (--proxy, or HTTPS_PROXY / HTTP_PROXY / NO_PROXY) and the extra headers a gateway needs (--header,
// --secret-header). The settings are plain data (they travel to the suites' workers); each process
// builds its undici dispatcher from them (undici's Agent and EnvHttpProxyAgent do the work).
import { readFileSync } from 'node:fs';
import { createSecureContext, rootCertificates } from 'node:tls';
import { Agent, EnvHttpProxyAgent, type Dispatcher } from 'undici';
import { ConfigError } from '../../../schemas/config-error.ts';
import { isSecretHeaderName, urlSecrets, withoutUserinfo } from '../../../core/redaction.ts';

/** A forward proxy for the target's requests, as resolved in the main process. */
export interface ProxySettings {
  /** `option`: --proxy (every request, loopback included); `environment`: HTTPS_PROXY / HTTP_PROXY. */
  source: 'option' | 'environment';
  /** Proxy for http: targets (URL as given, credentials included: never recorded). */
  http?: string;
  /** Proxy for https: targets. */
  https?: string;
  /** Hosts reached directly (NO_PROXY plus loopback); '' with --proxy. */
  noProxy: string;
}

/** What the run's requests to the target use besides the credentials: plain data, JSON-safe. */
export interface NetworkSettings {
  /** PEM bundle added to the default roots. */
  caCert?: string;
  /** No certificate verification at all. */
  insecure?: boolean;
  /** PEM client certificate (and key, when clientKey is absent) for mutual TLS. */
  clientCert?: string;
  clientKey?: string;
  proxy?: ProxySettings;
  /** Lower-case name -> value, sent on every request to the target. */
  headers?: Record<string, string>;
  /** Names (lower-case) of headers whose values are secret (redacted everywhere). */
  secretHeaders?: string[];
}

// Headers the harness sets for a check: the credentials (spec 5) and the media types (spec 4). A
// check that sends another value on purpose (a wrong Content-Type, no credential) would silently test
// something else if a --header replaced them: they are refused, with the option that sets them.
const HARNESS_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'x-api-key': 'the credential: use --api-key',
  authorization: 'the credential: use --bearer',
  'content-type': 'set by each check (spec 4)',
  accept: 'set by each check (spec 4)',
});
// Framing and connection headers belong to the HTTP client, never to a user.
const TRANSPORT_HEADERS = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'expect',
  'proxy-authorization',
  'proxy-connection',
]);

/**
 * `Name: value` pairs (curl's -H form; `name:value` too) as lower-case name -> value. `flag` names the
 * option in errors. `refuseHarnessHeaders`: refuse the headers the harness sets itself (run's --header).
 */
export function parseHeaders(
  pairs: readonly string[],
  flag = '--header',
  refuseHarnessHeaders = false,
): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const pair of pairs) {
    const colon = pair.indexOf(':');
    const name = colon < 0 ? '' : pair.slice(0, colon).trim().toLowerCase();
    if (!/^[!#$%&'*+.^_`|~0-9a-z-]+$/.test(name)) {
      throw new ConfigError(`${flag} must be name:value with an HTTP header name, got '${pair}'`);
    }
    const value = pair.slice(colon + 1).trim();
    if (/[\r\n\0]/.test(value)) throw new ConfigError(`${flag} ${name}: the value holds a line break`);
    if (refuseHarnessHeaders) {
      const why = HARNESS_HEADERS[name];
      if (why !== undefined) throw new ConfigError(`${flag} may not set ${name}: ${why}`);
      if (TRANSPORT_HEADERS.has(name))
        throw new ConfigError(`${flag} may not set ${name}: the HTTP client sets it`);
    }
    headers[name] = value;
  }
  return headers;
}

/** The values to redact: those of --secret-header and of every header whose name says it is a secret. */
export function headerSecrets(net: Pick<NetworkSettings, 'headers' | 'secretHeaders'> | undefined): string[] {
  const marked = new Set(net?.secretHeaders ?? []);
  return Object.entries(net?.headers ?? {})
    .filter(([name]) => marked.has(name) || isSecretHeaderName(name))
    .map(([, value]) => value)
    .filter((v) => v !== '');
}

/** Every secret of the network settings: secret header values and the proxy's credentials. */
export function networkSecrets(net: NetworkSettings | undefined): string[] {
  const out = headerSecrets(net);
  for (const u of [net?.proxy?.http, net?.proxy?.https]) if (u !== undefined) out.push(...urlSecrets(u));
  return [...new Set(out)];
}

/** A proxy URL as a report shows it: without user name and password, nor a trailing slash. */
export function withoutCredentials(proxyUrl: string): string {
  return withoutUserinfo(new URL(proxyUrl).href).replace(/\/$/, '');
}

const LOOPBACK_NO_PROXY = ['localhost', '127.0.0.1', '[::1]'];

/**
 * The proxy of the run: --proxy for every request (loopback included, NO_PROXY not consulted: the
 * user asked for it), else HTTPS_PROXY / HTTP_PROXY (either case) with NO_PROXY, never for loopback.
 */
export function resolveProxy(option: string | undefined, env: NodeJS.ProcessEnv): ProxySettings | undefined {
  if (option !== undefined) return { source: 'option', http: option, https: option, noProxy: '' };
  const pick = (...names: string[]): string | undefined =>
    names.map((n) => env[n]).find((v): v is string => v !== undefined && v.trim() !== '');
  const http = pick('http_proxy', 'HTTP_PROXY');
  const https = pick('https_proxy', 'HTTPS_PROXY');
  if (http === undefined && https === undefined) return undefined;
  for (const [name, value] of [
    ['HTTP_PROXY', http],
    ['HTTPS_PROXY', https],
  ] as const) {
    if (value !== undefined) checkProxyUrl(value, name);
  }
  const noProxy = [pick('no_proxy', 'NO_PROXY') ?? '', ...LOOPBACK_NO_PROXY]
    .filter((s) => s !== '')
    .join(',');
  const out: ProxySettings = { source: 'environment', noProxy };
  if (http !== undefined) out.http = http;
  if (https !== undefined) out.https = https;
  return out;
}

export function checkProxyUrl(value: string, name: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(
      `${name} must be a proxy URL such as http://proxy.example.com:3128, got '${withoutUserinfo(value)}'`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(
      `${name} must be an http:// or https:// proxy URL, got '${withoutCredentials(value)}'`,
    );
  }
  return value;
}

/** The proxy URL the settings would use for a target URL, or undefined when it goes direct. */
export function proxyFor(target: string, proxy: ProxySettings | undefined): string | undefined {
  if (proxy === undefined) return undefined;
  const url = new URL(target);
  const chosen = url.protocol === 'https:' ? (proxy.https ?? proxy.http) : proxy.http;
  if (chosen === undefined) return undefined;
  if (proxy.source === 'option') return chosen;
  if (isLoopback(url.hostname)) return undefined;
  const host = url.hostname.toLowerCase();
  const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
  for (const raw of proxy.noProxy.split(/[,\s]/)) {
    if (raw === '') continue;
    if (raw === '*') return undefined;
    const m = /^(.+):(\d+)$/.exec(raw);
    const entry = (m ? m[1]! : raw)
      .replace(/^\*?\./, '')
      .replace(/^\[(.*)\]$/, '$1')
      .toLowerCase();
    if (m && Number(m[2]) !== port) continue;
    if (host.replace(/^\[(.*)\]$/, '$1') === entry || host.endsWith(`.${entry}`)) return undefined;
  }
  return chosen;
}

/** localhost, 127.0.0.0/8 and ::1. */
export function isLoopback(hostname: string): boolean {
  const h = hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  return h === 'localhost' || h.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(h) || h === '::1';
}

const pemCache = new Map<string, string>();

function readPem(path: string, what: string, option: string): string {
  const cached = pemCache.get(path);
  if (cached !== undefined) return cached;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new ConfigError(`${option}: cannot read the ${what} ${path}: ${(e as Error).message}`);
  }
  pemCache.set(path, text);
  return text;
}

interface TlsOptions {
  ca?: string[];
  cert?: string;
  key?: string;
  rejectUnauthorized?: boolean;
}

/** The TLS options of a connection to the target (undici `connect` / `requestTls`). */
export function tlsOptions(net: NetworkSettings | undefined): TlsOptions {
  const out: TlsOptions = {};
  if (net === undefined) return out;
  // Added to the default roots, not instead of them: a gateway with a public certificate in front of
  // an agent with a private one both verify.
  if (net.caCert !== undefined) out.ca = [...rootCertificates, readPem(net.caCert, 'CA bundle', '--ca-cert')];
  if (net.clientCert !== undefined) {
    out.cert = readPem(net.clientCert, 'client certificate', '--client-cert');
    out.key = readPem(net.clientKey ?? net.clientCert, 'client key', '--client-key');
  }
  if (net.insecure === true) out.rejectUnauthorized = false;
  return out;
}

/**
 * Reads and tries the PEM files once, so that a wrong path, a file that is no PEM or a key that does
 * not match its certificate is a ConfigError before the run (exit 2), never a connect error later.
 */
export function checkTlsFiles(net: NetworkSettings): void {
  if (net.clientKey !== undefined && net.clientCert === undefined)
    throw new ConfigError('--client-key needs --client-cert');
  const tls = tlsOptions(net);
  if (net.caCert !== undefined && !tls.ca!.at(-1)!.includes('-----BEGIN CERTIFICATE-----'))
    throw new ConfigError(`--ca-cert ${net.caCert} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`);
  if (net.clientCert !== undefined && !/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(tls.key ?? '')) {
    const where =
      net.clientKey === undefined
        ? `--client-cert ${net.clientCert} holds no key: give --client-key`
        : `--client-key ${net.clientKey} holds no PEM private key`;
    throw new ConfigError(where);
  }
  try {
    createSecureContext({
      ...(tls.ca ? { ca: tls.ca } : {}),
      ...(tls.cert ? { cert: tls.cert, key: tls.key } : {}),
    });
  } catch (e) {
    throw new ConfigError(
      `the TLS files cannot be used (--ca-cert, --client-cert, --client-key): ${(e as Error).message}`,
    );
  }
}

/**
 * The dispatcher of a client of the target: an Agent with the run's TLS options, or undici's
 * EnvHttpProxyAgent with the resolved proxy (plain http: targets are sent to the proxy as absolute
 * URLs, as curl does; https: ones go through a CONNECT tunnel).
 */
export function targetDispatcher(
  baseUrl: string,
  net: NetworkSettings | undefined,
  timeouts: { connectMs: number; headersMs: number; bodyMs: number },
): Dispatcher {
  const tls = tlsOptions(net);
  const common = { headersTimeout: timeouts.headersMs, bodyTimeout: timeouts.bodyMs };
  const connect = { timeout: timeouts.connectMs, ...tls };
  const proxy = net?.proxy;
  if (proxy === undefined || proxyFor(baseUrl, proxy) === undefined) return new Agent({ ...common, connect });
  return new EnvHttpProxyAgent({
    ...common,
    connect,
    ...(proxy.http === undefined ? {} : { httpProxy: proxy.http }),
    ...(proxy.https === undefined ? {} : { httpsProxy: proxy.https }),
    noProxy: proxy.noProxy,
    requestTls: tls,
    proxyTunnel: false,
  } as EnvHttpProxyAgent.Options);
}
