// Mutants of authentication (spec 5; rulings C-01, C-37): the proxy rewrites the credential headers
// (or the agent path) of some requests before an unmodified reference server checks them, so one
// rule of credential checking is lost while every other request is judged as before.
import { mutant } from '../define.ts';
import { generateApiKey } from '../../reference-server/index.ts';
import type { Variant } from '../types.ts';

/** The agent's key, fixed up front so the hooks can put it where the client sent none. */
const KEY = generateApiKey();
const AGENT_PATH = /^\/api\/v1\/a2a\/([^/?#]+)/;

const variants: Variant[] = [
  mutant({
    breaks: '5/missing-credential-rejected',
    slug: 'tasks-get-open',
    area: 'auth',
    description: 'tasks/get is served without any credential (the other seven methods still need one)',
    options: { apiKey: KEY },
    hooks: {
      requestHeaders(headers, call) {
        if (call.method !== 'tasks/get') return;
        if (headers['x-api-key'] === undefined && headers.authorization === undefined)
          headers['x-api-key'] = KEY;
      },
    },
  }),
  mutant({
    breaks: '5/invalid-credential-rejected',
    slug: 'any-bearer-token',
    area: 'auth',
    description:
      'an Authorization: Bearer header is only checked for its form, so any token opens the agent (x-api-key is still checked)',
    options: { apiKey: KEY },
    hooks: {
      requestHeaders(headers) {
        if (/^bearer\s+\S+$/i.test(headers.authorization ?? '')) headers.authorization = `Bearer ${KEY}`;
      },
    },
  }),
  mutant({
    breaks: '5/credentials-per-agent',
    slug: 'unknown-agent-falls-through',
    area: 'auth',
    description:
      "a request for any other agent id is served by the agent with the caller's credential (keys are not bound to agents)",
    hooks: {
      request(call) {
        // The path is read after this hook: another agent's path is sent to the known agent.
        const m = AGENT_PATH.exec(call.url);
        if (m !== null && m[1] !== 'reference-agent')
          call.url = call.url.replace(AGENT_PATH, '/api/v1/a2a/reference-agent');
        return undefined;
      },
    },
  }),
];

export default variants;
