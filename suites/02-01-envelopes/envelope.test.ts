// 2.1 / 2.2 JSON-RPC request and response envelopes, and the standard JSON-RPC error codes the
// service inherits (spec 7 note 3, C-02): jsonrpc "2.0" and the string id echoed, -32700 with id
// null, -32600 for an invalid request, -32601 for a method outside section 4.
import { ERROR_CODES, is, suiteFile, verifies } from '../support/index.ts';
import { CARD, errorOf, requestId, requireResponse } from '../support/rpc.ts';
import { sharedSample } from '../support/samples.ts';

suiteFile({
  cost: { requests: 1, turns: 0 },
  concurrent: true,
});

const SUCCESS = 'a card request with a string id';
const UNKNOWN = 'an unknown method with a string id';
const TRUNCATED = 'a request cut off mid-object';
/** The file's three answers that several checks read: each is sent once. */
const success = sharedSample(SUCCESS, { requests: 1, turns: 0 }, async (c) => {
  const id = requestId();
  return { id, ex: await c.rpc(CARD, undefined, { id }) };
});
const unknownMethod = sharedSample(UNKNOWN, { requests: 1, turns: 0 }, async (c) => {
  const id = requestId();
  return { id, ex: await c.rpc(UNKNOWN_METHOD, {}, { id }) };
});
const truncated = sharedSample(TRUNCATED, { requests: 1, turns: 0 }, (c) =>
  c.rpc(CARD, undefined, { rawBody: truncatedRequest() }),
);
const reads = (sample: string) => ({ cost: { requests: 0, turns: 0 }, samples: [sample] });

// A method no agent serves: the spec names eight methods (section 4), this is not one of them.
const UNKNOWN_METHOD = 'tasks/conformanceProbeUnknownMethod';

/** Cut off mid-object: the id cannot be read, so JSON-RPC 2.0 section 5 requires id null. */
function truncatedRequest(): string {
  return `{"jsonrpc":"2.0","id":"${requestId()}","method":"${CARD}"`;
}

verifies(
  '2.2/response-jsonrpc-version',
  'a success response carries jsonrpc "2.0"',
  async (c) => {
    const res = requireResponse(c, (await success(c)).ex);
    c.check('jsonrpc', res.jsonrpc, '2.0');
  },
  reads(SUCCESS),
);

verifies(
  '2.2/response-jsonrpc-version',
  'an error response carries jsonrpc "2.0"',
  async (c) => {
    const res = requireResponse(c, (await unknownMethod(c)).ex);
    c.check('jsonrpc', res.jsonrpc, '2.0');
  },
  reads(UNKNOWN),
);

verifies(
  '2.2/response-id-equals-request-id',
  'a success response echoes the string id',
  async (c) => {
    const { id, ex } = await success(c);
    c.check('id', requireResponse(c, ex).id, id);
  },
  reads(SUCCESS),
);

verifies(
  '2.2/response-id-equals-request-id',
  'an error response echoes the string id',
  async (c) => {
    const { id, ex } = await unknownMethod(c);
    c.check('id', requireResponse(c, ex).id, id);
  },
  reads(UNKNOWN),
);

verifies(
  '2.2/id-null-when-unreadable',
  'a parse error is answered with id null',
  async (c) => {
    c.check('id', requireResponse(c, await truncated(c)).id, null);
  },
  reads(TRUNCATED),
);

verifies(
  '7/parse-error-code',
  'a body that is not JSON gets -32700 with id null',
  async (c) => {
    const ex = await truncated(c);
    const res = requireResponse(c, ex);
    c.check('error.code', errorOf(ex)?.code, ERROR_CODES.PARSE_ERROR);
    c.check('id', res.id, null);
    c.check('result', res.result, is.absent());
  },
  { ...reads(TRUNCATED), crossSection: 'the envelope checks send the unreadable body' },
);

verifies('2.1/jsonrpc-required', 'a request without jsonrpc gets -32600', async (c) => {
  const id = requestId();
  const ex = await c.rpc(CARD, undefined, { id, envelope: { jsonrpc: undefined } });
  const res = requireResponse(c, ex);
  c.check('error.code', errorOf(ex)?.code, ERROR_CODES.INVALID_REQUEST);
  // C-02: the harness accepts null or the echoed id for -32600.
  c.check('id', res.id, is.oneOf([null, id]));
});

verifies('2.1/method-required', 'a request without method gets -32600', async (c) => {
  const id = requestId();
  const ex = await c.rpc(CARD, undefined, { id, envelope: { method: undefined } });
  const res = requireResponse(c, ex);
  c.check('error.code', errorOf(ex)?.code, ERROR_CODES.INVALID_REQUEST);
  c.check('id', res.id, is.oneOf([null, id]));
});

verifies(
  '7/invalid-request-code',
  'jsonrpc "1.0" gets -32600',
  async (c) => {
    const id = requestId();
    const ex = await c.rpc(CARD, undefined, { id, envelope: { jsonrpc: '1.0' } });
    const res = requireResponse(c, ex);
    c.check('error.code', errorOf(ex)?.code, ERROR_CODES.INVALID_REQUEST);
    c.check('id', res.id, is.oneOf([null, id]));
  },
  { crossSection: 'the envelope checks send the wrong jsonrpc version' },
);

verifies('2.1/method-from-section-4', 'a wrong-case section 4 method name gets -32601', async (c) => {
  const ex = await c.rpc('Message/Send', {}, { id: requestId() });
  requireResponse(c, ex);
  c.check('error.code', errorOf(ex)?.code, ERROR_CODES.METHOD_NOT_FOUND);
});

verifies(
  '7/method-not-found-code',
  'an unknown method gets -32601 with the id echoed and data.method',
  async (c) => {
    const { id, ex } = await unknownMethod(c);
    const res = requireResponse(c, ex);
    c.check('error.code', errorOf(ex)?.code, ERROR_CODES.METHOD_NOT_FOUND);
    c.check('id', res.id, id);
    c.check('result', res.result, is.absent());
    c.check(
      'error.data.method',
      (errorOf(ex)?.data as { method?: unknown } | undefined)?.method,
      UNKNOWN_METHOD,
    );
  },
  { ...reads(UNKNOWN), crossSection: 'the envelope checks send the unknown method' },
);
