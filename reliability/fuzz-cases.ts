// fast-check generators of hostile requests for the reference server (spec 2, 4, 5, 7; rulings C-02,
// C-11, C-12, C-13, C-14, C-28, C-32, C-42, C-47, C-48): invalid JSON, wrong types in every field,
// huge strings and arrays, deep nesting, invalid UTF-8, wrong or missing Content-Type, missing or
// repeated credential headers, unknown HTTP and JSON-RPC methods, batches, notifications, oversized
// bodies and targets, malformed HTTP. Every case is plain data, so a failing one prints and replays.
import fc from 'fast-check';
import { METHODS, WEBHOOK_EVENTS } from '../schemas/error-codes.ts';

export const FUZZ_AGENT = 'fuzz-agent';
export const FUZZ_KEY = 'fuzz-key-0123456789';
export const FUZZ_TOKEN = 'fuzz-token-0123456789';
/** Client-chosen task ids (C-16) shared by every case, so get, cancel and resubscribe hit real tasks. */
const TASK_IDS = Array.from({ length: 40 }, (_, i) => `fz-${i}`);

/** Sent through an HTTP client (keep-alive); `headers` are flat name/value pairs, repeats allowed. */
export interface HttpCase {
  via: 'http';
  kind: string;
  method: string;
  path: string;
  headers: string[];
  body?: Buffer;
  /** The JSON-RPC method the body names, when it is one the server serves (selects a result schema). */
  rpcMethod?: string;
}

/** Written byte for byte on a fresh socket; the answer is read until the server closes. */
export interface RawCase {
  via: 'raw';
  kind: string;
  bytes: Buffer;
  /** The client stops sending mid-request: closing without an answer is correct. */
  abandons?: boolean;
}

export type FuzzCase = HttpCase | RawCase;

export const AGENT_PATH = `/api/v1/a2a/${FUZZ_AGENT}`;
const BASE_HEADERS = ['content-type', 'application/json', 'x-api-key', FUZZ_KEY];

// ---------------------------------------------------------------- hostile JSON values

/** Nesting `depth` levels deep, as text (the builder itself must not recurse). */
function nested(depth: number, open: string, close: string, core = '0'): string {
  return open.repeat(depth) + core + close.repeat(depth);
}

/** A JSON text (not a value): raw text lets a case nest deeper than JSON.stringify would. */
const hostileJsonText: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v) ?? 'null') },
  { weight: 2, arbitrary: fc.integer({ min: 1, max: 200_000 }).map((n) => JSON.stringify('x'.repeat(n))) },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 1, max: 20_000 }).map((n) => JSON.stringify('\u{1F600}'.repeat(n))),
  },
  { weight: 2, arbitrary: fc.integer({ min: 1, max: 100_000 }).map((n) => `[${'0,'.repeat(n)}0]`) },
  { weight: 2, arbitrary: fc.integer({ min: 50, max: 20_000 }).map((n) => nested(n, '[', ']')) },
  { weight: 2, arbitrary: fc.integer({ min: 50, max: 20_000 }).map((n) => nested(n, '{"a":', '}')) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('1e999', '-0', '1.5', '9007199254740993', '-1', '0', 'true', 'null'),
  },
  { weight: 1, arbitrary: fc.constantFrom('"\\ud800"', '"\\u0000"', '"a2a:directive {}"', '""', '{}', '[]') },
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: 1, max: 5_000 })
      .map((n) => `{${Array.from({ length: n }, (_, i) => `"k${i}":${i}`).join(',')}}`),
  },
);

// ---------------------------------------------------------------- request templates

/** A text part, sometimes a directive with values in and out of range (docs/directives.md). */
const textPart = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 40 }).map((text) => ({ type: 'text', text })) },
  {
    weight: 2,
    arbitrary: fc
      .record(
        {
          delayMs: fc.oneof(fc.integer({ min: 0, max: 40 }), fc.constantFrom(-1, 1.5, '10', null, 1e12)),
          progressSteps: fc.oneof(fc.integer({ min: 0, max: 3 }), fc.constantFrom(-3, 101, 'x')),
          fail: fc.oneof(fc.string({ minLength: 1, maxLength: 10 }), fc.constantFrom('', 7)),
          runUntilCanceled: fc.oneof(fc.boolean(), fc.constant('yes')),
          finishOnCancel: fc.boolean(),
          echoFiles: fc.boolean(),
          turn: fc.boolean(),
          streamable: fc.boolean(),
          streamError: fc.boolean(),
          internalError: fc.boolean(),
          unknownField: fc.constant(1),
        },
        { requiredKeys: [] },
      )
      .map((fields) => ({ type: 'text', text: `a2a:directive ${JSON.stringify(fields)}` })),
  },
);

