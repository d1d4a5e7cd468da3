// Mutants of CORS (spec 5, last line; ruling C-38): the proxy strips or refuses what a browser client
// needs, in front of an unmodified reference server.
import { mutant } from '../define.ts';
import type { Variant } from '../types.ts';

const variants: Variant[] = [
  mutant({
    breaks: '5/cors-allow-origin',
    slug: 'missing-on-errors',
    area: 'cors',
    description:
      'Access-Control-Allow-Origin is sent on successful answers only: a 401, 404 or 405 has none, so a browser cannot read the error',
    hooks: {
      head(head) {
        if (head.status >= 400) delete head.headers['access-control-allow-origin'];
      },
    },
  }),
  mutant({
    breaks: '5/cors-preflight',
    slug: 'needs-credentials',
    area: 'cors',
    description: 'an OPTIONS preflight without a credential is answered 401, as any unauthenticated request',
    hooks: {
      answer(call, res) {
        if (call.httpMethod !== 'OPTIONS' || call.headers['x-api-key'] !== undefined) return false;
        res.writeHead(401, {
          'content-type': 'application/json',
          'www-authenticate': 'Bearer realm="a2a"',
          'access-control-allow-origin': '*',
        });
        res.end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: null,
            error: { code: -32010, message: 'Unauthorized', data: { reason: 'missing' } },
          }),
        );
        return true;
      },
    },
  }),
];

export default variants;
