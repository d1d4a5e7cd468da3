// Splits decoded SSE text into lines, keeping each line's terminator (LF, CRLF or CR, all legal in
// the SSE format), so that framing checks (spec 4.2, ruling C-31) can see exactly what the server
// sent and where an event ended. A CR at the end of a chunk waits for the next chunk: it may be half
// of a CRLF split across TCP segments.

export type LineEnding = 'lf' | 'crlf' | 'cr';

const LF = 10;
const CR = 13;

export class LineSplitter {
  private pending = '';
  // Where scanning resumes in `pending`, so a long unterminated line is not rescanned per chunk.
  private scanFrom = 0;

  constructor(private readonly onLine: (line: string, ending: LineEnding) => void) {}

  push(text: string): void {
    const buf = this.pending + text;
    let start = 0;
    let i = this.scanFrom;
    while (i < buf.length) {
      const c = buf.charCodeAt(i);
      if (c === LF) {
        this.onLine(buf.slice(start, i), 'lf');
        start = i + 1;
      } else if (c === CR) {
        if (i + 1 >= buf.length) break;
        const crlf = buf.charCodeAt(i + 1) === LF;
        this.onLine(buf.slice(start, i), crlf ? 'crlf' : 'cr');
        if (crlf) i += 1;
        start = i + 1;
      }
      i += 1;
    }
    this.pending = buf.slice(start);
    this.scanFrom = i - start;
  }

  /** Ends the input: a trailing CR terminates its line; returns any unterminated remainder. */
  end(): string {
    if (this.pending.endsWith('\r')) {
      const line = this.pending.slice(0, -1);
      this.pending = '';
      this.scanFrom = 0;
      this.onLine(line, 'cr');
    }
    const rest = this.pending;
    this.pending = '';
    this.scanFrom = 0;
    return rest;
  }
}

/** The SSE field name of a line: text before the first colon, or the whole line; null for comments. */
export function fieldName(line: string): string | null {
  if (line.startsWith(':')) return null;
  const colon = line.indexOf(':');
  return colon === -1 ? line : line.slice(0, colon);
}