const filePart = fc
  .record({
    name: fc.string({ maxLength: 12 }),
    mimeType: fc.constantFrom('text/plain', 'image/png', 'application/x-evil', ''),
    bytes: fc.oneof(
      fc.uint8Array({ maxLength: 64 }).map((b) => Buffer.from(b).toString('base64')),
      fc.constantFrom('!!!', 'QQ', 'QQ==QQ==', ''),
      fc.integer({ min: 1, max: 300_000 }).map((n) => 'QUFB'.repeat(n)),
    ),
  })
  .map((file) => ({ type: 'file', file }));

const message = fc.record({
  role: fc.constantFrom('user', 'user', 'agent', 'system'),
  messageId: fc.uuid({ version: 4 }),
  parts: fc.array(fc.oneof({ weight: 4, arbitrary: textPart }, { weight: 1, arbitrary: filePart }), {
    minLength: 1,
    maxLength: 3,
  }),
});

const taskId = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...TASK_IDS) },
  { weight: 1, arbitrary: fc.uuid() },
);

/** Valid-looking params per method; mutations below then break one field at a time. */
function paramsOf(method: string): fc.Arbitrary<Record<string, unknown>> {
  switch (method) {
    case 'message/send':
    case 'message/stream':
      return fc.record(
        { message, id: fc.constantFrom(...TASK_IDS), contextId: fc.uuid() },
        { requiredKeys: ['message'] },
      );
    case 'tasks/get':
      return fc.record({ taskId, includeHistory: fc.boolean() }, { requiredKeys: ['taskId'] });
    case 'tasks/cancel':
      return fc.record({ taskId, reason: fc.string({ maxLength: 20 }) }, { requiredKeys: ['taskId'] });
    case 'tasks/resubscribe':
      return fc.record({ taskId });
    case 'tasks/pushNotificationConfig/set':
      return fc.record(
        {
          taskId,
          config: fc.record(
            {
              // Loopback only: refused by the SSRF guard at set time or at delivery, never sent.
              url: fc.constantFrom(
                'http://localhost:1/hook',
                'http://127.0.0.1:1/hook',
                'ftp://x/',
                'relative',
              ),
              events: fc.subarray([...WEBHOOK_EVENTS]),
              headers: fc.dictionary(
                fc.constantFrom('X-A', 'Host', 'X-Webhook-Event'),
                fc.string({ maxLength: 8 }),
              ),
              retryPolicy: fc.record(
                {
                  maxRetries: fc.integer({ min: -1, max: 11 }),
                  backoffMultiplier: fc.double({ min: 0, max: 11, noNaN: true }),
                  initialDelay: fc.double({ min: 0, max: 4000, noNaN: true }),
                },
                { requiredKeys: [] },
              ),
              secret: fc.string({ maxLength: 8 }),
            },
            { requiredKeys: ['url'] },
          ),
        },
        { requiredKeys: ['config'] },
      );
    case 'tasks/pushNotificationConfig/get':
      return fc.record({ taskId }, { requiredKeys: [] });
    default:
      return fc.record(
        { includeMetrics: fc.boolean(), extra: fc.string({ maxLength: 4 }) },
        { requiredKeys: [] },
      );
  }
}

/** Every path into `value` (objects and arrays), root excluded. */
function pathsOf(
  value: unknown,
  prefix: Array<string | number> = [],
  out: Array<Array<string | number>> = [],
) {
  if (typeof value !== 'object' || value === null) return out;
  for (const [key, child] of Object.entries(value)) {
    const path = [...prefix, Array.isArray(value) ? Number(key) : key];
    out.push(path);
    pathsOf(child, path, out);
  }
  return out;
}

const RAW_MARK = '\u0000raw\u0000';

/** Replaces (or deletes, or adds beside) the value at `path`; a hostile replacement goes in as raw text. */
function mutate(root: Record<string, unknown>, path: Array<string | number>, how: string): unknown {
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let parent: Record<string | number, unknown> = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const last = path[path.length - 1] as string | number;
  if (how === 'delete') {
    if (Array.isArray(parent)) parent.splice(last as number, 1);
    else delete parent[last];
  } else if (how === 'extra') {
    if (!Array.isArray(parent)) parent[`x-unknown-${String(last)}`] = RAW_MARK;
  } else {
    parent[last] = RAW_MARK;
  }
  return copy;
}

