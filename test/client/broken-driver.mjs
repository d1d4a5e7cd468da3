#!/usr/bin/env node
// The example driver (examples/client/) with one named fault, for the broken-client tests
// (broken-clients.ts): `node broken-driver.mjs <fault>`. A fault rewrites what the client sends
// (a fetch wrapper), how it reads streams (an SSE reader), its retry policy or where it reads a reply.
import {
  createClient,
  readSseEvents,
  replyText,
  text,
  userMessage,
} from '../../examples/client/a2a-client.mjs';
import { SCENARIOS } from '../../examples/client/scenarios.mjs';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A fetch that lets `edit` change the JSON-RPC request (and its headers) before it goes out. */
const rewriting = (edit) => (url, init) => {
  const body = JSON.parse(init.body);
  const headers = { ...init.headers };
  edit(body, headers);
  return fetch(url, { ...init, headers, body: JSON.stringify(body) });
};

let count = 0;
const FAULTS = {
  'jsonrpc-1-0': { fetch: rewriting((b) => (b.jsonrpc = '1.0')) },
  'reuses-one-id': { fetch: rewriting((b) => (b.id = 'request-1')) },
  'role-agent': { fetch: rewriting((b) => b.params?.message && (b.params.message.role = 'agent')) },
  'message-id-counter': {
    fetch: rewriting((b) => b.params?.message && (b.params.message.messageId = `msg-${++count}`)),
  },
  'data-url-bytes': {
    fetch: rewriting((b) => {
      for (const p of b.params?.message?.parts ?? []) {
        if (p.type === 'file') p.file.bytes = `data:${p.file.mimeType};base64,${p.file.bytes}`;
      }
    }),
  },
  'no-file-name': {
    fetch: rewriting((b) => {
      for (const p of b.params?.message?.parts ?? []) if (p.type === 'file') delete p.file.name;
    }),
  },
  'file-without-text': {
    fetch: rewriting((b) => {
      const parts = b.params?.message?.parts;
      if (parts?.some((p) => p.type === 'file'))
        b.params.message.parts = parts.filter((p) => p.type === 'file');
    }),
  },
  'text-plain': { fetch: rewriting((_b, h) => (h['content-type'] = 'text/plain')) },
  'no-credential': { fetch: rewriting((_b, h) => delete h['x-api-key']) },
  'no-accept': { fetch: rewriting((b, h) => b.method === 'message/stream' && delete h.accept) },
  'drops-context-id': { fetch: rewriting((b) => delete b.params?.contextId) },
  'cancel-with-id-param': {
    fetch: rewriting((b) => {
      if (b.method === 'tasks/cancel') {
        b.params.id = b.params.taskId;
        delete b.params.taskId;
      }
    }),
  },
  // A fetch that sends every message/send twice: the second copy goes after the first was answered.
  'sends-twice': {
    fetch: async (url, init) => {
      const res = await fetch(url, init);
      if (JSON.parse(init.body).method !== 'message/send' || res.status >= 500) return res;
      await res.body?.cancel();
      return fetch(url, init);
    },
  },
  // Retries a JSON-RPC error answer (HTTP 200) as if it were transient.
  'retries-json-rpc-errors': {
    fetch: async (url, init) => {
      for (let attempt = 0; ; attempt += 1) {
        const res = await fetch(url, init);
        const text = await res.text();
        if (attempt >= 2 || !text.includes('"error"'))
          return new Response(text, { status: res.status, headers: res.headers });
      }
    },
  },
  'never-retries': { maxRetries: 0 },
  'chokes-on-ping': {
    readEvents: async function* (body) {
      const [mine, theirs] = body.tee();
      const reader = mine.getReader();
      const probe = (async () => {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return;
          if (new TextDecoder().decode(value).includes(': ping')) throw new Error('unexpected line ": ping"');
        }
      })();
      probe.catch(() => process.exit(3));
      yield* readSseEvents(theirs);
    },
  },
  // Parses each read on its own, as if every read held whole events.
  'one-read-one-event': {
    readEvents: async function* (body) {
      const reader = body.getReader();
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return;
          for (const block of new TextDecoder().decode(value).split('\n\n')) {
            if (block.startsWith('data: ')) yield block.slice(6);
          }
        }
      } finally {
        await reader.cancel().catch(() => undefined);
      }
    },
  },
  // Legal variants (broken-clients.ts LEGAL_CLIENTS): choices the spec leaves open, which must pass.
  'bearer-credential': {
    fetch: rewriting((_b, h) => {
      h.authorization = `Bearer ${h['x-api-key']}`;
      delete h['x-api-key'];
    }),
  },
  'fresh-id-per-attempt': { fetch: rewriting((b) => (b.id = crypto.randomUUID())) },
  'charset-content-type': {
    fetch: rewriting((_b, h) => (h['content-type'] = 'application/json; charset=utf-8')),
  },
  'accept-list': {
    fetch: rewriting(
      (b, h) => b.method === 'message/stream' && (h.accept = 'application/json, text/event-stream'),
    ),
  },
  // Keeps reading after the final event for 5 s before closing.
  'closes-late': {
    readEvents: async function* (body) {
      const inner = readSseEvents(body);
      try {
        for (;;) {
          const { value, done } = await inner.next();
          if (done) return;
          yield value;
        }
      } finally {
        await sleep(5000);
        await inner.return();
      }
    },
  },
};

// Faults in where the driver reads its answer, as scenario overrides.
const SCENARIO_FAULTS = {
  // Reads the reply from `result.message` (the wrong place) instead of `result.status.message`.
  'reply-from-result-message': {
    send: async (client) => [(await client.send(userMessage(text('hello')))).message?.parts?.[0]?.text ?? ''],
  },
  // Prints the reply of the first event of the stream instead of the final one.
  'reply-from-first-event': {
    stream: async (client) => {
      const results = [];
      for await (const result of client.stream(userMessage(text('hello')))) results.push(result);
      return [replyText(results[0])];
    },
  },
};

const fault = process.argv[2];
const env = process.env;
const options = fault in SCENARIO_FAULTS ? {} : FAULTS[fault];
if (options === undefined) {
  process.stderr.write(`unknown fault '${fault}'\n`);
  process.exit(2);
}
const scenarios = { ...SCENARIOS, ...SCENARIO_FAULTS[fault] };
const client = createClient({
  target: env.A2A_TARGET,
  agentId: env.A2A_AGENT_ID,
  apiKey: env.A2A_API_KEY,
  ...options,
});
const lines = await scenarios[env.A2A_SCENARIO](client, env);
process.stdout.write(`${lines.join('\n')}\n`);
