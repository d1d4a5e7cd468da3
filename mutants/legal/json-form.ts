// JSON and HTTP forms an agent may choose (RFC 8259: member order, whitespace, escapes; RFC 9110:
// header name case and order, media type parameters and case; RFC 9112: chunked transfer coding):
// the same values in another text, in answers, SSE events and webhook deliveries alike.
import { eachObject, heavyEscape, legal, plainEscape, reorder, stringifyWith } from '../legal-kit.ts';
import type { LegalVariant } from '../types.ts';

const RFC8259 = 'RFC 8259 (JSON text: insignificant whitespace, escapes, unordered members); C-36';
const RFC9110 = 'RFC 9110 (field names case-insensitive, media type parameters), RFC 9112 (chunked)';

const isJson = (type: unknown): boolean => /^application\/json\b/i.test(String(type));

/** `content-type` -> `Content-Type` */
const titleCase = (name: string): string =>
  name.replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => dash + c.toUpperCase());

const variants: LegalVariant[] = [
  legal({
    name: 'json-members-reversed',
    varies: ['json.member-order'],
    description: 'the members of every object come in reverse order (jsonrpc last, result before id)',
    allowedBy: RFC8259,
    everyJson: (json) => eachObject(json, (o) => reorder(o, (keys) => keys.reverse())),
  }),
  legal({
    name: 'json-pretty-printed',
    varies: ['json.whitespace'],
    description: 'answers and deliveries are indented over several CRLF lines; SSE events spaced on one line',
    allowedBy: RFC8259,
    serialize: (json, where) =>
      where === 'event'
        ? stringifyWith(json, plainEscape, ' ')
        : `${JSON.stringify(json, null, 2).replace(/\n/g, '\r\n')}\r\n`,
  }),
  legal({
    name: 'json-unicode-escapes',
    varies: ['json.string-escapes'],
    description: 'strings and names escape every non-ASCII character (\\u00e9), `/` as `\\/`, and `a`, `e`',
    allowedBy: RFC8259,
    serialize: (json) => stringifyWith(json, heavyEscape),
  }),
  legal({
    name: 'json-numbers-in-exponent-form',
    varies: ['json.number-form'],
    description: 'numbers of 1000 and more are written in exponent form: `-3.2601e+4`, `5.24288e+6`',
    allowedBy:
      'RFC 8259 section 6 (a number may have a fraction and an exponent); JSON-RPC codes stay integers',
    serialize: (json) =>
      stringifyWith(json, plainEscape, '', (n) =>
        Math.abs(n) >= 1000 ? n.toExponential() : JSON.stringify(n),
      ),
  }),
  legal({
    name: 'json-charset-parameter',
    varies: ['http.media-type-parameters'],
    description: 'JSON answers are `Application/JSON; Charset="UTF-8"` (case and a quoted parameter)',
    allowedBy: RFC9110,
    hooks: {
      head: (head) => {
        if (isJson(head.headers['content-type']))
          head.headers['content-type'] = 'Application/JSON; Charset="UTF-8"';
      },
    },
  }),
  legal({
    name: 'json-chunked-transfer',
    varies: ['http.transfer-coding'],
    description:
      'JSON answers come with chunked transfer coding, in four chunks a few ms apart, no Content-Length',
    allowedBy: RFC9110,
    hooks: {
      jsonChunks: (body) => {
        const bytes = Buffer.from(body);
        const size = Math.ceil(bytes.length / 4);
        const pieces: string[] = [];
        // Cut on bytes, but between whole UTF-8 characters (a hook piece is text).
        let start = 0;
        while (start < bytes.length) {
          let end = Math.min(start + size, bytes.length);
          while (end < bytes.length && (bytes[end]! & 0xc0) === 0x80) end += 1;
          pieces.push(bytes.subarray(start, end).toString('utf8'));
          start = end;
        }
        return pieces;
      },
    },
  }),
  legal({
    name: 'http-header-names-title-case',
    varies: ['http.header-form'],
    description:
      'response header names in Title-Case, in reverse order, with extra headers (Server, X-Request-Id, Vary)',
    allowedBy: RFC9110,
    hooks: {
      head: (head) => {
        const entries = Object.entries(head.headers).reverse();
        for (const [name] of entries) delete head.headers[name];
        head.headers['X-Request-Id'] = `req-${Date.now()}`;
        head.headers['Server'] = 'AcmeAgents/7.1';
        head.headers['Vary'] = 'Accept-Encoding';
        for (const [name, value] of entries) head.headers[titleCase(name)] = value;
      },
    },
  }),
  legal({
    name: 'http-retry-after-as-date',
    varies: ['http.retry-after-form'],
    description:
      'a rate-limited answer says when to retry as an HTTP-date (`Retry-After: Wed, 25 Nov 2026 08:00:05 GMT`)',
    allowedBy:
      'RFC 9110 section 10.2.3 (Retry-After = HTTP-date / delay-seconds); spec 8 (rate limits not shown), C-04',
    hooks: {
      head: (head) => {
        const seconds = head.headers['retry-after'];
        if (typeof seconds !== 'string' || !/^\d+$/.test(seconds)) return;
        // Rounded up to a whole second, so the date is never sooner than the delay it stands for.
        const at = Math.ceil((Date.now() + Number(seconds) * 1000) / 1000) * 1000;
        head.headers['retry-after'] = new Date(at).toUTCString();
      },
    },
  }),
];

export default variants;