/** JSON.stringify, then the marker replaced by the raw hostile text (which may be deeper than stringify allows). */
function withRaw(value: unknown, raw: string): string {
  return JSON.stringify(value).replace(JSON.stringify(RAW_MARK), () => raw);
}

const rpcMethod = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...METHODS) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('tasks/list', 'rpc.discover', 'MESSAGE/SEND', '', 'message/send '),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 30 }) },
);

const rpcId = fc.oneof(
  { weight: 6, arbitrary: fc.oneof(fc.string({ maxLength: 12 }), fc.integer()) },
  { weight: 1, arbitrary: fc.constantFrom(null, 1.5, true, [], {}, 2 ** 60, '', -0) },
);

/** A JSON-RPC body as text: valid, or with one field of the envelope or params made hostile. */
function rpcBodyOf(withId: boolean): fc.Arbitrary<{ text: string; method: string; kind: string }> {
  return rpcMethod.chain((method) =>
    fc
      .tuple(
        paramsOf(method),
        rpcId,
        fc.nat(),
        fc.constantFrom('replace', 'delete', 'extra', 'none', 'none'),
        hostileJsonText,
      )
      .map(([params, id, pick, how, raw]) => {
        const envelope = withId ? { jsonrpc: '2.0', id, method, params } : { jsonrpc: '2.0', method, params };
        if (how === 'none') return { text: JSON.stringify(envelope), method, kind: 'rpc-valid-shape' };
        const paths = pathsOf(envelope);
        const path = paths[pick % paths.length] as Array<string | number>;
        const where = path[0] === 'params' ? 'params' : 'envelope';
        return { text: withRaw(mutate(envelope, path, how), raw), method, kind: `rpc-${how}-${where}` };
      }),
  );
}
const rpcBody = rpcBodyOf(true);

// ---------------------------------------------------------------- whole requests

const http = (kind: string, body: string | Buffer, extra: Partial<HttpCase> = {}): HttpCase => ({
  via: 'http',
  kind,
  method: 'POST',
  path: AGENT_PATH,
  headers: BASE_HEADERS,
  body: typeof body === 'string' ? Buffer.from(body) : body,
  ...extra,
});

const rpcCase = rpcBody.map(({ text, method, kind }) =>
  http(kind, text, (METHODS as readonly string[]).includes(method) ? { rpcMethod: method } : {}),
);

const invalidJson = fc
  .oneof(
    fc.string({ maxLength: 60 }),
    rpcBody.chain(({ text }) =>
      fc.nat({ max: Math.max(0, text.length - 1) }).map((cut) => text.slice(0, cut)),
    ),
    fc.constantFrom('{', '{"jsonrpc":"2.0",}', "{'a':1}", 'NaN', '\u0000', '{"a":1}{"b":2}', '\ufeff{}'),
  )
  .map((text) => http('invalid-json', text));

const batch = fc
  .array(rpcBody, { maxLength: 5 })
  .map((bodies) => http('batch', `[${bodies.map((b) => b.text).join(',')}]`));

const notification = rpcBodyOf(false).map(({ text }) => http('notification', text));

/** Invalid UTF-8 sequences spliced into an otherwise valid body. */
const invalidUtf8 = fc
  .tuple(
    rpcBody,
    fc.nat(),
    fc.constantFrom([0xff], [0xc3, 0x28], [0xed, 0xa0, 0x80], [0xf8, 0x88, 0x80, 0x80], [0x80]),
  )
  .map(([{ text }, at, bad]) => {
    const bytes = Buffer.from(text);
    const cut = at % (bytes.length + 1);
    return http(
      'invalid-utf8',
      Buffer.concat([bytes.subarray(0, cut), Buffer.from(bad), bytes.subarray(cut)]),
    );
  });

const contentType = fc
  .tuple(
    rpcBody,
    fc.constantFrom(
      undefined,
      'text/plain',
      'application/jsonx',
      'application/json; charset=latin1',
      'APPLICATION/JSON',
      'multipart/form-data; boundary=x',
      '',
      'application/json, text/plain',
    ),
  )
  .map(([{ text, method }, type]) => {
    const headers = ['x-api-key', FUZZ_KEY, ...(type === undefined ? [] : ['content-type', type])];
    return http('content-type', text, { headers, rpcMethod: method });
  });

