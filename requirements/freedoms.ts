// The ledger of freedoms, beside the ledger of requirements: every choice the spec, HTTP, SSE, JSON,
// webhook practice or a deployment leaves to a legal agent, with its source and what a check must
// therefore accept. Each is proven tolerated by at least one legal variant (mutants/legal/, whose
// `varies` names it) or field condition (bench/field/conditions.ts, whose `freedoms` names it);
// test/requirements/freedoms.test.ts fails on a freedom with neither, and on a name that is not here.
// `explain <requirement>` lists the freedoms that touch it. Data only; docs/freedoms.md says how to add one.
import type { ExternalSource, SpecSource } from './types.ts';

/** Where a freedom comes from: the family of its source, used to group the ledger. */
export type FreedomGroup = 'spec' | 'http' | 'sse' | 'json' | 'webhook' | 'deployment';

export const FREEDOM_GROUPS: readonly FreedomGroup[] = Object.freeze([
  'spec',
  'http',
  'sse',
  'json',
  'webhook',
  'deployment',
]);

/** A ruling of CLARIFICATIONS.md and a verbatim excerpt of its section. */
export interface RulingSource {
  ruling: string;
  quote: string;
}

export type FreedomSource = SpecSource | ExternalSource | RulingSource;

export interface Freedom {
  /** Stable id `<topic>.<choice>`, e.g. `http.content-coding`. Never renamed. */
  id: string;
  group: FreedomGroup;
  /** The choice a legal agent has, in one sentence. */
  freedom: string;
  /** What a check must therefore accept. */
  accept: string;
  /** The spec lines, RFC sections or rulings that leave the choice open (at least one). */
  sources: readonly FreedomSource[];
  /** The requirements whose checks must tolerate it: id or section globs (requirements/index.ts), or every one. */
  touches: readonly string[] | 'all';
}

const WHATWG_SSE = 'WHATWG HTML, 9.2.6 Interpreting an event stream';
const SSE_SECTIONS = ['4.2', '4.5', '6.6'];

