// What the harness saw of the connection to a target (report.json `connection`): the TLS version,
// the certificate and its expiry, the proxy it went through; and a hint for a TLS error that names
// the option that would mend it (network.ts builds the connection from the run's settings).
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { TLSSocket } from 'node:tls';
import type { ReportConnection } from '../../../schemas/generated/types.ts';
import type { IoError } from '../../../core/evidence.ts';
import { proxyFor, withoutCredentials, type NetworkSettings } from './network.ts';

/** What the harness saw of the connection to the target: report.json `connection`, as its schema types it. */
export type ConnectionSeen = ReportConnection;

/** A certificate expiring within this many days is noted. */
export const CERT_EXPIRY_NOTE_DAYS = 30;

function distinguishedName(dn: Record<string, string | string[]> | undefined): string {
  if (dn === undefined) return '';
  return Object.entries(dn)
    .map(([k, v]) => `${k}=${Array.isArray(v) ? v.join('+') : v}`)
    .join(', ');
}

interface ConnectedMessage {
  connectParams: { protocol: string; hostname: string; port: string | number };
  socket: TLSSocket | { getPeerCertificate?: undefined };
}

/**
 * Watches the connections undici opens (diagnostics channel undici:client:connected) while `during`
 * runs: the TLS session to the target's origin and whether a connection went to the proxy.
 */
export async function observeConnection<T>(
  baseUrl: string,
  net: NetworkSettings | undefined,
  during: (seen: Readonly<ConnectionSeen>) => Promise<T>,
  now: () => Date = () => new Date(),
): Promise<{ value: T; seen: ConnectionSeen }> {
  const target = new URL(baseUrl);
  const targetPort = Number(target.port) || (target.protocol === 'https:' ? 443 : 80);
  const proxyUrl = proxyFor(baseUrl, net?.proxy);
  const proxy = proxyUrl === undefined ? undefined : new URL(proxyUrl);
  const seen: ConnectionSeen = { notes: [] };
  const onConnected = (message: unknown): void => {
    const { connectParams: p, socket } = message as ConnectedMessage;
    const port = Number(p.port) || (p.protocol === 'https:' ? 443 : 80);
    if (proxy !== undefined && p.hostname === proxy.hostname && port === (Number(proxy.port) || 80))
      seen.proxy = { url: withoutCredentials(proxyUrl!), source: net!.proxy!.source };
    if (p.hostname !== target.hostname || port !== targetPort || p.protocol !== 'https:') return;
    if (seen.tls !== undefined || typeof socket.getPeerCertificate !== 'function') return;
    seen.tls = tlsSeen(socket as TLSSocket, net, now());
  };
  const onProxy = (): void => {
    if (proxyUrl !== undefined)
      seen.proxy = { url: withoutCredentials(proxyUrl), source: net!.proxy!.source };
  };
  subscribe('undici:client:connected', onConnected);
  subscribe('undici:proxy:connected', onProxy);
  try {
    const value = await during(seen);
    if (net?.insecure === true)
      seen.notes.push("TLS verification was off (--insecure): the agent's certificate was not checked");
    const t = seen.tls;
    if (t !== undefined && t.daysLeft <= CERT_EXPIRY_NOTE_DAYS) {
      seen.notes.push(
        t.daysLeft < 0
          ? `the agent's TLS certificate expired ${-t.daysLeft} day(s) ago (${t.validTo})`
          : `the agent's TLS certificate expires in ${t.daysLeft} day(s) (${t.validTo})`,
      );
    }
    return { value, seen };
  } finally {
    unsubscribe('undici:client:connected', onConnected);
    unsubscribe('undici:proxy:connected', onProxy);
  }
}

function tlsSeen(
  socket: TLSSocket,
  net: NetworkSettings | undefined,
  now: Date,
): NonNullable<ConnectionSeen['tls']> {
  const cert = socket.getPeerCertificate();
  const validTo = new Date(cert.valid_to);
  const tls: NonNullable<ConnectionSeen['tls']> = {
    protocol: socket.getProtocol() ?? 'unknown',
    subject: distinguishedName(cert.subject as unknown as Record<string, string>),
    issuer: distinguishedName(cert.issuer as unknown as Record<string, string>),
    validFrom: new Date(cert.valid_from).toISOString(),
    validTo: validTo.toISOString(),
    daysLeft: Math.floor((validTo.getTime() - now.getTime()) / 86_400_000),
    verified: socket.authorized,
    verification: net?.insecure === true ? 'off' : net?.caCert !== undefined ? 'ca-cert' : 'default',
    clientCertificate: net?.clientCert !== undefined,
  };
  const cipher = socket.getCipher()?.name;
  if (cipher !== undefined) tls.cipher = cipher;
  if (socket.authorizationError !== undefined) tls.authorizationError = String(socket.authorizationError);
  return tls;
}

const CERT_CODES =
  /^(UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT(_LOCALLY)?|SELF_SIGNED_CERT_IN_CHAIN|DEPTH_ZERO_SELF_SIGNED_CERT|CERT_HAS_EXPIRED|CERT_NOT_YET_VALID|ERR_TLS_CERT_ALTNAME_INVALID|CERT_UNTRUSTED|CERT_SIGNATURE_FAILURE)$/;
const CLIENT_CERT_CODES =
  /ALERT_CERTIFICATE_REQUIRED|ALERT_BAD_CERTIFICATE|ALERT_UNKNOWN_CA|ALERT_HANDSHAKE_FAILURE/;

/** What to do about a failed connection that TLS explains: the options that fix it. */
export function tlsHint(error: IoError | undefined): string | undefined {
  const code = error?.code ?? '';
  if (CERT_CODES.test(code))
    return "the target's TLS certificate could not be verified: give its CA bundle with --ca-cert <pem> (A2A_CA_CERT), or turn verification off with --insecure (development only)";
  if (CLIENT_CERT_CODES.test(code) || /certificate required/i.test(error?.message ?? ''))
    return 'the TLS handshake was refused: a gateway that requires mutual TLS needs --client-cert <pem> and --client-key <pem>';
  return undefined;
}