const credentialHeaders = fc.constantFrom<string[]>(
  [],
  ['x-api-key', 'wrong'],
  ['x-api-key', FUZZ_KEY, 'x-api-key', FUZZ_KEY],
  ['x-api-key', FUZZ_KEY, 'x-api-key', 'other'],
  ['authorization', `Bearer ${FUZZ_TOKEN}`, 'authorization', `Bearer ${FUZZ_TOKEN}`],
  ['authorization', `bearer ${FUZZ_TOKEN}`],
  ['authorization', `Basic ${FUZZ_TOKEN}`],
  ['authorization', 'Bearer'],
  ['authorization', `Bearer ${FUZZ_TOKEN}`, 'x-api-key', 'wrong'],
  ['x-api-key', ''],
  ['x-api-key', 'k'.repeat(8000)],
  ['x-api-key', `${FUZZ_KEY} `],
);

const credentials = fc
  .tuple(rpcBody, credentialHeaders)
  .map(([{ text, method }, auth]) =>
    http('credentials', text, { headers: ['content-type', 'application/json', ...auth], rpcMethod: method }),
  );

const httpMethod = fc
  .tuple(
    fc.constantFrom('GET', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS', 'TRACE', 'FOO', 'PROPFIND', 'post'),
    rpcBody,
  )
  .map(([method, { text }]) =>
    http('http-method', method === 'GET' || method === 'HEAD' ? '' : text, { method }),
  );

const pathCase = fc
  .tuple(
    fc.oneof(
      fc.constantFrom(
        '/',
        '/api/v1/a2a/',
        '/api/v2/a2a/fuzz-agent',
        '/api/v1/a2a/unknown-agent',
        `${AGENT_PATH}/extra`,
        `${AGENT_PATH}?q=1`,
        '/api/v1/a2a/%ZZ',
        '/api/v1/a2a/fuzz%2Dagent',
        '/api/v1/a2a/..%2f..%2fetc',
        '//api//v1',
      ),
      fc.integer({ min: 3000, max: 6000 }).map((n) => `${AGENT_PATH}?${'a'.repeat(n)}`),
      fc.string({ maxLength: 30 }).map((s) => `/api/v1/a2a/${encodeURIComponent(s)}`),
    ),
    rpcBody,
  )
  .map(([path, { text }]) => http('path', text, { path }));

/** Bodies past the limit (C-42): the fuzz agent's small maxFileSize keeps the limit near 1.3 MB. */
const oversized = fc
  .integer({ min: 1, max: 64 * 1024 })
  .map((extra) => http('oversized-body', `{"pad":"${'p'.repeat(FUZZ_BODY_LIMIT + extra)}"}`));

// ---------------------------------------------------------------- raw HTTP

const raw = (kind: string, text: string | Buffer, abandons = false): RawCase => ({
  via: 'raw',
  kind,
  bytes: typeof text === 'string' ? Buffer.from(text, 'latin1') : text,
  abandons,
});

const rawRequest = (head: string[], body = ''): string =>
  `${head.join('\r\n')}\r\nconnection: close\r\n\r\n${body}`;

const rawCase: fc.Arbitrary<RawCase> = fc.oneof(
  fc
    .uint8Array({ minLength: 1, maxLength: 200 })
    .map((b) => raw('raw-garbage', Buffer.concat([Buffer.from(b), Buffer.from('\r\n\r\n')]))),
  fc.string({ maxLength: 30 }).map((s) => raw('raw-request-line', rawRequest([`${s} HTTP/1.1`, 'host: x']))),
  fc
    .integer({ min: 4100, max: 20_000 })
    .map((n) =>
      raw('raw-long-target', rawRequest([`POST ${AGENT_PATH}?${'a'.repeat(n)} HTTP/1.1`, 'host: x'])),
    ),
  fc
    .integer({ min: 17_000, max: 64_000 })
    .map((n) =>
      raw(
        'raw-header-flood',
        rawRequest([`POST ${AGENT_PATH} HTTP/1.1`, 'host: x', `x-pad: ${'h'.repeat(n)}`]),
      ),
    ),
  fc
    .integer({ min: 200, max: 2000 })
    .map((n) =>
      raw(
        'raw-many-headers',
        rawRequest([
          `POST ${AGENT_PATH} HTTP/1.1`,
          'host: x',
          ...Array.from({ length: n }, (_, i) => `x-h${i}: v`),
        ]),
      ),
    ),
  fc.constantFrom(
    raw(
      'raw-conflicting-length',
      rawRequest([`POST ${AGENT_PATH} HTTP/1.1`, 'host: x', 'content-length: 2', 'content-length: 3'], '{}'),
    ),
    raw(
      'raw-bad-chunked',
      rawRequest(
        [`POST ${AGENT_PATH} HTTP/1.1`, 'host: x', 'transfer-encoding: chunked'],
        'zz\r\n{}\r\n0\r\n\r\n',
      ),
    ),
    raw(
      'raw-length-and-chunked',
      rawRequest(
        [`POST ${AGENT_PATH} HTTP/1.1`, 'host: x', 'content-length: 2', 'transfer-encoding: chunked'],
        '0\r\n\r\n',
      ),
    ),
    raw('raw-bad-header-name', rawRequest([`POST ${AGENT_PATH} HTTP/1.1`, 'host: x', 'bad header: v'])),
    raw('raw-header-no-colon', rawRequest([`POST ${AGENT_PATH} HTTP/1.1`, 'host: x', 'nocolon'])),
    raw(
      'raw-http10',
      `POST ${AGENT_PATH} HTTP/1.0\r\ncontent-type: application/json\r\nx-api-key: ${FUZZ_KEY}\r\ncontent-length: 2\r\n\r\n{}`,
    ),
    raw('raw-http2-preface', 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'),
    raw(
      'raw-declared-huge',
      rawRequest(
        [
          `POST ${AGENT_PATH} HTTP/1.1`,
          'host: x',
          'content-type: application/json',
          `x-api-key: ${FUZZ_KEY}`,
          'content-length: 999999999999',
        ],
        '{"a":',
      ),
    ),
    raw(
      'raw-truncated-body',
      rawRequest(
        [
          `POST ${AGENT_PATH} HTTP/1.1`,
          'host: x',
          'content-type: application/json',
          `x-api-key: ${FUZZ_KEY}`,
          'content-length: 500',
        ],
        '{"jsonrpc":"2.0"',
      ),
      true,
    ),
    raw(
      'raw-chunked-valid',
      rawRequest(
        [
          `POST ${AGENT_PATH} HTTP/1.1`,
          'host: x',
          'content-type: application/json',
          `x-api-key: ${FUZZ_KEY}`,
          'transfer-encoding: chunked',
        ],
        '2\r\n{}\r\n0\r\n\r\n',
      ),
    ),
    raw('raw-nul-in-header', rawRequest([`POST ${AGENT_PATH} HTTP/1.1`, 'host: x', 'x-api-key: a\u0000b'])),
  ),
);

/** The fuzz agent's file limit; the body limit follows from it (C-42). */
export const FUZZ_MAX_FILE_SIZE = 32 * 1024;
/** ceil(maxFileSize * 4 / 3) * 8 + 1 MiB (C-42), for the fuzz agent. */
export const FUZZ_BODY_LIMIT = Math.ceil((FUZZ_MAX_FILE_SIZE * 4) / 3) * 8 + 1024 * 1024;

/** One hostile request; the weights favour the JSON-RPC layer, where most of the logic lives. */
export const fuzzCase: fc.Arbitrary<FuzzCase> = fc.oneof(
  { weight: 40, arbitrary: rpcCase },
  { weight: 6, arbitrary: invalidJson },
  { weight: 4, arbitrary: batch },
  { weight: 4, arbitrary: notification },
  { weight: 4, arbitrary: invalidUtf8 },
  { weight: 5, arbitrary: contentType },
  { weight: 6, arbitrary: credentials },
  { weight: 4, arbitrary: httpMethod },
  { weight: 4, arbitrary: pathCase },
  { weight: 1, arbitrary: oversized },
  { weight: 6, arbitrary: rawCase },
);

/** The `serve --config` object of the server under fuzz: one agent with limits that let the fuzz reach the methods. */
export function fuzzServerConfig(): Record<string, unknown> {
  return {
    agents: [
      {
        id: FUZZ_AGENT,
        apiKeys: [FUZZ_KEY],
        bearerTokens: [FUZZ_TOKEN],
        // The rate limit (C-04) would otherwise answer nearly everything with 429.
        limits: { requestsPerMinute: 1_000_000, concurrentTasks: 64 },
        capabilities: { fileUpload: { maxFileSize: FUZZ_MAX_FILE_SIZE } },
        // A task told to run until canceled gives its slot back after 3 s.
        systemTimeoutMs: 3000,
        maxTasks: 500,
      },
    ],
    allowPrivateWebhookTargets: false,
    headersTimeoutMs: 5000,
    requestTimeoutMs: 20_000,
  };
}
