// Security properties of the reference server over real HTTP: authentication before every method in
// both header forms (spec 5; C-01, C-37), repeated credential headers (C-48), webhook secrets and
// headers never returned or written out (spec 2.13; C-29), the SSRF guard after DNS resolution (C-19).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ERROR_CODES, METHODS } from '../../schemas/error-codes.ts';
import { signBody } from '../../reference-server/webhooks/index.ts';
import { rawExchange } from './raw-http.ts';
import {
  definedHeaders,
  directive,
  KEY,
  sendParams,
  startServer,
  TOKEN,
  waitFor,
  waitForState,
} from './support.ts';
import { startCaptureReceiver, type CaptureReceiver } from './webhooks/capture-receiver.ts';

const receivers: CaptureReceiver[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

async function receiver(): Promise<CaptureReceiver> {
  const started = await startCaptureReceiver();
  receivers.push(started);
  return started;
}

describe('5 authentication before every method', () => {
  const methods = [...METHODS, 'tasks/list', 'no-such-method'];

  it.each(methods)(
    '%s: 401 -32010 without or with a wrong credential; served with either form',
    async (method) => {
      const h = await startServer();
      const body = JSON.stringify({ jsonrpc: '2.0', id: 'a1', method, params: { taskId: 'nope' } });
      const call = (headers: Record<string, string | undefined>): Promise<Response> =>
        fetch(h.url(), {
          method: 'POST',
          headers: definedHeaders({ 'content-type': 'application/json', ...headers }),
          body,
        });
      for (const [headers, reason] of [
        [{}, 'missing'],
        [{ 'x-api-key': `${KEY}x` }, 'invalid'],
        [{ authorization: `Bearer ${TOKEN}x` }, 'invalid'],
        [{ authorization: `Basic ${TOKEN}` }, 'invalid'],
      ] as const) {
        const response = await call(headers);
        expect(response.status, JSON.stringify(headers)).toBe(401);
        expect(await response.json()).toMatchObject({
          id: 'a1',
          error: { code: ERROR_CODES.UNAUTHORIZED, data: { reason } },
        });
      }
      for (const headers of [{ 'x-api-key': KEY }, { authorization: `Bearer ${TOKEN}` }]) {
        const response = await call(headers);
        expect(response.status, JSON.stringify(headers)).toBe(200);
        const json = (await response.json()) as { error?: { code: number } };
        expect(json.error?.code).not.toBe(ERROR_CODES.UNAUTHORIZED);
      }
    },
  );
});

describe('C-48 repeated credential headers', () => {
  const card = JSON.stringify({ jsonrpc: '2.0', id: 'r1', method: 'agent/authenticatedExtendedCard' });
  const request = (lines: string[]): string =>
    `POST /api/v1/a2a/agent-a HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\n` +
    `${lines.map((line) => `${line}\r\n`).join('')}Content-Length: ${card.length}\r\n\r\n${card}`;

  it('refuses a credential header sent in two field lines, even when both carry a valid value', async () => {
    const h = await startServer();
    for (const lines of [
      [`x-api-key: ${KEY}`, `x-api-key: ${KEY}`],
      [`x-api-key: ${KEY}`, 'x-api-key: other'],
      [`Authorization: Bearer ${TOKEN}`, 'Authorization: Bearer other'],
      ['Authorization: Bearer other', `Authorization: Bearer ${TOKEN}`],
      [`Authorization: Bearer ${TOKEN}`, `Authorization: Bearer ${TOKEN}`],
      [`X-API-KEY: ${KEY}`, `x-Api-Key: ${KEY}`],
      [`AUTHORIZATION: Bearer ${TOKEN}`, `authorization: Bearer ${TOKEN}`],
    ]) {
      const answer = await rawExchange(h.server.baseUrl, request(lines));
      expect(answer.status, lines.join(' | ')).toBe(401);
      expect(JSON.parse(answer.body)).toMatchObject({ id: 'r1', error: { data: { reason: 'invalid' } } });
    }
    const single = await rawExchange(
      h.server.baseUrl,
      request([`x-api-key: ${KEY}`, `Authorization: Bearer ${TOKEN}`]),
    );
    expect(single.status).toBe(200);
    const upper = await rawExchange(h.server.baseUrl, request([`X-API-KEY: ${KEY}`, 'X-Other-Key: other']));
    expect(upper.status).toBe(200);
    const wrongUpper = await rawExchange(h.server.baseUrl, request(['X-API-KEY: other']));
    expect(wrongUpper.status).toBe(401);
  });
});

describe('2.13 / C-29 webhook secrets and headers are never returned or written out', () => {
  it('keeps the secret and header values out of every response, the delivery log and stdout/stderr', async () => {
    const written: string[] = [];
    for (const stream of [process.stdout, process.stderr]) {
      const original = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
      vi.spyOn(stream, 'write').mockImplementation((chunk: unknown, ...rest: unknown[]) => {
        written.push(String(chunk));
        return original(chunk, ...rest);
      });
    }
    const target = await receiver();
    target.plan = () => ({ kind: 'status', status: 500 }); // failures exercise the retry and error paths
    const h = await startServer({ allowPrivateWebhookTargets: true });
    const secret = 'secret-value-7f3a9c';
    const headerValue = 'header-value-51be02';
    const config = {
      url: `${target.origin}/hook`,
      secret,
      headers: { 'X-Tenant-Token': headerValue },
      retryPolicy: { maxRetries: 1, initialDelay: 0.05 },
    };
    const replies = [await h.rpc('tasks/pushNotificationConfig/set', { config })];
    const sent = await h.rpc('message/send', { ...sendParams('hi'), id: 'sec-1' });
    replies.push(sent);
    const settled = (): boolean => {
      const log = h.server.deliveryLog();
      return log.length === 3 && log.every((record) => record.status === 'failed');
    };
    await waitFor(settled, 10_000); // submitted, working, completed: each failed after its retry
    replies.push(await h.rpc('tasks/pushNotificationConfig/get', {}));
    replies.push(await h.rpc('tasks/pushNotificationConfig/set', { config: { ...config, url: 'ftp://x' } }));
    // The values were really used: the receiver got the header and a signature made with the secret.
    const first = target.requests[0];
    expect(first?.headers['x-tenant-token']).toBe(headerValue);
    expect(first?.headers['x-webhook-signature']).toBe(signBody(secret, first?.body ?? Buffer.alloc(0)));
    const exposed = [
      ...replies.map((reply) => reply.text),
      JSON.stringify(h.server.deliveryLog()),
      ...written,
    ];
    for (const text of exposed) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain(headerValue);
    }
  });
});

