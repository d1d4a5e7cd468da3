// SSRF guard for webhook targets (ruling C-19): refuses loopback, private, link-local, unspecified,
// multicast and cloud-metadata addresses, checked after DNS resolution by a `lookup` hook so the
// socket connects to exactly the address that was vetted (a DNS rebinding cannot swap it).
import dns from 'node:dns';
import net from 'node:net';

/** Error raised for a refused target; delivery treats it as final (never retried). */
export class TargetRefusedError extends Error {
  readonly code = 'ERR_WEBHOOK_TARGET_REFUSED';
  constructor(
    readonly host: string,
    readonly address: string,
  ) {
    super(`webhook target ${host} resolves to a non-public address (${address})`);
    this.name = 'TargetRefusedError';
  }
}

// Every range an outside caller must not reach through the server. Beyond the ruling's list we also
// refuse CGNAT (100.64/10, often internal in clouds), benchmark, multicast and reserved space:
// none of them is a legitimate public webhook receiver.
const FORBIDDEN = new net.BlockList();
const V4_RANGES: ReadonlyArray<[string, number]> = [
  ['0.0.0.0', 8], // unspecified / "this network"
  ['10.0.0.0', 8], // RFC 1918
  ['100.64.0.0', 10], // shared address space (CGNAT)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, includes metadata 169.254.169.254
  ['172.16.0.0', 12], // RFC 1918
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.168.0.0', 16], // RFC 1918
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, includes broadcast
];
const V6_RANGES: ReadonlyArray<[string, number]> = [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['fc00::', 7], // unique local, includes metadata fd00:ec2::254
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
];
for (const [address, prefix] of V4_RANGES) FORBIDDEN.addSubnet(address, prefix, 'ipv4');
for (const [address, prefix] of V6_RANGES) FORBIDDEN.addSubnet(address, prefix, 'ipv6');

/** True when `address` (an IP literal) must not be a webhook target. IPv4-mapped IPv6 is unwrapped. */
export function isForbiddenAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 0) return true; // not an address at all: refuse rather than guess
  // BlockList matches IPv4 rules against IPv4-mapped IPv6 (::ffff:7f00:1) as well.
  return FORBIDDEN.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** The URL host as an IP literal (IPv6 brackets removed), or null when it is a name. */
export function ipLiteralOf(hostname: string): string | null {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return net.isIP(bare) === 0 ? null : bare;
}

type LookupAll = (
  hostname: string,
  options: dns.LookupAllOptions,
  callback: (err: NodeJS.ErrnoException | null, addresses: dns.LookupAddress[]) => void,
) => void;

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | dns.LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for net.connect/tls.connect: resolves every address and refuses the host when ANY of
 * them is forbidden (a name that also points inside the network is treated as hostile).
 */
export function createGuardedLookup(resolveAll: LookupAll = dns.lookup as LookupAll) {
  return function guardedLookup(
    hostname: string,
    options: dns.LookupOptions,
    callback: LookupCallback,
  ): void {
    const family = typeof options.family === 'number' ? options.family : 0;
    resolveAll(hostname, { all: true, family }, (err, addresses) => {
      if (err) return callback(err, []);
      const bad = addresses.find((entry) => isForbiddenAddress(entry.address));
      if (bad) return callback(new TargetRefusedError(hostname, bad.address), []);
      const first = addresses[0];
      if (!first)
        return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), []);
      // Node asks for all addresses when autoSelectFamily is on, for one otherwise.
      if (options.all) return callback(null, addresses);
      return callback(null, first.address, first.family);
    });
  };
}

/** True when `err` (or an error in its cause chain) is a guard refusal. */
export function isTargetRefused(err: unknown): err is TargetRefusedError {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (e instanceof TargetRefusedError) return true;
  }
  return false;
}
