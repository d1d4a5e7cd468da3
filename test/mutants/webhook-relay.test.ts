// The webhook relay of the mutants (mutants/webhook-relay.ts): an attempt reaches the original URL
// as rewritten (re-signed when the payload changes), the receiver's status travels back, a dropped
// attempt is acknowledged without reaching it, and set/get results get the client's URL back.
import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { startWebhookReceiver, type WebhookReceiver } from '../../harness/io/webhooks/webhook-receiver.ts';
import {
  relaySetParams,
  restoreResultUrl,
  setPayload,
  startWebhookRelay,
  type RelayMutation,
  type WebhookRelay,
} from '../../mutants/webhook-relay.ts';

const SECRET = 'relay-test-secret';
let receiver: WebhookReceiver | undefined;
let relay: WebhookRelay | undefined;

afterEach(async () => {
  await relay?.close();
  await receiver?.close();
  relay = receiver = undefined;
});

async function setUp(mutation: RelayMutation): Promise<{ relayUrl: string; token: string }> {
  receiver = await startWebhookReceiver();
  relay = await startWebhookRelay(mutation);
  const token = 't1';
  const params = { config: { url: receiver.urlFor(token), secret: SECRET, headers: { 'X-Probe': 'p' } } };
  relaySetParams(relay, params);
  return { relayUrl: params.config.url, token };
}

function post(url: string, payload: object): Promise<Response> {
  const body = JSON.stringify(payload);
  const signature = 'sha256=' + createHmac('sha256', SECRET).update(body).digest('hex');
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-webhook-signature': signature, 'x-probe': 'p' },
    body,
  });
}

describe('webhook relay', () => {
  it('forwards a rewritten, re-signed payload to the original URL and returns its status', async () => {
    const { relayUrl, token } = await setUp({
      rewrite: (a) => setPayload(a, { ...a.json!, agentId: 'edited' }),
    });
    expect(relayUrl.startsWith(relay!.url)).toBe(true);
    receiver!.script(token, [{ status: 500 }]);
    const res = await post(relayUrl, { event: 'task.completed', agentId: 'a', delivery: { attempt: 1 } });
    expect(res.status).toBe(500);
    const [d] = receiver!.deliveries({ token });
    expect(d?.json).toEqual({ event: 'task.completed', agentId: 'edited', delivery: { attempt: 1 } });
    expect(d?.headers['x-probe']).toBe('p');
    const expected = 'sha256=' + createHmac('sha256', SECRET).update(d!.body).digest('hex');
    expect(d?.headers['x-webhook-signature']).toBe(expected);
  });

  it('acknowledges a dropped attempt without forwarding it', async () => {
    const { relayUrl, token } = await setUp({ rewrite: () => 'drop' });
    const res = await post(relayUrl, { event: 'task.completed' });
    expect(res.status).toBe(200);
    expect(receiver!.deliveries({ token })).toEqual([]);
  });

  it('puts the client URL back into set and get results', async () => {
    const { relayUrl } = await setUp({});
    const set = { configured: true, url: relayUrl };
    restoreResultUrl(relay!, 'tasks/pushNotificationConfig/set', set);
    const get = { config: { url: relayUrl }, active: true };
    restoreResultUrl(relay!, 'tasks/pushNotificationConfig/get', get);
    expect([set.url, get.config.url]).toEqual([receiver!.urlFor('t1'), receiver!.urlFor('t1')]);
  });
});
