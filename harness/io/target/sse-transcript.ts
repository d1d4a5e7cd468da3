// Builds a StreamTranscript from decoded SSE text: eventsource-parser assembles the events, while a
// line-level tracker records the framing the parser hides (which fields an event block used, how
// many data: lines, line endings, bytes after the final event). Serves spec 4.2/4.5 and C-26/C-31.
import { createParser, type EventSourceMessage, type EventSourceParser } from 'eventsource-parser';
import { isObject } from '../../../schemas/json.ts';
import { parseJson } from './body-reader.ts';
import type { SseEvent, StreamTranscript } from '../../../core/evidence.ts';
import { fieldName, LineSplitter, type LineEnding } from './sse-lines.ts';

// Why caps: a hostile or broken stream must not grow evidence without bound.
const MAX_COMMENTS = 10_000;
const MAX_PARSER_ERRORS = 100;
const AFTER_FINAL_TEXT_CAP = 64 * 1024;

interface Block {
  fields: Set<string>;
  dataLines: number;
  text: string;
}

export function emptyTranscript(exchangeId: string): StreamTranscript {
  return {
    exchangeId,
    headers: {},
    isEventStream: false,
    events: [],
    comments: [],
    finalIndex: null,
    afterFinal: [],
    afterFinalBytes: 0,
    afterFinalText: '',
    closedByServer: false,
    closedBy: 'error',
    raw: '',
    rawTruncated: false,
    redactions: 0,
    bytes: 0,
    invalidUtf8: false,
    lineEndings: [],
    parserErrors: [],
    incompleteTail: '',
  };
}

export class TranscriptBuilder {
  readonly t: StreamTranscript;
  private readonly parser: EventSourceParser;
  private readonly splitter: LineSplitter;
  private block: Block = { fields: new Set(), dataLines: 0, text: '' };
  private atMs = 0;

  constructor(
    exchangeId: string,
    private readonly onEvent: (ev: SseEvent) => void,
  ) {
    this.t = emptyTranscript(exchangeId);
    this.parser = createParser({
      onEvent: (msg) => this.addEvent(msg),
      onComment: (text) => {
        if (this.t.comments.length < MAX_COMMENTS) this.t.comments.push({ atMs: this.atMs, text });
      },
      onError: (err) => {
        if (this.t.parserErrors.length < MAX_PARSER_ERRORS) this.t.parserErrors.push(err.message);
      },
    });
    this.splitter = new LineSplitter((line, ending) => this.onLine(line, ending));
  }

  /** Feeds text that arrived `atMs` after the request started. */
  feed(text: string, atMs: number): void {
    this.atMs = atMs;
    this.splitter.push(text);
  }

  /** Ends the input; an unterminated event is not dispatched (SSE rules) but kept as evidence. */
  end(): void {
    const rest = this.splitter.end();
    if (this.t.finalIndex !== null) this.countAfterFinal(rest);
    this.t.incompleteTail = this.block.text + rest;
  }

  private onLine(line: string, ending: LineEnding): void {
    if (!this.t.lineEndings.includes(ending)) this.t.lineEndings.push(ending);
    const terminator = ending === 'crlf' ? '\r\n' : ending === 'cr' ? '\r' : '\n';
    // Checked before feeding: the blank line that ends the final event is not "after" it.
    if (this.t.finalIndex !== null) this.countAfterFinal(line + terminator);
    if (line === '') {
      this.parser.feed('\n');
      this.block = { fields: new Set(), dataLines: 0, text: '' };
      return;
    }
    this.block.text += line + terminator;
    const name = fieldName(line);
    if (name !== null) {
      this.block.fields.add(name);
      if (name === 'data') this.block.dataLines += 1;
    }
    this.parser.feed(`${line}\n`);
  }

  private countAfterFinal(text: string): void {
    this.t.afterFinalBytes += Buffer.byteLength(text);
    if (this.t.afterFinalText.length < AFTER_FINAL_TEXT_CAP) {
      this.t.afterFinalText += text.slice(0, AFTER_FINAL_TEXT_CAP - this.t.afterFinalText.length);
    }
  }

  private addEvent(msg: EventSourceMessage): void {
    const parsed = parseJson(msg.data);
    const json = parsed.json;
    const ev: SseEvent = {
      index: this.t.events.length,
      atMs: this.atMs,
      data: msg.data,
      hasEventField: this.block.fields.has('event'),
      hasIdField: this.block.fields.has('id'),
      dataLines: this.block.dataLines,
      multiLineData: this.block.dataLines > 1,
      otherFields: [...this.block.fields].filter((f) => f !== 'data' && f !== 'event' && f !== 'id'),
      isFinal: isObject(json) && isObject(json.result) && json.result.final === true,
      isError: isObject(json) && 'error' in json,
    };
    if (msg.event !== undefined) ev.event = msg.event;
    if (msg.id !== undefined) ev.id = msg.id;
    if (parsed.json !== undefined) ev.json = json;
    if (parsed.parseError !== undefined) ev.parseError = parsed.parseError;
    this.t.events.push(ev);
    if (this.t.finalIndex !== null) this.t.afterFinal.push(ev);
    else if (ev.isFinal || ev.isError) this.t.finalIndex = ev.index;
    this.onEvent(ev);
  }
}
