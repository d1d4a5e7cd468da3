// The one protocol between the harness's processes (link-protocol.ts): every message checked against
// schemas/link.schema.json where it is received; a malformed one is refused with the schema's
// complaint (a 400, or the end of a held answer), never a crash.
import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { LinkClient, LinkError, serveLink } from '../../../harness/io/links/link-protocol.ts';
import { listen } from '../../../harness/kit/loopback.ts';

describe('the link protocol', () => {
  it('refuses a webhook script unlike its schema, and serves one that conforms', async () => {
    const scripted: unknown[] = [];
    const link = await serveLink<'webhookScript'>({
      webhookScript: ({ token, responses }) => {
        scripted.push({ token, responses });
        return { answer: {} };
      },
    });
    const client = new LinkClient(link.url);
    try {
      const bad = await client
        // @ts-expect-error status is a number: a wrong body does not compile either
        .call('webhookScript', { token: 't', responses: [{ status: 'teapot' }] })
        .catch((e: unknown) => e);
      expect(bad).toBeInstanceOf(LinkError);
      expect((bad as Error).message).toBe(
        'link: webhookScript request: responses[0].status: must be integer',
      );
      expect(scripted).toEqual([]);
      await client.call('webhookScript', { token: 't', responses: [{ status: 500, delayMs: 10 }] });
      expect(scripted).toEqual([{ token: 't', responses: [{ status: 500, delayMs: 10 }] }]);
    } finally {
      await client.close();
      await link.close();
    }
  });

  it('ends a held answer whose later line is unlike its schema, saying why', async () => {
    const liar = createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      res.write(`${JSON.stringify({ answer: { kind: 'hello', url: 'http://127.0.0.1:1' } })}\n`);
      res.write(`${JSON.stringify({ answer: { kind: 'delivery' } })}\n`);
    });
    const served = await listen(liar);
    const client = new LinkClient(served.baseUrl);
    try {
      const more: unknown[] = [];
      const ended = new Promise<Error | undefined>((resolve) => {
        void client.hold('webhookStream', {}, { onMore: (a) => more.push(a), onEnd: resolve });
      });
      const error = await ended;
      expect(error).toBeInstanceOf(LinkError);
      expect(error?.message).toBe('link: webhookStream answer: delivery: is missing');
      expect(more).toEqual([]);
    } finally {
      await client.close();
      await served.close();
    }
  });
});
