// The reference server's SSRF guard for webhook targets (ruling C-19): address classification,
// the post-resolution lookup hook, and refusal of IP-literal targets at set time.
import type dns from 'node:dns';
import { afterEach, describe, expect, it } from 'vitest';
import { createWebhookService, type WebhookService } from '../../../reference-server/webhooks/index.ts';
import {
  TargetRefusedError,
  createGuardedLookup,
  ipLiteralOf,
  isForbiddenAddress,
} from '../../../reference-server/webhooks/ssrf-guard.ts';

describe('C-19 address classification', () => {
  const forbidden = [
    '127.0.0.1',
    '127.255.0.9',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '169.254.0.1',
    '0.0.0.0',
    '100.64.0.1',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fc00::1',
    'fd12:3456::1',
    'fd00:ec2::254',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:a9fe:a9fe',
    'not-an-ip',
  ];
  const allowed = [
    '8.8.8.8',
    '93.184.216.34',
    '172.32.0.1',
    '192.169.0.1',
    '2606:4700::1111',
    '::ffff:8.8.8.8',
  ];
  it.each(forbidden)('refuses %s', (address) => expect(isForbiddenAddress(address)).toBe(true));
  it.each(allowed)('allows %s', (address) => expect(isForbiddenAddress(address)).toBe(false));

  it('recognises IP-literal URL hosts, bracketed IPv6 included', () => {
    expect(ipLiteralOf('[::1]')).toBe('::1');
    expect(ipLiteralOf('127.0.0.1')).toBe('127.0.0.1');
    expect(ipLiteralOf('localhost')).toBeNull();
  });
});

type Resolved = dns.LookupAddress[];
const fakeResolver = (table: Record<string, Resolved>) =>
  ((host: string, _opts: unknown, cb: (err: NodeJS.ErrnoException | null, a: Resolved) => void) =>
    cb(null, table[host] ?? [])) as Parameters<typeof createGuardedLookup>[0];

function lookupOnce(table: Record<string, Resolved>, host: string, all: boolean) {
  return new Promise<{ err: Error | null; address: unknown; family?: number }>((resolve) =>
    createGuardedLookup(fakeResolver(table))(host, { all }, (err, address, family) =>
      resolve({ err, address, family }),
    ),
  );
}

describe('C-19 lookup hook (checked after DNS resolution)', () => {
  const table: Record<string, Resolved> = {
    'public.test': [
      { address: '93.184.216.34', family: 4 },
      { address: '2606:2800::1', family: 6 },
    ],
    'inside.test': [{ address: '10.0.0.7', family: 4 }],
    'mixed.test': [
      { address: '93.184.216.34', family: 4 },
      { address: '169.254.169.254', family: 4 },
    ],
  };

  it('passes public addresses through in both the single and the all form', async () => {
    expect(await lookupOnce(table, 'public.test', false)).toEqual({
      err: null,
      address: '93.184.216.34',
      family: 4,
    });
    expect(await lookupOnce(table, 'public.test', true)).toMatchObject({
      err: null,
      address: table['public.test'],
    });
  });

  it('refuses a name resolving to a private address, or to any private address among public ones', async () => {
    for (const host of ['inside.test', 'mixed.test']) {
      const { err } = await lookupOnce(table, host, true);
      expect(err).toBeInstanceOf(TargetRefusedError);
    }
  });

  it('reports an empty resolution as ENOTFOUND, not as success', async () => {
    const { err } = await lookupOnce(table, 'missing.test', false);
    expect(err).toMatchObject({ code: 'ENOTFOUND' });
  });
});

describe('C-19 set-time refusal of IP-literal targets', () => {
  let service: WebhookService;
  afterEach(() => service?.close());
  const literals = [
    'http://127.0.0.1:8080/h',
    'http://[::1]/h',
    'http://169.254.169.254/latest/meta-data',
    'http://[fd00:ec2::254]/',
    'https://10.0.0.1/h',
    'http://0.0.0.0/',
    'http://2130706433/',
    'http://0x7f.1/',
    'http://[::ffff:127.0.0.1]/',
  ];

  it.each(literals)('refuses %s with -32602 config.url when private targets are not allowed', async (url) => {
    service = createWebhookService({ userAgent: 'ua', allowPrivateTargets: false });
    const outcome = await service.setConfig('a', { config: { url } }, () => true);
    expect(outcome).toMatchObject({ ok: false, error: { code: -32602, data: { field: 'config.url' } } });
  });

  it.each(literals)('accepts %s when private targets are allowed', async (url) => {
    service = createWebhookService({ userAgent: 'ua', allowPrivateTargets: true });
    expect((await service.setConfig('a', { config: { url } }, () => true)).ok).toBe(true);
  });

  it('accepts public literals and host names at set time (names are vetted at delivery)', async () => {
    service = createWebhookService({ userAgent: 'ua', allowPrivateTargets: false });
    for (const url of ['http://93.184.216.34/h', 'http://localhost:9/h', 'https://hooks.example.com/h']) {
      expect((await service.setConfig('a', { config: { url } }, () => true)).ok).toBe(true);
    }
  });
});
