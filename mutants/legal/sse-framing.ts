// SSE framing an agent may choose (spec 4.2 lines 217-220, ruling C-31; the HTML standard's
// event-stream format): line endings, the optional space after the colon, event/id/retry fields,
// comments anywhere, a byte order mark, data over several lines, events split or coalesced on the wire.
import { legal } from '../legal-kit.ts';
import type { ProxyCall } from '../proxy.ts';
import type { LegalVariant } from '../types.ts';

const ALLOWED =
  'spec 4.2 (SSE events), C-31; HTML standard, server-sent events (event stream interpretation)';

/** Each line of a frame (its closing blank line kept) rewritten by `fn`. */
const eachLine =
  (fn: (line: string) => string) =>
  (frame: string): string =>
    frame
      .split('\n')
      .map((line) => (line === '' ? line : fn(line)))
      .join('\n');

const lineEndings = (eol: string) => (frame: string) => frame.replace(/\n/g, eol);

/** Frames held back per stream, to send with the next one in a single write. */
const held = new WeakMap<ProxyCall, string>();

const variants: LegalVariant[] = [
  legal({
    name: 'sse-crlf-line-endings',
    varies: ['sse.line-endings'],
    description: 'every SSE line ends with CRLF',
    allowedBy: ALLOWED,
    hooks: { sseFrame: lineEndings('\r\n') },
  }),
  legal({
    name: 'sse-cr-line-endings',
    varies: ['sse.line-endings'],
    description: 'every SSE line ends with a lone CR',
    allowedBy: ALLOWED,
    hooks: { sseFrame: lineEndings('\r') },
  }),
  legal({
    name: 'sse-no-space-after-colon',
    varies: ['sse.field-space'],
    description: '`data:{...}` and `:ping`: no space after the colon',
    allowedBy: ALLOWED,
    hooks: { sseFrame: eachLine((line) => line.replace(/^(data|): /, '$1:')) },
  }),
  legal({
    name: 'sse-event-and-id-fields',
    varies: ['sse.other-fields'],
    description: 'each event carries `event: message` and an increasing `id:` line before its data',
    allowedBy: ALLOWED,
    hooks: {
      sseFrame: (frame, ctx) =>
        frame.startsWith('data:') ? `event: message\nid: ${ctx.index + 1}\n${frame}` : frame,
    },
  }),
  legal({
    name: 'sse-retry-field',
    varies: ['sse.other-fields'],
    description: 'the stream opens with a `retry: 3000` frame, and each event repeats it',
    allowedBy: ALLOWED,
    hooks: {
      sseFrame: (frame, ctx) => {
        const retry = frame.startsWith('data:') ? `retry: 3000\n${frame}` : frame;
        return ctx.index === 0 && frame.startsWith('data:') ? `retry: 3000\n\n${retry}` : retry;
      },
    },
  }),
  legal({
    name: 'sse-comments-everywhere',
    varies: ['sse.comments'],
    description: 'comment lines before, inside and after every event, and comment-only frames between',
    allowedBy: ALLOWED,
    hooks: {
      sseFrame: (frame) =>
        frame.startsWith('data:')
          ? `: opening comment\n\n:\n${frame.replace(/\n\n$/, '\n: inside the event\n\n')}:trailing\n\n`
          : frame,
    },
  }),
  legal({
    name: 'sse-leading-byte-order-mark',
    varies: ['sse.byte-order-mark'],
    description: 'the stream starts with a UTF-8 byte order mark (U+FEFF), which SSE parsers skip',
    allowedBy: ALLOWED,
    hooks: {
      sseFrame: (frame, ctx) => (ctx.index === 0 && frame.startsWith('data:') ? `\ufeff${frame}` : frame),
    },
  }),
  legal({
    name: 'sse-data-over-several-lines',
    varies: ['sse.multi-line-data'],
    description: 'each event JSON is pretty-printed over several `data:` lines (joined with LF by parsers)',
    allowedBy: ALLOWED,
    hooks: {
      sseEvent: (payload) =>
        `${JSON.stringify(payload, null, 1)
          .split('\n')
          .map((line) => `data: ${line}`)
          .join('\n')}\n\n`,
    },
  }),
  legal({
    name: 'sse-events-split-across-reads',
    varies: ['sse.chunk-boundaries'],
    description:
      'each frame is written in four pieces a few ms apart: inside `data`, mid-JSON (mid UTF-8 character when there is one), between the closing newlines',
    allowedBy: ALLOWED,
    hooks: {
      sseFrame: (frame) => {
        const bytes = Buffer.from(frame);
        const wide = bytes.findIndex((b) => b >= 0x80);
        const middle = wide > 0 ? wide + 1 : Math.floor(bytes.length / 2);
        const cuts = [...new Set([2, middle, bytes.length - 1])]
          .filter((n) => n > 0 && n < bytes.length)
          .sort((a, b) => a - b);
        return [0, ...cuts].map((start, i) => bytes.subarray(start, cuts[i] ?? bytes.length));
      },
    },
  }),
  legal({
    name: 'sse-events-coalesced',
    varies: ['sse.chunk-boundaries'],
    description: 'each event is held back and written together with the next frame (event or ping)',
    allowedBy: ALLOWED,
    hooks: {
      sseFrame: (frame, ctx) => {
        const before = held.get(ctx.call) ?? '';
        held.delete(ctx.call);
        if (frame.startsWith('data:')) {
          held.set(ctx.call, before + frame);
          return '';
        }
        return before + frame;
      },
      sseEnd: (ctx) => {
        const rest = held.get(ctx.call);
        held.delete(ctx.call);
        return rest === undefined ? {} : { append: rest };
      },
    },
  }),
];

export default variants;
