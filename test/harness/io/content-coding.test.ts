// Answers in a content coding (RFC 9110 8.4, 12.5.3; ruling C-56): the harness advertises the codings
// it reads and decodes gzip, deflate (zlib or raw) and br, one or several, in JSON answers and SSE
// streams (event by event as they arrive), under the same byte cap as a plain body; a coding it does
// not read, or bytes that do not decode, end the exchange with an error that says so.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ACCEPT_ENCODING, contentCodings, decodedBody } from '../../../harness/io/target/body-reader.ts';
import { fixtureClients } from '../../support/fixture-client.ts';

const io = fixtureClients((url) => ({ baseUrl: url, agentId: 'a', auth: { apiKey: 'coding-key-1' } }));
const { setup } = io;

const ANSWER = {
  jsonrpc: '2.0',
  id: 'r1',
  result: { id: 't1', status: { state: 'completed' }, text: 'héllo' },
};

const ENCODE: Record<string, (b: Buffer) => Buffer> = {
  gzip: (b) => zlib.gzipSync(b),
  'x-gzip': (b) => zlib.gzipSync(b),
  deflate: (b) => zlib.deflateSync(b),
  br: (b) => zlib.brotliCompressSync(b),
};

function encoded(codings: string[], text: string): Buffer {
  return codings.reduce<Buffer>((bytes, c) => ENCODE[c]!(bytes), Buffer.from(text));
}

function jsonAnswer(codings: string[], body: Buffer = Buffer.from(JSON.stringify(ANSWER))) {
  return (_req: unknown, res: ServerResponse): void => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': codings.join(', ') });
    res.end(codings.reduce<Buffer>((bytes, c) => ENCODE[c]!(bytes), body));
  };
}

describe('contentCodings', () => {
  it('reads a Content-Encoding list in applied order, lower case, without identity', () => {
    expect(contentCodings(undefined)).toEqual([]);
    expect(contentCodings('identity')).toEqual([]);
    expect(contentCodings(' GZIP ,br')).toEqual(['gzip', 'br']);
    expect(contentCodings(['deflate', 'identity, br'])).toEqual(['deflate', 'br']);
  });
});

describe('JSON answers in a content coding', () => {
  it('advertises the codings it reads on rpc and stream requests, not on raw ones', async () => {
    const c = await setup(jsonAnswer([]));
    await c.rpc('tasks/get', { taskId: 't1' });
    await c.stream('message/stream', { message: {} });
    await c.raw({ method: 'POST', body: '{}' });
    const seen = io.fixture().seen.map((s) => s.headers['accept-encoding']);
    expect(seen).toEqual([ACCEPT_ENCODING, ACCEPT_ENCODING, undefined]);
  });

  it.each([['gzip'], ['x-gzip'], ['deflate'], ['br'], ['gzip', 'br'], ['deflate', 'gzip']])(
    '%s (then %s): decoded and parsed',
    async (...codings: string[]) => {
      const list = codings.filter((x) => typeof x === 'string');
      const c = await setup(jsonAnswer(list));
      const ex = await c.rpc('tasks/get', { taskId: 't1' });
      expect(ex.error).toBeUndefined();
      expect(ex.response?.json).toEqual(ANSWER);
      expect(ex.response?.body).toBe(JSON.stringify(ANSWER));
      expect(ex.response?.headers['content-encoding']).toBe(list.join(', '));
    },
  );

  it('decodes raw deflate (no zlib header), as some servers send it', async () => {
    const c = await setup((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'deflate' });
      res.end(zlib.deflateRawSync(Buffer.from(JSON.stringify(ANSWER))));
    });
    expect((await c.rpc('tasks/get', {})).response?.json).toEqual(ANSWER);
  });

  it('decodes an answer that arrives a few bytes at a time', async () => {
    const bytes = encoded(['gzip'], JSON.stringify(ANSWER));
    const c = await setup((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      let i = 0;
      const step = (): void => {
        if (i >= bytes.length) return void res.end();
        res.write(bytes.subarray(i, i + 1));
        i += 1;
        setTimeout(step, i < 3 ? 5 : 0);
      };
      step();
    });
    expect((await c.rpc('tasks/get', {})).response?.json).toEqual(ANSWER);
  });

  it('applies the byte cap to the decoded bytes: a 2 MB answer in 2 KB of gzip stops at the cap', async () => {
    const big = Buffer.from(
      JSON.stringify({ jsonrpc: '2.0', id: 'r1', result: { x: 'a'.repeat(2_000_000) } }),
    );
    const c = await setup(jsonAnswer(['gzip'], big), { maxBodyBytes: 100_000 });
    const ex = await c.rpc('tasks/get', {});
    expect(ex.error?.kind).toBe('body-too-large');
    expect(ex.response?.bodyBytes).toBe(100_000);
  });

  it('a coding it does not read is an error naming the coding and what was advertised', async () => {
    const c = await setup((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'zstd' });
      res.end(Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0, 0]));
    });
    const ex = await c.rpc('tasks/get', {});
    expect(ex.error?.message).toMatch(/Content-Encoding zstd.*Accept-Encoding: gzip, deflate, br/);
  });

  it('bytes that are not gzip are an error saying the coding does not decode', async () => {
    const c = await setup((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(JSON.stringify(ANSWER));
    });
    const ex = await c.rpc('tasks/get', {});
    expect(ex.error?.message).toMatch(/gzip content coding of the answer does not decode/);
  });
});

