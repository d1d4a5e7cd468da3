// The SSE line splitter (spec 4.2 framing, C-31): however the text is cut into chunks, it yields the
// same lines and terminators as splitting the whole text at once.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fieldName, LineSplitter, type LineEnding } from '../../../harness/io/target/sse-lines.ts';

function split(chunks: string[]): { lines: Array<[string, LineEnding]>; rest: string } {
  const lines: Array<[string, LineEnding]> = [];
  const s = new LineSplitter((line, ending) => lines.push([line, ending]));
  for (const c of chunks) s.push(c);
  return { lines, rest: s.end() };
}

/** Reference: a regex split of the whole text (CRLF first, then lone CR or LF). */
function reference(text: string): { lines: Array<[string, LineEnding]>; rest: string } {
  const lines: Array<[string, LineEnding]> = [];
  const re = /\r\n|\r|\n/g;
  let start = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    lines.push([text.slice(start, m.index), m[0] === '\r\n' ? 'crlf' : m[0] === '\r' ? 'cr' : 'lf']);
    start = m.index + m[0].length;
  }
  return { lines, rest: text.slice(start) };
}

const arbSseText = fc
  .array(fc.constantFrom('data: ', '{"a":1}', ': ping', 'event: x', 'é', '\r', '\n', '\r\n', ''), {
    maxLength: 40,
  })
  .map((parts) => parts.join(''));

function cut(text: string, points: number[]): string[] {
  const sorted = [...new Set(points.map((p) => p % (text.length + 1)))].sort((a, b) => a - b);
  const chunks: string[] = [];
  let last = 0;
  for (const p of sorted) {
    chunks.push(text.slice(last, p));
    last = p;
  }
  chunks.push(text.slice(last));
  return chunks;
}

describe('LineSplitter', () => {
  it('is independent of chunk boundaries (property)', () => {
    fc.assert(
      fc.property(arbSseText, fc.array(fc.nat(), { maxLength: 10 }), (text, points) => {
        expect(split(cut(text, points))).toEqual(reference(text));
      }),
      { numRuns: 500 },
    );
  });

  it('holds a CR at a chunk end until it knows whether LF follows', () => {
    expect(split(['a\r', '\nb\r', 'c\n']).lines).toEqual([
      ['a', 'crlf'],
      ['b', 'cr'],
      ['c', 'lf'],
    ]);
  });

  it('returns the unterminated remainder at the end', () => {
    expect(split(['data: x\n', 'data: y'])).toEqual({ lines: [['data: x', 'lf']], rest: 'data: y' });
  });
});

describe('fieldName', () => {
  it('names fields, treats colon-less lines as field names and comments as null', () => {
    expect(fieldName('data: {}')).toBe('data');
    expect(fieldName('data')).toBe('data');
    expect(fieldName('id:7')).toBe('id');
    expect(fieldName(': ping')).toBeNull();
  });
});
