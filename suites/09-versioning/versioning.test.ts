// Section 9 versioning: the service under /api/v1/, other version segments refused as unknown routes
// (C-33, C-32: HTTP 404 with -32600), jsonrpc exactly "2.0" (C-02), and a stable agent.version.
import { isObject } from '../../schemas/json.ts';
import {
  ERROR_CODES,
  is,
  suiteFile,
  typeOf,
  verifies,
  type AnsweredExchange,
  type CheckContext,
} from '../support/index.ts';
import { basePathOf, CARD, errorOf, responseOf, resultOf } from '../support/rpc.ts';

suiteFile({
  cost: { requests: 4, turns: 0 },
});

function agentVersion(card: unknown): unknown {
  return isObject(card) && isObject(card.agent) ? card.agent.version : undefined;
}

verifies('9/version-path-v1', 'the agent answers JSON-RPC calls under /api/v1/a2a/{agent_id}', async (c) => {
  const path = `/api/v1/a2a/${encodeURIComponent(c.target.agentId)}`;
  const ex = await c.rpc(CARD, undefined, { path });
  // {base_url} is an opaque prefix (C-57): https://host/gw/a2a serves https://host/gw/a2a/api/v1/a2a/{id}.
  c.check('request path', new URL(ex.request.url).pathname, `${basePathOf(c.target.baseUrl)}${path}`);
  c.check('HTTP status', ex.response.status, 200);
  c.check('type of result', typeOf(resultOf(ex)), 'object');
});

function otherVersionPath(c: CheckContext, version: string): string {
  return `/api/${version}/a2a/${encodeURIComponent(c.target.agentId)}`;
}

verifies(
  '9/other-versions-404',
  'valid calls under /api/v2/, /api/v0/ and /api/v1.1/ get HTTP 404 and -32600',
  async (c) => {
    for (const version of ['v2', 'v0', 'v1.1']) {
      const ex = await c.rpc(CARD, undefined, { path: otherVersionPath(c, version) });
      c.check(`/api/${version}/: HTTP status`, ex.response.status, 404);
      c.check(`/api/${version}/: type of the response body`, typeOf(ex.response.json), 'object');
      c.check(`/api/${version}/: error.code`, errorOf(ex)?.code, ERROR_CODES.INVALID_REQUEST);
      c.check(`/api/${version}/: result`, responseOf(ex)?.result, is.absent());
    }
  },
);

const NOT_TWO: ReadonlyArray<[string, unknown]> = [
  ['"1.0"', '1.0'],
  ['the number 2', 2],
  ['"2"', '2'],
  ['"2.0 " with a trailing space', '2.0 '],
  ['"3.0"', '3.0'],
  ['null', null],
];

verifies('9/jsonrpc-exact-version', 'jsonrpc values other than the string "2.0" get -32600', async (c) => {
  const cases: Array<[string, () => Promise<AnsweredExchange>]> = NOT_TWO.map(([label, jsonrpc]) => [
    `jsonrpc ${label}`,
    () => c.rpc(CARD, undefined, { envelope: { jsonrpc } }),
  ]);
  // JSON.stringify writes 2.0 as 2: the literal number 2.0 needs a raw body.
  const raw = `{"jsonrpc":2.0,"id":"v9-number","method":"${CARD}"}`;
  cases.push(['jsonrpc written as the JSON number 2.0', () => c.rpc(CARD, undefined, { rawBody: raw })]);
  for (const [label, send] of cases) {
    const ex = await send();
    c.check(`${label}: error.code`, errorOf(ex)?.code, ERROR_CODES.INVALID_REQUEST);
    c.check(`${label}: result`, responseOf(ex)?.result, is.absent());
  }
});

verifies(
  '9/agent-version-reported',
  'the card reports a non-empty agent.version, the same on every call',
  async (c) => {
    const first = resultOf(await c.rpc(CARD));
    const second = resultOf(await c.rpc(CARD, { includeCapabilities: false }));
    c.check('agent.version', agentVersion(first), is.nonEmptyString());
    c.check('agent.version on a second call', agentVersion(second), agentVersion(first));
    if (c.card !== null)
      c.check('agent.version of the run probe card', agentVersion(c.card), agentVersion(first));
  },
);