const frame = (state: string, final: boolean): string =>
  `data: ${JSON.stringify({ jsonrpc: '2.0', id: 'r1', result: { id: 't1', status: { state }, final } })}\n\n`;

describe('SSE streams in a content coding', () => {
  it.each(['gzip', 'deflate', 'br'])(
    '%s, flushed per event: each event is read when it arrives, before the stream ends',
    async (coding) => {
      let finish: () => void = () => undefined;
      const c = await setup((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': coding });
        const z =
          coding === 'gzip'
            ? zlib.createGzip()
            : coding === 'deflate'
              ? zlib.createDeflate()
              : zlib.createBrotliCompress();
        z.pipe(res);
        z.write(frame('submitted', false));
        z.flush();
        finish = () => {
          z.write(`: ping\n\n${frame('completed', true)}`);
          z.end();
        };
      });
      const s = await c.stream('message/stream', { message: {} }, { id: 'r1' });
      const events = s.events();
      const first = await events.next();
      expect(
        (first.value as { json: { result: { status: { state: string } } } }).json.result.status.state,
      ).toBe('submitted');
      expect(s.transcript.closedAtMs).toBeUndefined();
      finish();
      const t = await s.done;
      expect(t.events.map((e) => e.isFinal)).toEqual([false, true]);
      expect(t.comments.map((k) => k.text)).toEqual(['ping']);
      expect(t.raw).toBe(`${frame('submitted', false)}: ping\n\n${frame('completed', true)}`);
      expect(t.closedBy).toBe('server');
    },
  );

  it('a JSON answer to a stream request (C-26) is decoded too', async () => {
    const c = await setup(jsonAnswer(['br']));
    const t = await (await c.stream('message/stream', { message: {} })).done;
    expect(t.json).toEqual(ANSWER);
  });
});

describe('decodedBody', () => {
  it('leaves a body with no coding as it is', () => {
    const body = (async function* () {})();
    expect(decodedBody(undefined, body)).toBe(body);
    expect(decodedBody('identity', body)).toBe(body);
  });

  it('stops reading the source when the reader stops early', async () => {
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-encoding': 'gzip' });
      const z = zlib.createGzip();
      z.pipe(res);
      const timer = setInterval(() => {
        z.write('x'.repeat(1000));
        z.flush();
      }, 5);
      res.on('close', () => clearInterval(timer));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const closed = new Promise<void>((resolve) =>
      server.once('connection', (socket) => socket.once('close', () => resolve())),
    );
    const { request } = await import('undici');
    const res = await request(`http://127.0.0.1:${port}/`);
    let bytes = 0;
    for await (const chunk of decodedBody(res.headers['content-encoding'], res.body)) {
      bytes += chunk.byteLength;
      if (bytes > 3000) break;
    }
    await closed;
    server.close();
    expect(bytes).toBeGreaterThan(3000);
  });
});
