// What the harness keeps from a hostile target: the records of answers cut at the body cap must
// not keep the whole body alive (V8 keeps a slice's parent string), and the webhook receiver must
// keep no more than its byte cap of deliveries however many arrive.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTargetClient } from '../../harness/io/target/target-client.ts';
import { startWebhookReceiver } from '../../harness/io/webhooks/webhook-receiver.ts';
import type { HostileTarget } from '../../reliability/hostile/fixture-kit.ts';
import { startHostileTarget } from '../../reliability/hostile/hostile-targets.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function heapAfterGc(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

describe('records of 100 MB answers', () => {
  let target: HostileTarget;
  beforeAll(async () => {
    target = await startHostileTarget('huge-body', 'hostile');
  });
  afterAll(() => target.close());

  it('keep the recorded text, not the 16 MiB read for each', async () => {
    const client = createTargetClient({
      baseUrl: target.baseUrl,
      agentId: target.agentId,
      auth: { apiKey: target.apiKey },
      timeoutMs: 20_000,
    });
    try {
      await client.rpc('tasks/get', {});
      const before = heapAfterGc();
      for (let i = 0; i < 6; i += 1) {
        const ex = await client.rpc('tasks/get', {});
        expect(ex.error?.kind).toBe('body-too-large');
        expect(ex.response?.bodyBytes).toBe(16 * 1024 * 1024);
      }
      expect(client.exchanges()).toHaveLength(7);
      // Six records of 256 KiB of text each; records holding their bodies would add 96 MiB.
      expect(heapAfterGc() - before).toBeLessThan(32 * 1024 * 1024);
    } finally {
      await client.close();
    }
  });
});

describe('the webhook receiver under a flood', () => {
  it('keeps at most maxStoredBytes of deliveries and counts the ones it dropped', async () => {
    const receiver = await startWebhookReceiver({ maxStoredBytes: 1024 * 1024 });
    try {
      const body = JSON.stringify({ event: 'task.completed', pad: 'x'.repeat(100 * 1024) });
      for (let i = 0; i < 30; i += 1) {
        const res = await fetch(receiver.urlFor('flood'), { method: 'POST', body });
        await res.text();
      }
      const kept = receiver.deliveries();
      const bytes = kept.reduce((sum, d) => sum + d.body.length + d.text.length, 0);
      expect(bytes).toBeLessThanOrEqual(1024 * 1024);
      expect(kept.length).toBeGreaterThan(0);
      expect(kept.length + receiver.dropped().deliveries).toBe(30);
      // The newest are kept.
      expect(kept.at(-1)?.seq).toBe(30);
    } finally {
      await receiver.close();
    }
  });
});
