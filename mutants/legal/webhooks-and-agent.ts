// What an agent may do its own way (spec 6.2 `<product>-Webhook/<version>`; spec 3 line 180, a
// `task.working` webhook is optional per agent; docs/directives.md, the contract is optional; replies
// are the agent's own text and may carry files, spec 2.4; the payload timestamp's meaning is not
// given, spec 6.3): other webhook headers, no working webhook, no directives, free text, a file in
// every reply, a timestamp per attempt.
import { eachObject, legal, type LegalSpec } from '../legal-kit.ts';
import type { LegalVariant } from '../types.ts';
import { setPayload } from '../webhook-relay.ts';

const DIRECTIVE = /^\s*a2a:directive/;

/** The directive parts become plain content (`a2a:directive` in the middle of a text), as for an agent without the contract. */
function ignoreDirectives(json: unknown): void {
  eachObject(json, (o) => {
    if (o.type === 'text' && typeof o.text === 'string' && DIRECTIVE.test(o.text)) o.text = `note: ${o.text}`;
  });
}

/** A small text file an agent attaches to its reply (spec 2.5: name, mimeType, Base64 bytes). */
const REPLY_FILE = {
  name: 'summary.txt',
  mimeType: 'text/plain',
  bytes: Buffer.from('A summary of the answer, as a file.\n').toString('base64'),
};

const FREE_TEXT = 'Thanks for your message! I had a look, and here is what I think: it all checks out.';

const noDirectives: Pick<LegalSpec, 'request'> = {
  request: (json, call) => {
    if (call.method === 'message/send' || call.method === 'message/stream') ignoreDirectives(json);
  },
};

const variants: LegalVariant[] = [
  legal({
    name: 'webhook-user-agent-other-product',
    varies: ['webhook.user-agent-product'],
    description: 'deliveries carry `User-Agent: Acme_Agents.io-Webhook/2.3.1-rc.1+build.7`',
    allowedBy: 'spec 6.2 (User-Agent `<product>-Webhook/<version>`)',
    relay: {
      rewrite(a) {
        a.headers['user-agent'] = 'Acme_Agents.io-Webhook/2.3.1-rc.1+build.7';
      },
    },
  }),
  legal({
    name: 'webhook-extra-headers',
    varies: ['webhook.extra-headers'],
    description: 'deliveries carry more headers (X-Webhook-Timestamp, Webhook-Id, X-Acme-Trace, Accept)',
    allowedBy: 'spec 6.2 (the listed headers; nothing forbids others)',
    relay: {
      rewrite(a) {
        a.headers['x-webhook-timestamp'] = String(Math.floor(Date.now() / 1000));
        a.headers['webhook-id'] = a.headers['x-webhook-delivery'] ?? 'none';
        a.headers['x-acme-trace'] = 'trace-1';
        a.headers['accept'] = '*/*';
      },
    },
  }),
  legal({
    name: 'webhook-signature-upper-case-hex',
    varies: ['webhook.signature-hex-case'],
    description: 'X-Webhook-Signature carries the digest in upper-case hex: `sha256=9F86D0...`',
    allowedBy: 'spec 6.4 (`sha256=` + HMAC-SHA256 in hex; hex digits are case-insensitive)',
    relay: {
      rewrite(a) {
        const sig = a.headers['x-webhook-signature'];
        if (sig !== undefined)
          a.headers['x-webhook-signature'] = sig.replace(
            /^sha256=(.*)$/,
            (_, hex: string) => `sha256=${hex.toUpperCase()}`,
          );
      },
    },
  }),
  legal({
    name: 'webhook-no-task-working-event',
    varies: ['webhook.working-event'],
    description: 'the agent never sends `task.working` deliveries',
    allowedBy: 'spec 3 line 180 ("A `task.working` webhook may be sent (optional per agent)"), C-20',
    relay: {
      rewrite: (a) => (a.json?.event === 'task.working' ? 'drop' : undefined),
    },
  }),
  legal({
    name: 'agent-ignores-directives',
    varies: ['agent.directive-contract'],
    description: 'the agent does not implement docs/directives.md: a directive is plain text to it',
    allowedBy: 'docs/directives.md (an agent without the contract gets not-exercised, never fail)',
    ...noDirectives,
  }),
  legal({
    name: 'agent-free-text-replies',
    varies: ['agent.reply-content', 'agent.directive-contract'],
    description: 'no directive contract, and every agent reply is the same free text instead of an echo',
    allowedBy: "spec 2.3, 2.8 (a reply is a message of role agent with parts; its text is the agent's)",
    ...noDirectives,
    everyJson: (json) =>
      eachObject(json, (o) => {
        if (o.role !== 'agent' || !Array.isArray(o.parts)) return;
        o.parts = [{ type: 'text', text: FREE_TEXT }];
      }),
  }),
  legal({
    name: 'agent-replies-with-a-file-part',
    varies: ['agent.reply-part-types'],
    description:
      'every agent reply (answers, stream events, webhook payloads) carries a file part after its text parts',
    allowedBy: 'spec 2.4 line 54 ("Agent replies typically use type `text`"), 2.5 (a file part)',
    everyJson: (json) =>
      eachObject(json, (o) => {
        if (o.role !== 'agent' || !Array.isArray(o.parts)) return;
        if (o.parts.some((p) => (p as { type?: unknown }).type === 'file')) return;
        o.parts.push({ type: 'file', file: REPLY_FILE });
      }),
  }),
  legal({
    name: 'webhook-timestamp-of-the-attempt',
    varies: ['webhook.payload-timestamp'],
    description:
      'the payload timestamp is the time each attempt is sent (a retry carries a later one), not the time of the event',
    allowedBy: 'spec 6.3 line 304 (timestamp: ISO 8601; what it is the time of is not said)',
    relay: {
      rewrite(a) {
        if (a.json === undefined) return;
        a.json.timestamp = new Date().toISOString();
        setPayload(a, a.json);
      },
    },
  }),
  legal({
    name: 'agent-slow-answers',
    varies: ['deployment.turn-latency'],
    description: 'every message/send and message/stream waits 400 ms before it reaches the agent',
    allowedBy: 'spec 8 (no response time is set for an agent)',
    hooks: {
      answer: async (call) => {
        if (call.method === 'message/send' || call.method === 'message/stream')
          await new Promise((resolve) => setTimeout(resolve, 400));
        return false;
      },
    },
  }),
];

export default variants;