export const FREEDOMS: readonly Freedom[] = [
  // ---- the spec: ids, timestamps, wording, optional behaviour, values it does not fix ----
  {
    id: 'ids.task-id',
    group: 'spec',
    freedom: 'Task ids are strings of any form the agent chooses (the reference makes UUIDs).',
    accept: 'Any non-empty string, compared for equality only; never a UUID or another format.',
    sources: [
      { line: 77, quote: '| id | string | always | Task id |' },
      { ruling: 'C-16', quote: 'A fresh `params.id` is honoured' },
    ],
    touches: ['2.7', '2.9', '2.10', '3', '4.*', '6.*'],
  },
  {
    id: 'ids.context-id',
    group: 'spec',
    freedom: 'Context ids are strings of any form.',
    accept: 'Any string the agent returned, sent back as is.',
    sources: [{ line: 79, quote: 'Save it for later messages' }],
    touches: ['2.6', '2.7', '4.9', '6.1', '6.3'],
  },
  {
    id: 'ids.config-id',
    group: 'spec',
    freedom: 'Webhook configuration ids are strings of any form.',
    accept: 'Any string, compared for equality only.',
    sources: [{ line: 131, quote: '| configId | string | Identifier of the configuration |' }],
    touches: ['2.12', '2.13', '4.6', '4.7'],
  },
  {
    id: 'ids.reply-message-id',
    group: 'spec',
    freedom:
      "The messageId of the agent's reply has any form: UUID v4 is asked of the client's message only.",
    accept: 'Any string as the messageId of a message of role agent.',
    sources: [{ line: 38, quote: '### 2.3 Message (in a request: `params.message`)' }],
    touches: ['2.3', '2.8', '4.1', '4.2', '6.3'],
  },
  {
    id: 'timestamps.form',
    group: 'spec',
    freedom:
      'Timestamps are any RFC 3339 date-time with a time zone: any precision, any offset, t/z in either case.',
    accept: 'Every RFC 3339 form, compared as instants; equal instants (ties) are legal.',
    sources: [
      { line: 81, quote: 'ISO 8601 timestamp' },
      { ruling: 'C-39', quote: 'any precision' },
    ],
    touches: ['2.7', '2.13', '4.3', '6.1', '6.3'],
  },
  {
    id: 'errors.message-wording',
    group: 'spec',
    freedom: "error.message is the agent's own human-readable text.",
    accept: 'Any string; checks read error.code, never the words.',
    sources: [
      { line: 334, quote: '| error.message | string | Human-readable text |' },
      {
        origin: 'JSON-RPC 2.0, section 5.1',
        quote: 'The message SHOULD be limited to a concise single sentence.',
      },
    ],
    touches: 'all',
  },
  {
    id: 'errors.data-wording',
    group: 'spec',
    freedom: "error.data.details and data.suggestion are the agent's own words.",
    accept:
      'Any string in details and suggestion; only the members a ruling names (field, taskId) are compared.',
    sources: [
      { line: 339, quote: '`error.data.details` names it' },
      { line: 340, quote: '`data` has taskId and a suggestion' },
      { ruling: 'C-14', quote: 'details' },
    ],
    touches: 'all',
  },
  {
    id: 'json.extra-members',
    group: 'spec',
    freedom: 'Responses, events, the card and webhook payloads may carry members the spec does not list.',
    accept: 'Unknown members anywhere below the envelope, except the ones a ruling forbids (C-29).',
    sources: [{ ruling: 'C-36', quote: 'may carry fields the spec does not list' }],
    touches: 'all',
  },
  {
    id: 'agent.reply-content',
    group: 'spec',
    freedom: "The reply's text is the agent's (an LLM's answer), not an echo of the request.",
    accept:
      'Any parts of a message of role agent; a check needing a known reply uses the directive contract.',
    sources: [
      { line: 212, quote: 'The reply text is in `result.status.message.parts[]` with role `agent`.' },
    ],
    touches: ['2.3', '2.4', '2.8', '4.1', '4.2', '4.9', '6.1', '6.3'],
  },
  {
    id: 'agent.reply-part-types',
    group: 'spec',
    freedom:
      'A reply may carry file parts beside (or instead of) text: text is only what replies typically use.',
    accept:
      'Any parts of type text or file in a message of role agent; a check reading reply text looks for a text part, never requires text only.',
    sources: [{ line: 54, quote: 'Agent replies typically use type `text`.' }],
    touches: ['2.3', '2.4', '2.5', '2.8', '4.1', '4.2', '4.9', '6.1', '6.3'],
  },
  {
    id: 'agent.directive-contract',
    group: 'spec',
    freedom: 'An agent need not implement the a2a:directive contract: a directive is plain text to it.',
    accept: 'A check whose precondition needs a scripted behaviour is not-exercised without it, never fail.',
    sources: [
      {
        origin: 'docs/directives.md',
        quote: 'gets every check that needs no scripted behaviour, and the harness reports the rest as',
      },
    ],
    touches: 'all',
  },
  {
    id: 'agent.task-failure',
    group: 'spec',
    freedom: 'An agent may fail any task (a processing error), for instance while in maintenance.',
    accept:
      'A task ending failed with status.error where the check did not script an outcome: not-exercised.',
    sources: [
      { line: 183, quote: '| working | agent errors | processing error | failed | `task.failed` webhook |' },
      { ruling: 'C-51', quote: 'the task ends `failed`' },
    ],
    touches: 'all',
  },
  {
    id: 'card.agent-status',
    group: 'spec',
    freedom:
      'agent.status is any of active, inactive and maintenance; every method still behaves as specified.',
    accept: 'Each of the three values, with no change in what other checks expect.',
    sources: [
      { line: 159, quote: '`active`, `inactive` or `maintenance`' },
      { ruling: 'C-51', quote: 'it is not a protocol mode' },
    ],
    touches: ['2.14', '4.1', '4.8'],
  },
  {
    id: 'card.values',
    group: 'spec',
    freedom: "The card's name, description, type and version are the agent's own strings.",
    accept: 'Any non-empty strings; agent.type beyond the examples; a version in any scheme.',
    sources: [{ line: 158, quote: 'Agent type, for instance `llm`, `workflow`, `sequential`' }],
    touches: ['2.14', '4.8', '9'],
  },
  {
    id: 'limits.values',
    group: 'spec',
    freedom:
      'requestsPerMinute, concurrentTasks, maxMessageLength and the file limits are the agent\u2019s own numbers.',
    accept: 'Whatever the card reports: checks read the limits from the card, never the reference defaults.',
    sources: [
      { line: 364, quote: 'fixed default values for the per-agent limits: not shown' },
      { ruling: 'C-46', quote: "each agent's card is authoritative" },
    ],
    touches: ['2.14', '3', '4.1', '4.9', '8'],
  },
  {
    id: 'task.system-timeout',
    group: 'spec',
    freedom: 'The system timeout that cancels a running task has any duration (the reference: 5 minutes).',
    accept: 'A timeout longer than the run can wait leaves its checks not-exercised, naming --max-wait.',
    sources: [
      { line: 190, quote: 'The duration of the system timeout that cancels a task: not shown.' },
      { ruling: 'C-05', quote: 'The system timeout is configured per agent.' },
    ],
    touches: ['3', '4.1', '4.4', '4.5', '6.1'],
  },
  {
    id: 'cancel.finished-task-code',
    group: 'spec',
    freedom:
      'A cancel of a finished task may answer -32000 with data.currentState instead of -32001 or -32002.',
    accept: '-32000 with data.taskId and data.currentState, as well as the ruled codes.',
    sources: [
      { line: 347, quote: 'Which code a test must expect for this case is therefore ambiguous.' },
      { ruling: 'C-06', quote: '-32000' },
      { ruling: 'C-07', quote: 'currentState' },
    ],
    touches: ['3', '4.4', '7'],
  },
  {
    id: 'resubscribe.finished-task-answer',
    group: 'spec',
    freedom:
      'A resubscribe to a finished task answers its final status as plain JSON or a one-event stream; for a failed or canceled task -32004 too.',
    accept: 'Either form of the final status, and -32004 for a failed or canceled task.',
    sources: [
      { line: 235, quote: 'For a completed task, the final status is returned.' },
      { ruling: 'C-09', quote: 'The harness also accepts an SSE stream carrying exactly one event' },
    ],
    touches: ['2.10', '4.5', '6.6', '7'],
  },
  {
    id: 'errors.stream-error-form',
    group: 'spec',
    freedom:
      'An error of a streaming method raised before the stream starts is a plain JSON answer or one SSE error event.',
    accept: 'Both forms, read the same way.',
    sources: [
      {
        ruling: 'C-26',
        quote:
          'the harness accepts either a plain JSON error or an SSE stream whose first and only event is that error',
      },
    ],
    touches: ['4.2', '4.5', '6.6', '7'],
  },
  {
    id: 'errors.empty-task-id-code',
    group: 'spec',
    freedom: 'An empty taskId may be answered -32000 (task not found) instead of -32602.',
    accept: 'Either code.',
    sources: [{ ruling: 'C-53', quote: 'with an error other than -32602 or -32000' }],
    touches: ['4.3', '4.4', '4.5', '7'],
  },
  {
    id: 'request-id.repeat-refused',
    group: 'spec',
    freedom: 'An agent may refuse a request whose id an earlier request used (-32600).',
    accept:
      'The harness never repeats an id (a resent request gets a fresh one), so such a refusal is never met.',
    sources: [
      { line: 25, quote: 'Keep unique per request.' },
      { ruling: 'C-52', quote: "Keeping ids unique is the client's duty" },
    ],
    touches: 'all',
  },
  {
    id: 'methods.extension',
    group: 'spec',
    freedom: 'An agent may serve methods beyond section 4, listed in supportedMethods.',
    accept: 'Extra names in supportedMethods and answers to them.',
    sources: [{ ruling: 'C-33', quote: 'may add optional response' }],
    touches: ['2.1', '2.14', '4.8', '7'],
  },
  {
    id: 'stream.keep-alive',
    group: 'spec',
    freedom: 'Keep-alive comments come at any interval, or not at all in a short stream.',
    accept: 'Any number of `: ping` comments anywhere, none included.',
    sources: [
      { line: 219, quote: 'Keep-alive comment lines `: ping` may appear and are ignored by clients.' },
    ],
    touches: SSE_SECTIONS,
  },

  // ---- HTTP (RFC 9110, RFC 9112) ----
  {
    id: 'http.base-url-path',
    group: 'http',
    freedom:
      '{base_url} is an opaque prefix: it may have a path (https://host/gw/a2a), with or without a trailing slash.',
    accept:
      'Every path is the base URL\u2019s path followed by the spec\u2019s; an agent may name either in error.data.path.',
    sources: [
      { line: 16, quote: 'Base address: `{base_url}`.' },
      { line: 196, quote: '`POST {base_url}/api/v1/a2a/{agent_id}`' },
      { ruling: 'C-57', quote: 'opaque prefix' },
    ],
    touches: ['1', '4', '7', '9'],
  },
  {
    id: 'http.content-coding',
    group: 'http',
    freedom: 'Answers and streams may come in a content coding (gzip, deflate, br), alone or stacked.',
    accept:
      'Every coding the harness advertises, decoded before anything is read; SSE decoded event by event.',
    sources: [
      {
        origin: 'RFC 9110, section 12.5.3',
        quote:
          'If no Accept-Encoding header field is in the request, any content coding is considered acceptable by the user agent.',
      },
      { ruling: 'C-56', quote: 'Accept-Encoding: gzip, deflate, br' },
    ],
    touches: 'all',
  },
  {
    id: 'http.transfer-coding',
    group: 'http',
    freedom: 'A body may come with chunked transfer coding, in pieces, without Content-Length.',
    accept: 'Any framing RFC 9112 allows; a body is read whole before it is judged.',
    sources: [
      {
        origin: 'RFC 9112, section 7.1',
        quote: 'The chunked transfer coding wraps content in order to transfer it as a series of chunks',
      },
    ],
    touches: 'all',
  },
  {
    id: 'http.header-form',
    group: 'http',
    freedom: 'Header names in any case and order, and headers the spec does not name.',
    accept: 'Names compared case-insensitively; unknown headers ignored.',
    sources: [
      { origin: 'RFC 9110, section 5.1', quote: 'Field names are case-insensitive' },
      {
        origin: 'RFC 9110, section 5.1',
        quote: 'Other recipients SHOULD ignore unrecognized header and trailer fields.',
      },
    ],
    touches: 'all',
  },
  {
    id: 'http.media-type-parameters',
    group: 'http',
    freedom: 'Content-Type in any case, with parameters (charset, quoted or not).',
    accept: 'The media type compared case-insensitively, parameters ignored.',
    sources: [
      { origin: 'RFC 9110, section 8.3.1', quote: 'The type and subtype tokens are case-insensitive.' },
      { ruling: 'C-28', quote: 'media-type parameters (such as `charset=utf-8`) are allowed' },
    ],
    touches: 'all',
  },
  {
    id: 'http.retry-after-form',
    group: 'http',
    freedom: 'Retry-After is delay-seconds or an HTTP-date.',
    accept: 'Both forms.',
    sources: [{ origin: 'RFC 9110, section 10.2.3', quote: 'Retry-After = HTTP-date / delay-seconds' }],
    touches: ['8'],
  },
  {
    id: 'http.status-text',
    group: 'http',
    freedom: 'The reason phrase of the status line is any text (or none).',
    accept: 'Only the status code is read.',
    sources: [{ origin: 'RFC 9112, section 4', quote: 'A client SHOULD ignore the reason-phrase content' }],
    touches: 'all',
  },
  {
    id: 'http.connection-close',
    group: 'http',
    freedom:
      'A server may close the connection after any response (Connection: close) instead of keeping it open.',
    accept: 'A new connection for the next request; no request is lost or graded for it.',
    sources: [
      {
        origin: 'RFC 9112, section 9.6',
        quote: 'A server that sends a "close" connection option MUST initiate closure of the connection',
      },
      { ruling: 'C-49', quote: 'may close one that stays idle' },
    ],
    touches: 'all',
  },

  // ---- SSE (WHATWG event stream) ----
  {
    id: 'sse.line-endings',
    group: 'sse',
    freedom: 'SSE lines end with LF, CRLF or a lone CR.',
    accept: 'All three, mixed too.',
    sources: [{ origin: WHATWG_SSE, quote: 'end-of-line   = ( cr lf / cr / lf )' }],
    touches: SSE_SECTIONS,
  },
  {
    id: 'sse.field-space',
    group: 'sse',
    freedom: 'The space after a field\u2019s colon is optional.',
    accept: '`data:{...}` and `data: {...}` alike.',
    sources: [
      { origin: WHATWG_SSE, quote: 'If value starts with a U+0020 SPACE character, remove it from value.' },
    ],
    touches: SSE_SECTIONS,
  },
  {
    id: 'sse.other-fields',
    group: 'sse',
    freedom: 'Events may carry event:, id: and retry: fields beside data:.',
    accept: 'Those fields read as a standard parser reads them; only data is graded.',
    sources: [
      { origin: WHATWG_SSE, quote: 'If the field name is "retry"' },
      { ruling: 'C-31', quote: 'info for `event:`/`id:` lines' },
    ],
    touches: SSE_SECTIONS,
  },
  {
    id: 'sse.comments',
    group: 'sse',
    freedom: 'Comment lines may come anywhere: between events, inside an event, after the final one.',
    accept: 'Comments ignored wherever they are; a comment after the final event is no event.',
    sources: [{ origin: WHATWG_SSE, quote: 'If the line starts with a U+003A COLON character (:)' }],
    touches: SSE_SECTIONS,
  },
  {
    id: 'sse.byte-order-mark',
    group: 'sse',
    freedom: 'The stream may start with a UTF-8 byte order mark.',
    accept: 'A leading U+FEFF skipped.',
    sources: [
      {
        origin: WHATWG_SSE,
        quote: 'One leading U+FEFF BYTE ORDER MARK character must be ignored if any are present.',
      },
    ],
    touches: SSE_SECTIONS,
  },
  {
    id: 'sse.multi-line-data',
    group: 'sse',
    freedom: 'An event\u2019s JSON may be spread over several data: lines.',
    accept: 'The lines joined with LF, as parsers do, then parsed.',
    sources: [
      { origin: WHATWG_SSE, quote: 'append a single U+000A LINE FEED (LF) character to the data buffer' },
      { ruling: 'C-31', quote: 'multi-line `data`' },
    ],
    touches: SSE_SECTIONS,
  },
  {
    id: 'sse.chunk-boundaries',
    group: 'sse',
    freedom: 'Events arrive split across reads at any byte, or several in one read.',
    accept: 'An event read whole whatever the TCP segments and chunks.',
    sources: [{ origin: 'RFC 9112, section 7.1', quote: 'a series of chunks' }],
    touches: SSE_SECTIONS,
  },

  // ---- JSON (RFC 8259) ----
  {
    id: 'json.member-order',
    group: 'json',
    freedom: 'Object members in any order.',
    accept: 'Members read by name.',
    sources: [
      {
        origin: 'RFC 8259, section 4',
        quote: 'An object is an unordered collection of zero or more name/value pairs',
      },
    ],
    touches: 'all',
  },
  {
    id: 'json.whitespace',
    group: 'json',
    freedom: 'Insignificant whitespace anywhere: indentation, CRLF, spaces.',
    accept: 'Any JSON text of the same value.',
    sources: [
      {
        origin: 'RFC 8259, section 2',
        quote: 'Insignificant whitespace is allowed before or after any of the six structural characters.',
      },
    ],
    touches: 'all',
  },
  {
    id: 'json.string-escapes',
    group: 'json',
    freedom: 'Any character of a string may be escaped (\\u00e9, \\/).',
    accept: 'Strings compared after unescaping.',
    sources: [{ origin: 'RFC 8259, section 7', quote: 'Any character may be escaped.' }],
    touches: 'all',
  },
  {
    id: 'json.number-form',
    group: 'json',
    freedom: 'Numbers may be written with a fraction or an exponent (5.24288e+6).',
    accept: 'Numbers compared as values.',
    sources: [
      {
        origin: 'RFC 8259, section 6',
        quote: 'The exponent part begins with the letter E in uppercase or lowercase',
      },
    ],
    touches: 'all',
  },

  // ---- webhook practice ----
  {
    id: 'webhook.delivery-id',
    group: 'webhook',
    freedom: 'The X-Webhook-Delivery id has any form (dlv_42, a UUID, a ULID).',
    accept: 'Any non-blank token, stable across the retries of one event.',
    sources: [
      { line: 294, quote: '`<delivery-id>`; use for idempotency' },
      { ruling: 'C-20', quote: 'any non-blank token' },
    ],
    touches: ['6.2', '6.5'],
  },
  {
    id: 'webhook.user-agent-product',
    group: 'webhook',
    freedom: 'The product and version in the webhook User-Agent are the agent\u2019s own.',
    accept: 'Any `<product>-Webhook/<version>`.',
    sources: [{ line: 295, quote: '`<product>-Webhook/<version>`' }],
    touches: ['6.2'],
  },
  {
    id: 'webhook.extra-headers',
    group: 'webhook',
    freedom: 'Deliveries may carry headers beyond those of spec 6.2.',
    accept: 'Unknown headers ignored.',
    sources: [{ ruling: 'C-20', quote: 'extra headers' }],
    touches: ['6.2'],
  },
  {
    id: 'webhook.signature-hex-case',
    group: 'webhook',
    freedom: 'The signature\u2019s hex digits in either case.',
    accept: 'Hex compared case-insensitively.',
    sources: [{ ruling: 'C-20', quote: 'Hex digits are case-insensitive' }],
    touches: ['6.4'],
  },
  {
    id: 'webhook.working-event',
    group: 'webhook',
    freedom: 'task.working deliveries are optional per agent.',
    accept: 'No task.working delivery, without a finding on any other event.',
    sources: [{ line: 180, quote: 'A `task.working` webhook may be sent (optional per agent)' }],
    touches: ['3', '6.*'],
  },
  {
    id: 'webhook.retry-jitter',
    group: 'webhook',
    freedom: 'A retry may start later than its backoff schedule (jitter, a busy queue), up to a second.',
    accept: 'A retry within [scheduled - 50 ms, scheduled + 1000 ms] of its schedule.',
    sources: [{ ruling: 'C-20', quote: '[scheduled - 50 ms, scheduled + 1000 ms]' }],
    touches: ['2.11', '6.5'],
  },

  {
    id: 'webhook.payload-timestamp',
    group: 'webhook',
    freedom:
      'The payload timestamp is the time of the event or of the attempt: the spec gives its form (ISO 8601), not what it is the time of.',
    accept:
      'Any RFC 3339 time in payload.timestamp, the same or another on each attempt; the transition times are read from data (submittedAt, completedAt, ...).',
    sources: [{ line: 304, quote: '| timestamp | string | ISO 8601 |' }],
    touches: ['6.1', '6.3', '6.5'],
  },
  {
    id: 'webhook.delivery-latency',
    group: 'webhook',
    freedom:
      'An event may be delivered any time after its transition (an outbox queue, a busy worker): the spec sets no delivery latency.',
    accept:
      'A delivery is awaited for as long as the check\u2019s budget allows, and for up to three more such windows while deliveries still arrive at its URL (a backlog draining behind others; then not-exercised); what must not arrive is settled at the end of the run, after twice the slowest delivery lag shown plus 1 s.',
    sources: [
      { line: 321, quote: 'Failed deliveries are retried per retryPolicy (section 2.11).' },
      { ruling: 'C-20', quote: '[scheduled - 50 ms, scheduled + 1000 ms]' },
    ],
    touches: ['2.11', '2.13', '3', '4.6', '6', '6.*'],
  },
  {
    id: 'webhook.duplicate-delivery',
    group: 'webhook',
    freedom:
      'A delivery (or an attempt of it) may arrive more than once under the same X-Webhook-Delivery, e.g. when its acknowledgement was lost.',
    accept:
      'Deliveries counted by X-Webhook-Delivery, retries by delivery.attempt, never by POSTs; a copy gets the answer its first copy got.',
    sources: [{ line: 321, quote: 'Duplicate deliveries are possible.' }],
    touches: ['2.11', '3', '4.6', '6', '6.*'],
  },

  {
    id: 'webhook.delivery-order',
    group: 'webhook',
    freedom:
      "A task's events may arrive out of transition order: parallel delivery workers overtake each other in flight, and a retried earlier event comes after later ones.",
    accept:
      "Every event a check reads is awaited by itself (never assumed in because a later one arrived); a task's transitions are ordered by the agent's own data timestamps, never by arrival.",
    sources: [
      { line: 275, quote: 'Sent as HTTP POST to the configured webhook url for tasks whose status changes' },
      { line: 321, quote: 'Failed deliveries are retried per retryPolicy (section 2.11).' },
      {
        ruling: 'C-20',
        quote: 'The deliveries of one task to one configuration are started in transition order',
      },
    ],
    touches: ['2.11', '3', '4.6', '6', '6.*'],
  },
  {
    id: 'webhook.content-coding',
    group: 'webhook',
    freedom:
      'A delivery may come in a content coding its receiver accepts (gzip, deflate, br; an egress gateway or relay that compresses what it sends), signed over the payload text before the coding.',
    accept:
      'The capture receiver decodes gzip, deflate and br, alone or stacked, before anything is read, checks signatures over the decoded bytes, and says Accept-Encoding: gzip, deflate, br on every answer.',
    sources: [
      {
        origin: 'RFC 9110, section 12.5.3',
        quote:
          'When sent by a server in a response, Accept-Encoding provides information about which content codings are preferred in the content of a subsequent request to the same resource.',
      },
      {
        ruling: 'C-58',
        quote: 'A delivery is sent without a content coding unless its receiver accepts that coding.',
      },
    ],
    touches: ['2.11', '3', '4.6', '6', '6.*'],
  },

  // ---- deployment ----
  {
    id: 'deployment.tls',
    group: 'deployment',
    freedom:
      'The agent is served over HTTPS only, possibly with a certificate of a private (company) CA that is not in the default trust store.',
    accept:
      'An https: base URL; the CA given with --ca-cert (A2A_CA_CERT) is trusted beside the default roots, and every check reads the decrypted answers as over HTTP.',
    sources: [
      { line: 7, quote: 'The protocol uses JSON-RPC 2.0 over HTTP/HTTPS.' },
      { origin: 'deployment', quote: 'an internal agent whose certificate a company CA signed' },
    ],
    touches: 'all',
  },
  {
    id: 'deployment.rate-limit',
    group: 'deployment',
    freedom: 'The agent enforces its own requests per minute (60 is common), with 429 or -32012.',
    accept: 'A rate-limited answer is waited out and resent, never graded; a run paced by the card.',
    sources: [
      { line: 358, quote: '| limits.requestsPerMinute | number reported per agent | requests |' },
      { line: 364, quote: 'Rate-limit enforcement (status, error code, headers, reset behavior)' },
      { ruling: 'C-04', quote: 'is enforced per agent over a sliding 60-second window' },
    ],
    touches: 'all',
  },
  {
    id: 'deployment.replicas',
    group: 'deployment',
    freedom:
      'The agent runs as several replicas behind one address: any of them answers a request, sends a webhook delivery (again, under its one id) or refuses a request over the agent\u2019s rate limit, each at its own pace.',
    accept:
      'Each replica\u2019s answers read as the one agent\u2019s (--replica): a copy of a delivery under its id, a refusal from any replica and uneven latency between replicas are never findings.',
    sources: [
      { ruling: 'C-59', quote: 'Free: which replica delivers, how often an event is delivered' },
      { ruling: 'C-60', quote: 'and which replica refuses' },
    ],
    touches: ['4.3', '4.4', '4.5', '4.7', '6.5', '8'],
  },
  {
    id: 'deployment.turn-latency',
    group: 'deployment',
    freedom: 'Each agent turn takes as long as its model takes (an LLM call: seconds).',
    accept:
      'Deadlines, stream budgets and scripted lengths grown by the measured turn latency; a slow answer is never an error.',
    sources: [{ line: 210, quote: 'The call blocks until the agent has a complete answer.' }],
    touches: 'all',
  },
  {
    id: 'deployment.network-latency',
    group: 'deployment',
    freedom: 'The agent is reached across a network: tens of milliseconds per request, with jitter.',
    accept: 'Every answer a few tens of milliseconds later, unevenly, without a finding.',
    sources: [{ origin: 'deployment', quote: 'an agent across networks, gateways and proxies' }],
    touches: 'all',
  },
  {
    id: 'deployment.clock-skew',
    group: 'deployment',
    freedom: 'The agent\u2019s clock differs from the harness\u2019s by minutes.',
    accept: 'Agent timestamps compared with each other, never with the harness\u2019s clock.',
    sources: [
      {
        origin: 'deployment',
        quote: 'the agent and the harness run on different machines, each with its own clock',
      },
    ],
    touches: ['2.7', '2.13', '4.3', '6.1', '6.3'],
  },
];