describe('C-19 SSRF guard end to end', () => {
  it('accepts a host name at set time but refuses it at delivery when it resolves to loopback', async () => {
    const target = await receiver();
    const h = await startServer(); // allowPrivateWebhookTargets off
    const url = `http://localhost:${target.port}/hook`;
    const set = await h.rpc('tasks/pushNotificationConfig/set', { config: { url } });
    expect(set.error).toBeUndefined();
    await h.rpc('message/send', { ...sendParams('hi', directive({ delayMs: 10 })), id: 'ssrf-1' });
    await waitForState(h, 'ssrf-1', 'completed');
    await waitFor(() => h.server.deliveryLog().filter((record) => record.status === 'refused').length === 3);
    const log = h.server.deliveryLog();
    expect(log.map((record) => [record.event, record.status, record.attempts.length])).toEqual([
      ['task.submitted', 'refused', 1],
      ['task.working', 'refused', 1],
      ['task.completed', 'refused', 1],
    ]);
    expect(log[0]?.attempts[0]?.error).toMatch(/non-public address/);
    expect(target.requests).toEqual([]);
  });

  it.each(['http://169.254.169.254/latest/meta-data/', 'http://[fd00:ec2::254]/', 'http://0x7f.1:80/'])(
    'refuses %s at set time with -32602 config.url',
    async (url) => {
      const h = await startServer();
      const reply = await h.rpc('tasks/pushNotificationConfig/set', { config: { url } });
      expect(reply.error).toMatchObject({ code: ERROR_CODES.INVALID_PARAMS, data: { field: 'config.url' } });
    },
  );
});
