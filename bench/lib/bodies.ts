// The request bodies of the benchmark. The reference server and the floor get the service's own
// message/send shape (spec 2.1, 2.3, 2.4); the @a2a-js/sdk peer gets the official A2A 0.3 shape
// (`kind` discriminators), so each server is sent the request it is built to answer.
import { randomUUID } from 'node:crypto';

export const ECHO_TEXT = 'hello from the benchmark';

/** message/send (or message/stream) in this service's dialect, with optional directive parts. */
export function serviceBody(method = 'message/send', extraParts: object[] = [], text = ECHO_TEXT): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id: randomUUID(),
    method,
    params: {
      message: { role: 'user', messageId: randomUUID(), parts: [{ type: 'text', text }, ...extraParts] },
    },
  });
}

/** A directive part (docs/directives.md) for scripted tasks. */
export function directive(fields: Record<string, unknown>): object {
  return { type: 'text', text: `a2a:directive ${JSON.stringify(fields)}` };
}

/** message/send in the official A2A 0.3 dialect spoken by @a2a-js/sdk. */
export function peerBody(text = ECHO_TEXT): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id: randomUUID(),
    method: 'message/send',
    params: {
      message: { kind: 'message', role: 'user', messageId: randomUUID(), parts: [{ kind: 'text', text }] },
    },
  });
}

export function rpcBody(method: string, params: object): string {
  return JSON.stringify({ jsonrpc: '2.0', id: randomUUID(), method, params });
}

/** One POST with a JSON body; resolves with the parsed JSON answer. */
export async function postJson(url: string, headers: Record<string, string>, body: string): Promise<unknown> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${url}: HTTP ${response.status} ${text.slice(0, 200)}`);
  return JSON.parse(text) as unknown;
}

interface TaskLike {
  id?: string;
  status?: { state?: string; message?: { parts?: { text?: string }[] } };
}

/** The reference answer to message/send: a completed task whose reply echoes the text (directives.md 4). */
export function completedEcho(answer: unknown, text = ECHO_TEXT): TaskLike {
  const result = (answer as { result?: TaskLike }).result;
  const reply = result?.status?.message?.parts?.[0]?.text;
  if (result?.status?.state !== 'completed' || reply !== `echo ${JSON.stringify(text)}`) {
    throw new Error(`not a completed echo task: ${JSON.stringify(answer).slice(0, 300)}`);
  }
  return result;
}
