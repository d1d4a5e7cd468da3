// More choices the spec and its rulings leave to an agent: the one-event stream form of a final
// resubscribe (C-09) and of an error before a stream (C-26), the card's own strings (spec 2.14),
// other limits (C-46), no keep-alive in a short stream (spec 4.2 line 219), a clock minutes ahead of
// the harness's, and webhook retries that start late (C-20).
import { eachString, legal } from '../legal-kit.ts';
import type { JsonContext } from '../proxy.ts';
import { deliveryOf } from '../webhook-relay.ts';
import type { LegalVariant } from '../types.ts';

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const SKEW_MS = 7 * 60_000;

const wantsStream = (ctx: JsonContext): boolean =>
  /text\/event-stream/i.test(String(ctx.call.headers.accept ?? ''));

/** A JSON answer of status 200 sent instead as an SSE stream of one event. */
function asOneEvent(body: unknown, ctx: JsonContext): string {
  ctx.head.headers['content-type'] = 'text/event-stream';
  ctx.head.headers['cache-control'] = 'no-cache';
  return `data: ${JSON.stringify(body)}\n\n`;
}

const variants: LegalVariant[] = [
  legal({
    name: 'resubscribe-final-status-as-one-event-stream',
    varies: ['resubscribe.finished-task-answer'],
    description: 'tasks/resubscribe of a finished task answers an SSE stream of one event (the final status)',
    allowedBy: 'spec 4.5 line 235, C-09 ("one-event SSE accepted")',
    only: ['2.10/*', '4.5/*', '6.6/*', '7/*'],
    hooks: {
      json: {
        'tasks/resubscribe': (body: { result?: unknown }, ctx) =>
          body?.result !== undefined && ctx.status === 200 && wantsStream(ctx)
            ? asOneEvent(body, ctx)
            : undefined,
      },
    },
  }),
  legal({
    name: 'stream-errors-as-one-sse-event',
    varies: ['errors.stream-error-form'],
    description:
      'a JSON-RPC error of message/stream or tasks/resubscribe answered with HTTP 200 comes as an SSE stream of one error event',
    allowedBy: 'C-26 ("either form accepted before start")',
    hooks: {
      json: Object.fromEntries(
        ['message/stream', 'tasks/resubscribe'].map((method) => [
          method,
          (body: { error?: unknown }, ctx: JsonContext) =>
            body?.error !== undefined && ctx.status === 200 && wantsStream(ctx)
              ? asOneEvent(body, ctx)
              : undefined,
        ]),
      ),
    },
  }),
  legal({
    name: 'card-other-values',
    varies: ['card.values'],
    description:
      'the card names the agent `Acme Support Desk`, type `retrieval-augmented`, version `2026.11.3-beta+7`',
    allowedBy: 'spec 2.14 lines 154-158 (strings; agent.type "for instance")',
    only: ['2.14/*', '4.8/*', '9/*'],
    hooks: {
      json: {
        'agent/authenticatedExtendedCard': (body: { result?: { agent?: Record<string, unknown> } }) => {
          const agent = body?.result?.agent;
          if (agent === undefined) return;
          agent.name = 'Acme Support Desk';
          agent.description = 'Answers questions about Acme products.';
          agent.type = 'retrieval-augmented';
          agent.version = '2026.11.3-beta+7';
        },
      },
    },
  }),
  legal({
    name: 'limits-other-values',
    varies: ['limits.values'],
    description:
      'the agent reports and enforces other limits: 3000 requests/min, 2 concurrent tasks, 20,000 characters, 1 MiB files of three types',
    allowedBy: 'spec 8 line 364 (no fixed defaults), C-46 (the card is authoritative)',
    options: {
      agent: {
        limits: { requestsPerMinute: 3000, concurrentTasks: 2, maxMessageLength: 20_000 },
        capabilities: {
          fileUpload: {
            maxFileSize: 1_048_576,
            supportedTypes: ['text/plain', 'application/json', 'image/png'],
          },
        },
      },
    },
  }),
  legal({
    name: 'sse-no-keep-alive-in-short-streams',
    varies: ['stream.keep-alive'],
    description:
      'keep-alive comments every 15 s (the reference default), so no stream of the run carries one',
    allowedBy: 'spec 4.2 line 219 ("`: ping` may appear"), C-31',
    options: { agent: { keepAliveMs: 15_000 } },
  }),
  legal({
    name: 'clock-seven-minutes-ahead',
    varies: ['deployment.clock-skew'],
    description:
      "the agent's clock runs 7 minutes ahead of the harness's: every timestamp it sends (answers, events, deliveries, the HTTP Date header) is 7 minutes later",
    allowedBy:
      'deployment: the agent and the harness run on different machines; spec 2.7, 6.3 (timestamps are the agent\u2019s)',
    everyJson: (json) =>
      eachString(json, (s) => (ISO_MS.test(s) ? new Date(Date.parse(s) + SKEW_MS).toISOString() : s)),
    hooks: {
      // The HTTP Date header comes from the same clock.
      head: (head) => {
        const date = head.headers.date;
        if (typeof date === 'string') head.headers.date = new Date(Date.parse(date) + SKEW_MS).toUTCString();
      },
    },
  }),
  legal({
    name: 'webhook-retries-start-late',
    varies: ['webhook.retry-jitter'],
    description: 'each webhook retry (attempt 2 and later) leaves 100 to 500 ms after its backoff schedule',
    allowedBy: 'C-20 (a retry within [scheduled - 50 ms, scheduled + 1000 ms])',
    only: ['2.11/*', '6.5/*', '6.2/*'],
    relay: {
      // The rest of C-20's second is the relay's share: its hops (the failed attempt's answer back to
      // the sender, the retry on to the receiver, each on a new connection) and both its and the
      // agent's timers, late on a loaded runner. Holds up to 700 ms left 300 ms, and one run beside a
      // load of about 9 on 2 cores put a retry past the second: the variant itself was then illegal.
      holdMs: (a) => ((deliveryOf(a).attempt ?? 1) >= 2 ? 100 + Math.floor(Math.random() * 401) : 0),
    },
  }),
];

export default variants;
