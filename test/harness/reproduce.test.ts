// Reproduction lines (harness/reproduce.ts): the command re-runs one requirement; the curl line
// replays an exchange with credentials as environment variables, never their values.
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../core/evidence.ts';
import { curlFor, rateFlag, reproduceCommand, shellQuote } from '../../harness/reproduce.ts';

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
  it('leaves the user information of the target out (never sent: the same requests, no credential)', () => {
    const cmd = reproduceCommand({ ...base, baseUrl: 'https://user:pw@agents.example/gw' }, '1/x');
    expect(cmd).toContain('--target https://agents.example/gw --agent-id echo');
    expect(cmd).not.toContain('pw');
  });
  it('omits the ephemeral target of the bundled server', () => {
    const cmd = reproduceCommand({ ...base, bundled: true, authKind: 'bearer' }, '7/parse-error-code');
    expect(cmd).toBe('npx a2a-conformance run --only 7/parse-error-code --seed 42 --runs 10');
  });
});

describe('reproduceCommand: the settings that change what a check does', () => {
  const card = { limits: { requestsPerMinute: 60 } };
  const field = { profile: 'standard' as const, pace: null, maxWaitMs: null, maxTurns: null };

  it('carries the profile, so a smoke run is re-run in smoke (the same property allowances)', () => {
    const cmd = reproduceCommand({ ...base, runs: 400, field: { ...field, profile: 'smoke' } }, '4.9/x');
    expect(cmd).toBe(
      `npx a2a-conformance run --target http://127.0.0.1:8080 --agent-id echo --api-key "$A2A_API_KEY" --only 4.9/x --seed 42 --runs 400 --profile smoke`,
    );
  });

  it('carries a pace set by --rate, and none when the pace is the card own', () => {
    const option = { limit: 12, windowMs: 60_000, source: 'option' as const };
    expect(reproduceCommand({ ...base, card, field: { ...field, pace: option } }, 'x')).toContain(
      '--profile standard --rate 12/m',
    );
    const fromCard = { limit: 60, windowMs: 60_000, source: 'card' as const };
    expect(reproduceCommand({ ...base, card, field: { ...field, pace: fromCard } }, 'x')).not.toContain(
      '--rate',
    );
    // No pace although the card states one: the run was given --rate off.
    expect(reproduceCommand({ ...base, card, field }, 'x')).toContain('--rate off');
    expect(reproduceCommand({ ...base, card: null, field }, 'x')).not.toContain('--rate');
    expect(rateFlag({ limit: 2, windowMs: 1000, source: 'option' }, null)).toBe('--rate 2/s');
    expect(rateFlag({ limit: 5, windowMs: 30_000, source: 'option' }, null)).toBe('--rate 10/m');
  });

  it('carries --max-wait, --max-turns, budgets other than the defaults and the public webhook URL', () => {
    const cmd = reproduceCommand(
      {
        ...base,
        field: { ...field, maxWaitMs: 420_000, maxTurns: 50 },
        timeoutMs: 20_000,
        checkTimeoutMs: 60_000,
        webhookPublicUrl: 'https://hooks.example.com/in',
      },
      'x',
    );
    expect(cmd).toContain('--max-turns 50 --max-wait 7m --timeout-ms 20000');
    // 60 s is the default check budget of a 20 s request budget: not repeated.
    expect(cmd).not.toContain('--check-timeout-ms');
    expect(cmd).toContain('--webhook-public-url https://hooks.example.com/in');
    expect(reproduceCommand({ ...base, checkTimeoutMs: 45_000 }, 'x')).toContain('--check-timeout-ms 45000');
    expect(reproduceCommand({ ...base, timeoutMs: 10_000, checkTimeoutMs: 30_000 }, 'x')).toMatch(
      /--runs 10$/,
    );
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
  it('replays the credentials of the wire as placeholders, and no user information of the URL', () => {
    const wire = {
      ...exchange,
      request: {
        ...exchange.request,
        url: 'http://u:k@127.0.0.1:8080/api/v1/a2a/echo',
        headers: { 'x-api-key': 'k', authorization: 'Bearer k' },
      },
    };
    expect(curlFor(wire)).toBe(
      `curl -sS -X POST http://127.0.0.1:8080/api/v1/a2a/echo -H "x-api-key: $A2A_API_KEY" -H "Authorization: Bearer $A2A_BEARER" --data-binary '{"jsonrpc":"2.0","id":"it'\\''s","method":"x"}'`,
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
