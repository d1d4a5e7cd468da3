// Section 9 versioning: the service under /api/v1/, other version segments refused as unknown routes
// (C-33, C-32: HTTP 404 with -32600), jsonrpc exactly "2.0" (C-02), and a stable agent.version.
import { isObject } from '../../schemas/json.ts';
import { ERROR_CODES, is, SIDE_BY_SIDE, suiteFile, typeOf, verifies } from '../support/index.ts';
import type { AnsweredExchange, CheckContext } from '../support/index.ts';
import { basePathOf, CARD, errorOf, responseOf, resultOf } from '../support/rpc.ts';
import { READS_A_SAMPLE, sharedSample } from '../support/samples.ts';

suiteFile({
  cost: { requests: 1, turns: 0 },
  concurrent: true,
});

const V1_CARD = 'the card under /api/v1/a2a/{agent_id}';
/** The card asked on the explicit v1 path: the path check and the agent.version check read it. */
const v1Card = sharedSample(V1_CARD, { requests: 1, turns: 0 }, (c) =>
  c.rpc(CARD, undefined, { path: `/api/v1/a2a/${encodeURIComponent(c.target.agentId)}` }),
);

function agentVersion(card: unknown): unknown {
  return isObject(card) && isObject(card.agent) ? card.agent.version : undefined;
}

verifies(
  '9/version-path-v1',
  'the agent answers JSON-RPC calls under /api/v1/a2a/{agent_id}',
  async (c) => {
    const path = `/api/v1/a2a/${encodeURIComponent(c.target.agentId)}`;
    const ex = await v1Card(c);
    // {base_url} is an opaque prefix (C-57): https://host/gw/a2a serves https://host/gw/a2a/api/v1/a2a/{id}.
    c.check('request path', new URL(ex.request.url).pathname, `${basePathOf(c.target.baseUrl)}${path}`);
    c.check('HTTP status', ex.response.status, 200);
    c.check('type of result', typeOf(resultOf(ex)), 'object');
  },
  { cost: READS_A_SAMPLE, samples: [V1_CARD] },
);

function otherVersionPath(c: CheckContext, version: string): string {
  return `/api/${version}/a2a/${encodeURIComponent(c.target.agentId)}`;
}

verifies(
  '9/other-versions-404',
  'valid calls under /api/v2/, /api/v0/ and /api/v1.1/ get HTTP 404 and -32600',
  async (c) => {
    // v2 first: the version a client of a newer revision would try.
    await c.each(
      'each other version segment',
      ['v2', 'v0', 'v1.1'],
      async (version) => {
        const ex = await c.rpc(CARD, undefined, { path: otherVersionPath(c, version) });
        c.check(`/api/${version}/: HTTP status`, ex.response.status, 404);
        c.check(`/api/${version}/: type of the response body`, typeOf(ex.response.json), 'object');
        c.check(`/api/${version}/: error.code`, errorOf(ex)?.code, ERROR_CODES.INVALID_REQUEST);
        c.check(`/api/${version}/: result`, responseOf(ex)?.result, is.absent());
      },
      SIDE_BY_SIDE,
    );
  },
  { property: { requests: 1, turns: 0, cases: 3 } },
);

const NOT_TWO: ReadonlyArray<[string, unknown]> = [
  ['"1.0"', '1.0'],
  ['the number 2', 2],
  ['"2"', '2'],
  ['"2.0 " with a trailing space', '2.0 '],
  ['"3.0"', '3.0'],
  ['null', null],
];

verifies(
  '9/jsonrpc-exact-version',
  'jsonrpc values other than the string "2.0" get -32600',
  async (c) => {
    const cases: Array<[string, () => Promise<AnsweredExchange>]> = NOT_TWO.map(([label, jsonrpc]) => [
      `jsonrpc ${label}`,
      () => c.rpc(CARD, undefined, { envelope: { jsonrpc } }),
    ]);
    // JSON.stringify writes 2.0 as 2: the literal number 2.0 needs a raw body.
    const raw = `{"jsonrpc":2.0,"id":"v9-number","method":"${CARD}"}`;
    cases.push(['jsonrpc written as the JSON number 2.0', () => c.rpc(CARD, undefined, { rawBody: raw })]);
    await c.each(
      'each jsonrpc value other than "2.0"',
      cases,
      async ([label, send]) => {
        const ex = await send();
        c.check(`${label}: error.code`, errorOf(ex)?.code, ERROR_CODES.INVALID_REQUEST);
        c.check(`${label}: result`, responseOf(ex)?.result, is.absent());
      },
      SIDE_BY_SIDE,
    );
  },
  { property: { requests: 1, turns: 0, cases: NOT_TWO.length + 1 } },
);

verifies(
  '9/agent-version-reported',
  'the card reports a non-empty agent.version, the same on every call',
  async (c) => {
    const first = resultOf(await v1Card(c));
    const second = resultOf(await c.rpc(CARD, { includeCapabilities: false }));
    c.check('agent.version', agentVersion(first), is.nonEmptyString());
    c.check('agent.version on a second call', agentVersion(second), agentVersion(first));
    if (c.card !== null)
      c.check('agent.version of the run probe card', agentVersion(c.card), agentVersion(first));
  },
  { samples: [V1_CARD] },
);
