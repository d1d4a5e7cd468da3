// Connection limits of the reference server (C-47) and the bound on webhook configurations (C-42):
// every refusal carries its HTTP status and a JSON-RPC error body (C-03), slow clients are cut, and
// long answers (blocked message/send, SSE) are never cut by the request timeout.
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../schemas/error-codes.ts';
import { ConfigError, parseConfigText, startReferenceServer } from '../../reference-server/index.ts';
import { HTTP_LIMITS } from '../../reference-server/http/limits.ts';
import { rawExchange } from './raw-http.ts';
import { AGENT_A, directive, KEY, openStream, sendParams, startServer, stateOf } from './support.ts';

const PATH = '/api/v1/a2a/agent-a';
const card = JSON.stringify({ jsonrpc: '2.0', id: 'c1', method: 'agent/authenticatedExtendedCard' });

function post(body: string, extra = ''): string {
  return (
    `POST ${PATH} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nx-api-key: ${KEY}\r\n` +
    `${extra}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
  );
}

function expectInvalidRequest(body: string): Record<string, unknown> {
  const json = JSON.parse(body) as { jsonrpc: string; id: unknown; error: { code: number; data: object } };
  expect(json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: ERROR_CODES.INVALID_REQUEST } });
  return json.error.data as Record<string, unknown>;
}

describe('C-47 size limits', () => {
  it('answers a request target over 4096 bytes with 414 and -32600 {details, limit}; 4096 is served', async () => {
    const h = await startServer();
    const pad = (total: number): string => `${h.url()}?${'p'.repeat(total - PATH.length - 1)}`;
    const init = {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': KEY },
      body: card,
    };
    const served = await fetch(pad(HTTP_LIMITS.maxUrlBytes), init);
    expect(served.status).toBe(200);
    const refused = await fetch(pad(HTTP_LIMITS.maxUrlBytes + 1), init);
    expect(refused.status).toBe(414);
    expect(refused.headers.get('content-type')).toBe('application/json');
    expect(expectInvalidRequest(await refused.text())).toMatchObject({ limit: 4096 });
  });

  it('answers a header section over 16 KiB with 431 and a JSON-RPC body, then closes', async () => {
    const h = await startServer();
    const answer = await rawExchange(h.server.baseUrl, post(card, `X-Pad: ${'h'.repeat(17 * 1024)}\r\n`));
    expect(answer.status).toBe(431);
    expect(answer.headers).toMatchObject({ 'content-type': 'application/json', connection: 'close' });
    expect(expectInvalidRequest(answer.body)).toMatchObject({ limit: HTTP_LIMITS.maxHeaderBytes });
  });

  it('answers malformed HTTP with 400 and a JSON-RPC body', async () => {
    const h = await startServer();
    const cases = [
      'NOT HTTP AT ALL\r\n\r\n',
      post(card, 'Content-Length: 3\r\n'), // two different lengths: a smuggling vector
      `POST ${PATH} HTTP/1.1\r\nHost: x\r\nBad Header Line\r\n\r\n`,
      `POST ${PATH} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n`,
    ];
    for (const head of cases) {
      const answer = await rawExchange(h.server.baseUrl, head);
      expect(answer.status, JSON.stringify(head.slice(0, 60))).toBe(400);
      expect(expectInvalidRequest(answer.body).details).toMatch(/not valid HTTP/);
    }
  });
});

describe('C-47 slow clients (slowloris)', () => {
  const timeouts = { headersTimeoutMs: 300, requestTimeoutMs: 900 };

  it('cuts headers trickling in past headersTimeoutMs with 408 and a JSON-RPC body', async () => {
    const h = await startServer(timeouts);
    const head = `POST ${PATH} HTTP/1.1\r\nHost: x\r\n`;
    const answer = await rawExchange(h.server.baseUrl, head, {
      trickle: { piece: 'X-A: b\r\n', intervalMs: 50 },
    });
    expect(answer.status).toBe(408);
    expect(answer.closedAfterMs).toBeGreaterThanOrEqual(timeouts.headersTimeoutMs);
    expect(expectInvalidRequest(answer.body)).toMatchObject(timeouts);
  });

  it('closes a connection that never sends a byte after headersTimeoutMs', async () => {
    const h = await startServer(timeouts);
    const answer = await rawExchange(h.server.baseUrl, '');
    expect(answer.status).toBe(408);
    expect(answer.closedAfterMs).toBeGreaterThanOrEqual(timeouts.headersTimeoutMs);
  });

  it('cuts a body trickling in past requestTimeoutMs with 408; nothing is performed', async () => {
    const h = await startServer(timeouts);
    const head = post('').replace('Content-Length: 0', 'Content-Length: 100000');
    const answer = await rawExchange(h.server.baseUrl, head, { trickle: { piece: ' ', intervalMs: 50 } });
    expect(answer.status).toBe(408);
    expect(answer.closedAfterMs).toBeGreaterThanOrEqual(timeouts.requestTimeoutMs);
    expect(expectInvalidRequest(answer.body).details).toMatch(/not received in time/);
  });

  it('never cuts a blocked message/send or an SSE stream that outlasts requestTimeoutMs', async () => {
    const h = await startServer(timeouts);
    const slow = { delayMs: timeouts.requestTimeoutMs + 400, progressSteps: 2 };
    const sent = await h.rpc('message/send', sendParams('slow', directive(slow)));
    expect(sent.status).toBe(200);
    expect(stateOf(sent.result)).toBe('completed');
    const stream = await openStream(h, 'message/stream', sendParams('slow', directive(slow)));
    const frames = await stream.rest();
    expect(frames).toContain('"state":"completed"');
  });

  it('refuses timeouts out of range or a header timeout above the request timeout', async () => {
    const problems = (text: string): string[] => {
      try {
        parseConfigText(text, 'c.json');
        return [];
      } catch (error) {
        return (error as ConfigError).problems;
      }
    };
    const agents = [{ id: 'a', apiKeys: ['k'] }];
    expect(problems(JSON.stringify({ headersTimeoutMs: 5000, requestTimeoutMs: 1000, agents }))).toEqual([
      'c.json: headersTimeoutMs: must not exceed requestTimeoutMs (1000) (got 5000)',
    ]);
    expect(problems(JSON.stringify({ headersTimeoutMs: 70_000, agents }))[0]).toMatch(
      /requestTimeoutMs \(60000\)/,
    );
    expect(problems(JSON.stringify({ requestTimeoutMs: 0, agents }))[0]).toMatch(
      /requestTimeoutMs: must be an integer/,
    );
    await expect(
      startReferenceServer({ agents, headersTimeoutMs: 2000, requestTimeoutMs: 1000 }),
    ).rejects.toThrow(ConfigError);
  });
});

describe('C-42 webhook configurations per agent', () => {
  it('refuses task-level configuration 1001 of an agent with -32602 {field: taskId, limit}', async () => {
    const agent = { ...AGENT_A, limits: { requestsPerMinute: 100_000 } };
    const h = await startServer({ agents: [agent], allowPrivateWebhookTargets: true });
    const config = { url: 'http://127.0.0.1:9/hook' };
    const ids = Array.from({ length: 1001 }, (_, index) => `cap-${index}`);
    // Sixteen requests in flight at a time: enough to be quick, few enough not to swamp the machine.
    for (let start = 0; start < ids.length; start += 16) {
      const batch = ids.slice(start, start + 16);
      await Promise.all(batch.map((id) => h.rpc('message/send', { ...sendParams('x'), id })));
      const accepted = batch.filter((id) => id !== 'cap-1000');
      const sets = await Promise.all(
        accepted.map((taskId) => h.rpc('tasks/pushNotificationConfig/set', { taskId, config })),
      );
      expect(sets.map((reply) => reply.error)).toEqual(accepted.map(() => undefined));
    }
    const refused = await h.rpc('tasks/pushNotificationConfig/set', { taskId: 'cap-1000', config });
    expect(refused.error).toEqual({
      code: ERROR_CODES.INVALID_PARAMS,
      message: 'Invalid params',
      data: {
        field: 'taskId',
        limit: 1000,
        details: 'at most 1000 task-level webhook configurations per agent',
      },
    });
    // Replacing an existing task-level config and the agent-level config stay possible at the cap.
    expect(
      (await h.rpc('tasks/pushNotificationConfig/set', { taskId: 'cap-0', config })).error,
    ).toBeUndefined();
    expect((await h.rpc('tasks/pushNotificationConfig/set', { config })).error).toBeUndefined();
  }, 60_000);
});
