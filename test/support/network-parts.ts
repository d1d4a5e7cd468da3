// Real network parts on loopback for the tests of TLS, proxies and gateway headers: a private CA and
// certificates made at test time with Debian's openssl, an HTTPS front (a TLS-terminating gateway,
// optionally requiring a client certificate) that relays every request to a plain HTTP upstream and
// records what it saw, a TLS tunnel (TLS terminated in front of a plain HTTP server, every byte
// passed through as it is: what the server answers, malformed requests included, is what the client
// gets), and a forward proxy (absolute-form requests and CONNECT) that counts what it
// relayed and resolves every host name to 127.0.0.1 (so a target named agent.test is reachable only
// through it).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, request as httpRequest, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';

export interface Pki {
  dir: string;
  /** PEM paths. */
  caCert: string;
  serverCert: string;
  serverKey: string;
  /** A server certificate valid for 10 days only (the expiry note). */
  shortCert: string;
  shortKey: string;
  clientCert: string;
  clientKey: string;
}

function openssl(dir: string, args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
}

/** A private CA, a server certificate for agent.test, localhost and 127.0.0.1, and a client certificate. */
export function makePki(): Pki {
  const dir = mkdtempSync(join(tmpdir(), 'a2a-pki-'));
  openssl(dir, [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-days',
    '2',
    '-subj',
    '/CN=a2a test CA',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);
  writeFileSync(
    join(dir, 'server.ext'),
    'subjectAltName=DNS:agent.test,DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n',
  );
  writeFileSync(join(dir, 'client.ext'), 'extendedKeyUsage=clientAuth\n');
  const sign = (name: string, subject: string, ext: string, days: string): void => {
    openssl(dir, [
      'req',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      `${name}.key`,
      '-out',
      `${name}.csr`,
      '-subj',
      subject,
    ]);
    openssl(dir, [
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-out',
      `${name}.pem`,
      '-days',
      days,
      '-extfile',
      ext,
    ]);
  };
  sign('server', '/CN=agent.test/O=a2a test', 'server.ext', '400');
  sign('short', '/CN=agent.test/O=a2a short', 'server.ext', '10');
  sign('client', '/CN=harness-client', 'client.ext', '2');
  return {
    dir,
    caCert: join(dir, 'ca.pem'),
    serverCert: join(dir, 'server.pem'),
    serverKey: join(dir, 'server.key'),
    shortCert: join(dir, 'short.pem'),
    shortKey: join(dir, 'short.key'),
    clientCert: join(dir, 'client.pem'),
    clientKey: join(dir, 'client.key'),
  };
}

export interface SeenRequest {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  /** The client's port: which connection the request came on. */
  remotePort: number;
  /** The client certificate's subject CN, when one was presented. */
  clientCn?: string;
}

export interface TlsFront {
  port: number;
  seen: SeenRequest[];
  close(): Promise<void>;
}

/** An HTTPS gateway on 127.0.0.1 relaying every request to http://127.0.0.1:upstreamPort. */
export async function startTlsFront(opts: {
  upstreamPort: number;
  cert: string;
  key: string;
  /** Require a client certificate signed by this CA (mutual TLS). */
  clientCa?: string;
}): Promise<TlsFront> {
  const seen: SeenRequest[] = [];
  const server = createHttpsServer(
    {
      cert: readFileSync(opts.cert),
      key: readFileSync(opts.key),
      ...(opts.clientCa === undefined
        ? {}
        : { ca: readFileSync(opts.clientCa), requestCert: true, rejectUnauthorized: true }),
    },
    (req, res) => {
      const socket = req.socket as TLSSocket;
      const cn = socket.getPeerCertificate?.()?.subject?.CN;
      seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: { ...req.headers },
        remotePort: socket.remotePort ?? 0,
        ...(typeof cn === 'string' ? { clientCn: cn } : {}),
      });
      const up = httpRequest(
        {
          host: '127.0.0.1',
          port: opts.upstreamPort,
          method: req.method,
          path: req.url,
          headers: req.headers,
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      up.on('error', () => res.destroy());
      req.pipe(up);
    },
  );
  return listening(server, seen);
}

export interface TlsTunnel {
  port: number;
  close(): Promise<void>;
}

/**
 * TLS on 127.0.0.1 in front of the plain server at 127.0.0.1:upstreamPort, one upstream connection per
 * client connection, bytes relayed both ways unchanged (TLS termination at the TCP level, as a load
 * balancer or stunnel does): the server's own HTTP, connection reuse and closing reach the client.
 */
export async function startTlsTunnel(opts: {
  upstreamPort: number;
  cert: string;
  key: string;
}): Promise<TlsTunnel> {
  const sockets = new Set<Socket>();
  const server = createTlsServer({ cert: readFileSync(opts.cert), key: readFileSync(opts.key) }, (client) => {
    const up = connect(opts.upstreamPort, '127.0.0.1');
    sockets.add(up);
    sockets.add(client);
    // Each side's end is passed on by pipe (after what was written before it); an error or a client
    // gone takes both down.
    client.pipe(up);
    up.pipe(client);
    up.on('error', () => client.destroy());
    client.on('error', () => up.destroy());
    client.on('close', () => {
      up.destroy();
      sockets.delete(up);
      sockets.delete(client);
    });
  });
  // A client that fails the handshake (no trust in the CA) is its own business: no upstream connection.
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

export interface ForwardProxy {
  url: string;
  /** Absolute-form requests relayed (plain http: targets). */
  requests: SeenRequest[];
  /** CONNECT tunnels opened (https: targets), by the authority asked for. */
  tunnels: string[];
  /** Local ports of the proxy's connections to the upstream: a request that came through it came from one. */
  upstreamPorts: Set<number>;
  close(): Promise<void>;
}

/** A forward proxy on 127.0.0.1: every host name resolves to 127.0.0.1. */
export async function startForwardProxy(): Promise<ForwardProxy> {
  const requests: SeenRequest[] = [];
  const tunnels: string[] = [];
  const upstreamPorts = new Set<number>();
  const sockets = new Set<Socket>();
  const server = createHttpServer((req, res) => {
    const target = new URL(req.url ?? '');
    requests.push({
      method: req.method ?? '',
      url: req.url ?? '',
      headers: { ...req.headers },
      remotePort: 0,
    });
    const up = httpRequest(
      {
        host: '127.0.0.1',
        port: Number(target.port) || 80,
        method: req.method,
        path: `${target.pathname}${target.search}`,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    up.on('socket', (s) => s.once('connect', () => upstreamPorts.add(s.localPort ?? 0)));
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  server.on('connect', (req, client: Socket, head: Buffer) => {
    const authority = req.url ?? '';
    tunnels.push(authority);
    const port = Number(authority.slice(authority.lastIndexOf(':') + 1));
    const up = connect(port, '127.0.0.1', () => {
      upstreamPorts.add(up.localPort ?? 0);
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) up.write(head);
      up.pipe(client);
      client.pipe(up);
    });
    sockets.add(up);
    sockets.add(client);
    const end = (): void => {
      up.destroy();
      client.destroy();
    };
    up.on('error', end);
    client.on('error', end);
    up.on('close', end);
    client.on('close', end);
  });
  const base = await listening(server, []);
  return {
    url: `http://127.0.0.1:${base.port}`,
    requests,
    tunnels,
    upstreamPorts,
    close: async () => {
      for (const s of sockets) s.destroy();
      await base.close();
    },
  };
}

async function listening(server: Server, seen: SeenRequest[]): Promise<TlsFront> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
