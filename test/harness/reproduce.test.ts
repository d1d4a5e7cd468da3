// Reproduction lines (harness/reproduce.ts): the command re-runs one requirement; the curl line
// replays an exchange with credentials as environment variables, never their values.
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../core/evidence.ts';
import { curlFor, reproduceCommand, shellQuote } from '../../harness/reproduce.ts';

const base = {
  baseUrl: 'http://127.0.0.1:8080',
  agentId: 'echo',
  authKind: 'api-key' as const,
  bundled: false,
  seed: 42,
  runs: 10,
};

describe('reproduceCommand', () => {
  it('names the target, the requirement and the property settings', () => {
    expect(reproduceCommand(base, '2.1/id-types')).toBe(
      `npx a2a-conformance run --target http://127.0.0.1:8080 --agent-id echo --api-key "$A2A_API_KEY" --only 2.1/id-types --seed 42 --runs 10`,
    );
  });
  it('carries the way to the target: TLS files, --insecure, --proxy and the headers that are no secret', () => {
    const network = {
      caCert: '/etc/ca dir/ca.pem',
      insecure: true,
      clientCert: 'c.pem',
      clientKey: 'k.pem',
      proxy: {
        source: 'option' as const,
        http: 'http://u:pw@proxy:3128',
        https: 'http://u:pw@proxy:3128',
        noProxy: '',
      },
      headers: { 'x-tenant': 'acme', 'x-gateway-key': 'gk-secret', 'x-route': 'r-secret' },
      secretHeaders: ['x-route'],
    };
    const cmd = reproduceCommand({ ...base, network }, '1/x');
    expect(cmd).toBe(
      `npx a2a-conformance run --target http://127.0.0.1:8080 --agent-id echo --api-key "$A2A_API_KEY" --ca-cert '/etc/ca dir/ca.pem' --insecure --client-cert c.pem --client-key k.pem --proxy http://proxy:3128 --header 'x-tenant: acme' --only 1/x --seed 42 --runs 10`,
    );
  });
  it('omits the ephemeral target of the bundled server', () => {
    const cmd = reproduceCommand({ ...base, bundled: true, authKind: 'bearer' }, '7/parse-error-code');
    expect(cmd).toBe('npx a2a-conformance run --only 7/parse-error-code --seed 42 --runs 10');
  });
});

describe('curlFor', () => {
  const exchange: Exchange = {
    id: 'ex-1',
    kind: 'http',
    request: {
      method: 'POST',
      url: 'http://127.0.0.1:8080/api/v1/a2a/echo',
      headers: {
        'content-type': 'application/json',
        'x-api-key': '[redacted]',
        authorization: 'Bearer [redacted]',
      },
      body: `{"jsonrpc":"2.0","id":"it's","method":"x"}`,
    },
    timings: { startedAt: '2025-01-01T00:00:00.000Z', totalMs: 1 },
  };
  it('replays the request with credentials from the environment', () => {
    expect(curlFor(exchange)).toBe(
      `curl -sS -X POST http://127.0.0.1:8080/api/v1/a2a/echo -H 'content-type: application/json' -H "x-api-key: $A2A_API_KEY" -H "Authorization: Bearer $A2A_BEARER" --data-binary '{"jsonrpc":"2.0","id":"it'\\''s","method":"x"}'`,
    );
  });
  it('asks curl to decode the codings the harness advertised (--compressed), instead of printing gzip', () => {
    const gz = {
      ...exchange,
      request: {
        ...exchange.request,
        headers: { 'accept-encoding': 'gzip, deflate, br', accept: 'application/json' },
      },
    };
    expect(curlFor(gz)).toBe(
      `curl -sS -X POST http://127.0.0.1:8080/api/v1/a2a/echo --compressed -H 'accept: application/json' --data-binary '{"jsonrpc":"2.0","id":"it'\\''s","method":"x"}'`,
    );
  });
  it('is undefined without an exchange', () => {
    expect(curlFor(undefined)).toBeUndefined();
  });
  it('quotes shell metacharacters', () => {
    expect(shellQuote('a b')).toBe(`'a b'`);
    expect(shellQuote('2.1/*')).toBe(`'2.1/*'`);
  });
});
