// Spec 5 last line and C-38: CORS for browser clients. A preflight (OPTIONS with Origin and
// Access-Control-Request-*) is answered 204 without credentials; every response to an allowed
// Origin, errors and streams included, carries Access-Control-Allow-Origin and exposes two headers.
import { is, requireAnswer, suiteFile, verifies, type CheckContext } from '../support/index.ts';
import { answer, header, headerList, type Answer } from '../support/calls.ts';
import { NO_CREDENTIAL, TEST_ORIGIN } from '../support/credentials.ts';
import { messageParams, textPart } from '../support/messages.ts';
import { CARD } from '../support/rpc.ts';

suiteFile({
  cost: { requests: 2, turns: 1 },
  concurrent: true,
});

const ALLOWED_ORIGIN = is.oneOf(['*', TEST_ORIGIN]);
const REQUEST_HEADERS = ['content-type', 'authorization', 'x-api-key', 'accept'];

/** Exposed headers: both names listed, or `*` (which covers them for requests without cookies). */
function exposes(names: readonly string[]) {
  return is.where(`a list containing ${names.join(', ')} (or *)`, (v) => {
    const list = headerList(v as string | undefined);
    return list.includes('*') || names.every((n) => list.includes(n));
  });
}

function checkCors(c: CheckContext, label: string, a: Answer): void {
  c.check(
    `${label}: Access-Control-Allow-Origin`,
    header(a.ex, 'access-control-allow-origin'),
    ALLOWED_ORIGIN,
  );
  c.check(
    `${label}: Access-Control-Expose-Headers`,
    header(a.ex, 'access-control-expose-headers'),
    exposes(['retry-after', 'www-authenticate']),
  );
}

const origin = { origin: TEST_ORIGIN };

verifies('5/cors-allow-origin', 'a success and a JSON-RPC error carry the CORS headers', async (c) => {
  checkCors(c, `${CARD} (success)`, await answer(c.client, CARD, {}, { headers: origin }));
  checkCors(
    c,
    'an unknown method (-32601)',
    await answer(c.client, 'tasks/conformanceNoSuchMethod', {}, { headers: origin }),
  );
});

verifies('5/cors-allow-origin', 'a refused credential (401) carries the CORS headers', async (c) => {
  const a = await answer(c.client, CARD, {}, { headers: { ...origin, ...NO_CREDENTIAL } });
  checkCors(c, `${CARD} without a credential`, a);
});

verifies('5/cors-allow-origin', 'a message/stream response carries the CORS headers', async (c) => {
  const a = await answer(c.client, 'message/stream', messageParams([textPart('conformance: cors')]), {
    headers: origin,
  });
  checkCors(c, 'message/stream', a);
});

verifies(
  '5/cors-allow-origin',
  'a transport-level error (unknown agent, wrong method) carries the CORS headers',
  async (c) => {
    const unknownAgent = await answer(
      c.client,
      CARD,
      {},
      { headers: origin, agentId: 'a2a-conformance-no-such-agent' },
    );
    checkCors(c, 'an unknown agent', unknownAgent);
    // No complete answer (a reset, a gateway's page) is a fault, never a fail: the check re-runs.
    const ex = requireAnswer(await c.client.raw({ method: 'GET', headers: { ...origin }, auth: true }));
    c.check(
      'GET on the agent path: Access-Control-Allow-Origin',
      header(ex, 'access-control-allow-origin'),
      ALLOWED_ORIGIN,
    );
  },
);

async function preflight(c: CheckContext) {
  const ex = await c.client.raw({
    method: 'OPTIONS',
    headers: {
      origin: TEST_ORIGIN,
      'access-control-request-method': 'POST',
      'access-control-request-headers': REQUEST_HEADERS.join(', '),
    },
  });
  return requireAnswer(ex);
}

verifies(
  '5/cors-preflight',
  'an OPTIONS preflight without credentials is answered 204 with the allowances',
  async (c) => {
    const ex = await preflight(c);
    c.check('HTTP status', ex.response?.status, 204);
    c.check('Access-Control-Allow-Origin', header(ex, 'access-control-allow-origin'), ALLOWED_ORIGIN);
    const methods = headerList(header(ex, 'access-control-allow-methods'));
    c.check(
      'Access-Control-Allow-Methods',
      methods,
      is.where(
        'a list containing POST and OPTIONS (or *)',
        () => methods.includes('*') || (methods.includes('post') && methods.includes('options')),
      ),
    );
    const allowed = headerList(header(ex, 'access-control-allow-headers'));
    for (const name of REQUEST_HEADERS) {
      // Fetch: `*` never covers Authorization, which must be listed by name.
      const covered = allowed.includes(name) || (allowed.includes('*') && name !== 'authorization');
      c.check(
        `Access-Control-Allow-Headers covers ${name}`,
        allowed,
        is.where(`a list allowing ${name}`, () => covered),
      );
    }
    c.info('preflight cache (C-38 asks for 600 s)', { maxAge: header(ex, 'access-control-max-age') ?? null });
  },
);
