// The example client's SSE reader (examples/client/a2a-client.mjs): however the bytes of a stream
// are cut into reads (inside a CRLF, inside a multi-byte character), it yields the same events, and
// comments are no events (spec 4.2, C-75).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

type ReadSseEvents = (body: ReadableStream<Uint8Array>) => AsyncIterable<string>;
// The example is plain JavaScript for users to copy; it is loaded by URL, untyped.
const example = new URL('../../examples/client/a2a-client.mjs', import.meta.url).href;
const { readSseEvents } = (await import(example)) as { readSseEvents: ReadSseEvents };

const STREAM =
  ': ping\r\n\r\n' +
  'data: {"n":1,"text":"Grüße 🚀"}\r\n\r\n' +
  ': ping\n\n' +
  'data: {"n":2,\ndata: "two lines"}\n\n' +
  'event: status\rdata: {"n":3}\r\r';

function bodyOf(bytes: Buffer, cuts: number[]): ReadableStream<Uint8Array> {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const pieces: Uint8Array[] = [];
  let at = 0;
  for (const p of [...points, bytes.length]) {
    if (p > at) pieces.push(bytes.subarray(at, p));
    at = Math.max(at, p);
  }
  return new ReadableStream({
    pull(controller) {
      const next = pieces.shift();
      if (next === undefined) controller.close();
      else controller.enqueue(next);
    },
  });
}

async function eventsOf(body: ReadableStream<Uint8Array>): Promise<string[]> {
  const out: string[] = [];
  for await (const data of readSseEvents(body)) out.push(data);
  return out;
}

describe('readSseEvents', () => {
  const expected = ['{"n":1,"text":"Grüße 🚀"}', '{"n":2,\n"two lines"}', '{"n":3}'];

  it('reads a stream in one read', async () => {
    expect(await eventsOf(bodyOf(Buffer.from(STREAM, 'utf8'), []))).toEqual(expected);
  });

  it('yields the same events however the bytes are cut into reads', async () => {
    const bytes = Buffer.from(STREAM, 'utf8');
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat(), { maxLength: 40 }), async (cuts) => {
        expect(await eventsOf(bodyOf(bytes, cuts))).toEqual(expected);
      }),
      { numRuns: 200 },
    );
  });
});
