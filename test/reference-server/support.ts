// Shared helpers of the reference-server tests: start a server on 127.0.0.1:0, make JSON-RPC calls
// over real HTTP (fetch) and read SSE streams as raw text, so tests assert exact wire bytes.
import { randomUUID } from 'node:crypto';
import { afterEach } from 'vitest';
import { startReferenceServer } from '../../reference-server/index.ts';
import type {
  AgentConfigInput,
  Part,
  ReferenceServer,
  ReferenceServerOptions,
} from '../../reference-server/types.ts';

export const KEY = 'test-key-a';
export const TOKEN = 'test-token-a';
export const KEY_B = 'test-key-b';

export const AGENT_A: AgentConfigInput = { id: 'agent-a', apiKeys: [KEY], bearerTokens: [TOKEN] };
export const AGENT_B: AgentConfigInput = { id: 'agent-b', apiKeys: [KEY_B] };

const started: ReferenceServer[] = [];

afterEach(async () => {
  await Promise.all(started.splice(0).map((server) => server.close()));
});

export interface Harness {
  server: ReferenceServer;
  url(agentId?: string): string;
  post(body: unknown, init?: PostInit): Promise<RawResponse>;
  rpc(method: string, params?: unknown, init?: PostInit): Promise<RpcReply>;
}

/** Request headers; undefined values are left out (handy in tables of header combinations). */
export type HeaderTable = Record<string, string | undefined>;

export function definedHeaders(headers: HeaderTable): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

export interface PostInit {
  agentId?: string;
  headers?: HeaderTable;
  /** Send the body text as is (not JSON-encoded). */
  raw?: boolean;
}

export interface RawResponse {
  status: number;
  headers: Headers;
  text: string;
  json: Record<string, unknown>;
}

export interface RpcReply extends RawResponse {
  result: Record<string, unknown>;
  error: { code: number; message: string; data?: Record<string, unknown> } | undefined;
}

/** Starts a server (closed after each test) hosting agent-a and agent-b unless told otherwise. */
export async function startServer(options: ReferenceServerOptions = {}): Promise<Harness> {
  const server = await startReferenceServer({ agents: [AGENT_A, AGENT_B], ...options });
  started.push(server);
  const url = (agentId = 'agent-a'): string => `${server.baseUrl}/api/v1/a2a/${agentId}`;
  const post = async (body: unknown, init: PostInit = {}): Promise<RawResponse> => {
    const response = await fetch(url(init.agentId), {
      method: 'POST',
      headers: definedHeaders({
        'content-type': 'application/json',
        'x-api-key': keyFor(init.agentId),
        ...init.headers,
      }),
      body: init.raw === true ? (body as string) : JSON.stringify(body),
    });
    const text = await response.text();
    let json: Record<string, unknown> = {};
    try {
      json = JSON.parse(text) as Record<string, unknown>;
    } catch {
      /* SSE or empty bodies */
    }
    return { status: response.status, headers: response.headers, text, json };
  };
  const rpc = async (method: string, params?: unknown, init: PostInit = {}): Promise<RpcReply> => {
    const envelope: Record<string, unknown> = { jsonrpc: '2.0', id: `req-${randomUUID()}`, method };
    if (params !== undefined) envelope.params = params;
    const raw = await post(envelope, init);
    return {
      ...raw,
      result: (raw.json.result ?? {}) as Record<string, unknown>,
      error: raw.json.error as RpcReply['error'],
    };
  };
  return { server, url, post, rpc };
}

function keyFor(agentId: string | undefined): string {
  return agentId === 'agent-b' ? KEY_B : KEY;
}

export function directive(fields: Record<string, unknown>): Part {
  return { type: 'text', text: `a2a:directive ${JSON.stringify(fields)}` };
}

export function userMessage(...parts: Array<Part | string>): Record<string, unknown> {
  return {
    role: 'user',
    messageId: randomUUID(),
    parts: parts.map((part) => (typeof part === 'string' ? { type: 'text', text: part } : part)),
  };
}

export function sendParams(...parts: Array<Part | string>): { message: Record<string, unknown> } {
  return { message: userMessage(...parts) };
}

export function filePart(name: string, mimeType: string, content: Buffer | string): Part {
  return { type: 'file', file: { name, mimeType, bytes: Buffer.from(content).toString('base64') } };
}

/** The `result` objects of an SSE body made of `data: <json>\n\n` frames. */
export function sseResults(text: string): Array<Record<string, unknown>> {
  return text
    .split('\n\n')
    .filter((frame) => frame.startsWith('data: '))
    .map((frame) => (JSON.parse(frame.slice(6)) as { result: Record<string, unknown> }).result);
}

export function stateOf(result: Record<string, unknown>): string {
  return (result.status as { state: string }).state;
}

export async function waitFor(predicate: () => Promise<boolean> | boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await predicate())) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Polls tasks/get until the task is in `state`. */
export async function waitForState(
  h: Harness,
  taskId: string,
  state: string,
  agentId?: string,
): Promise<void> {
  await waitFor(async () => {
    const reply = await h.rpc('tasks/get', { taskId }, { agentId });
    return reply.error === undefined && stateOf(reply.result) === state;
  });
}

export interface LiveStream {
  status: number;
  headers: Headers;
  /** The next raw frame (`data: ...` or `: ping`) without its trailing blank line. */
  nextFrame(timeoutMs?: number): Promise<string>;
  /** The next data frame's JSON-RPC response, skipping pings. */
  nextEvent(timeoutMs?: number): Promise<Record<string, unknown>>;
  /** Resolves with the rest of the body once the server closes the stream. */
  rest(): Promise<string>;
  cancel(): Promise<void>;
}

export async function openStream(
  h: Harness,
  method: string,
  params: unknown,
  init: PostInit = {},
): Promise<LiveStream> {
  const controller = new AbortController();
  const envelope = { jsonrpc: '2.0', id: 'stream-1', method, params };
  const response = await fetch(h.url(init.agentId), {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'text/event-stream',
      'x-api-key': KEY,
      ...init.headers,
    },
    body: JSON.stringify(envelope),
    signal: controller.signal,
  });
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let done = false;
  const fill = async (timeoutMs: number): Promise<void> => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error('no SSE frame in time')), timeoutMs);
    });
    try {
      const chunk = await Promise.race([reader.read(), timeout]);
      if (chunk.done) done = true;
      else buffer += decoder.decode(chunk.value, { stream: true });
    } finally {
      clearTimeout(timer);
    }
  };
  const nextFrame = async (timeoutMs = 5000): Promise<string> => {
    while (!buffer.includes('\n\n')) {
      if (done) throw new Error(`stream ended; unparsed: ${JSON.stringify(buffer)}`);
      await fill(timeoutMs);
    }
    const end = buffer.indexOf('\n\n');
    const frame = buffer.slice(0, end);
    buffer = buffer.slice(end + 2);
    return frame;
  };
  return {
    status: response.status,
    headers: response.headers,
    nextFrame,
    async nextEvent(timeoutMs) {
      for (;;) {
        const frame = await nextFrame(timeoutMs);
        if (frame.startsWith('data: ')) return JSON.parse(frame.slice(6)) as Record<string, unknown>;
      }
    },
    async rest() {
      while (!done) await fill(10_000);
      return buffer;
    },
    async cancel() {
      controller.abort();
      await reader.cancel().catch(() => undefined);
    },
  };
}

/** Starts a call whose answer the test does not need (it may be cut off when the server closes). */
export function detach(call: Promise<unknown>): void {
  call.catch(() => undefined);
}
