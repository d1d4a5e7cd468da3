// A small A2A JSON-RPC client (spec 2, 4, 7) that passes `a2a-conformance client`: a fresh UUID as
// each request's id and each message's messageId (2.1, 2.3), the credential and Content-Type on every
// request (4, 5), Accept: text/event-stream on streams (4.2), SSE read across reads with comments
// ignored and the stream closed at the final event (4.2, C-75), and retries on HTTP 5xx only (7, C-74).
// Node 20, no dependency.
import { randomUUID } from 'node:crypto';

/** A JSON-RPC error answer (spec 7), as an exception carrying its code. */
export class A2AError extends Error {
  constructor(error) {
    super(`${error?.code} ${error?.message}`);
    this.code = error?.code;
    this.data = error?.data;
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export const text = (value) => ({ type: 'text', text: value });

/** A user message (spec 2.3): role `user`, a UUID v4 messageId. */
export const userMessage = (...parts) => ({ role: 'user', messageId: randomUUID(), parts });

/** The reply text of a task: the text parts of `status.message`, joined with a newline (spec 4.1). */
export const replyText = (task) =>
  (task?.status?.message?.parts ?? [])
    .filter((p) => p?.type === 'text')
    .map((p) => p.text)
    .join('\n');

/**
 * The `data` of each SSE event of a response body, read as the event-stream format says: an event
 * ends at a blank line whatever the reads that carried it; comment lines (`: ping`) are no events.
 * Returning early (the caller saw `final`) cancels the body, which closes the stream.
 */
export async function* readSseEvents(body) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      // A CR at the very end may be the first half of a CRLF: it waits for the next read, or the end.
      buffer = done
        ? buffer.replace(/\r/g, '\n')
        : (buffer + decoder.decode(value, { stream: true })).replace(/\r\n|\r(?!$)/g, '\n');
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = block
          .split('\n')
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(5).replace(/^ /, ''))
          .join('\n');
        if (data !== '') yield data;
      }
      if (done) return; // an event the stream left unterminated is discarded, as the format says
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

/**
 * A client of one agent. `maxRetries` retries of an HTTP 5xx answer (exponential delays from
 * `retryDelayMs`); a JSON-RPC error is never retried (spec 7 note 2).
 */
export function createClient({
  target,
  agentId,
  apiKey,
  fetch = globalThis.fetch,
  maxRetries = 3,
  retryDelayMs = 200,
  readEvents = readSseEvents,
}) {
  const url = `${target.replace(/\/+$/, '')}/api/v1/a2a/${encodeURIComponent(agentId)}`;

  async function post(method, params, accept) {
    // A retry is the same request: it keeps its id (C-74).
    const body = JSON.stringify({ jsonrpc: '2.0', id: randomUUID(), method, params });
    const headers = { 'content-type': 'application/json', accept, 'x-api-key': apiKey };
    for (let attempt = 0; ; attempt += 1) {
      const res = await fetch(url, { method: 'POST', headers, body });
      if (res.status < 500 || attempt >= maxRetries) return res;
      await res.body?.cancel();
      await sleep(retryDelayMs * 2 ** attempt);
    }
  }

  async function call(method, params) {
    const res = await post(method, params, 'application/json');
    const answer = await res.json().catch(() => {
      throw new Error(`${method}: HTTP ${res.status} without a JSON body`);
    });
    if (answer.error !== undefined) throw new A2AError(answer.error);
    return answer.result;
  }

  /** The results of a streaming call, up to and including the one with `final` true. */
  async function* stream(method, params) {
    const res = await post(method, params, 'text/event-stream');
    if (!(res.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
      const answer = await res.json();
      if (answer.error !== undefined) throw new A2AError(answer.error);
      yield answer.result;
      return;
    }
    for await (const data of readEvents(res.body)) {
      const event = JSON.parse(data);
      if (event.error !== undefined) throw new A2AError(event.error);
      yield event.result;
      if (event.result?.final === true) return; // spec 4.2: close the stream at the final event
    }
  }

  return {
    send: (message, extra = {}) => call('message/send', { message, ...extra }),
    stream: (message, extra = {}) => stream('message/stream', { message, ...extra }),
    cancel: (taskId, reason) => call('tasks/cancel', { taskId, ...(reason === undefined ? {} : { reason }) }),
    getTask: (taskId) => call('tasks/get', { taskId }),
  };
}
