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
  mutant({
    breaks: '5/unauthorized-http-401',
    slug: 'answers-403',
    area: 'auth',
    description: 'a missing or invalid credential is answered with HTTP 403 instead of 401',
    hooks: {
      head(head) {
        if (head.status === 401) head.status = 403;
      },
    },
  }),
  mutant({
    breaks: '5/both-forms-must-be-valid',
    slug: 'api-key-wins',
    area: 'auth',
    description: 'with both header forms sent, only x-api-key is checked and the Bearer token is ignored',
    hooks: {
      requestHeaders(headers) {
        if (headers['x-api-key'] !== undefined) delete headers.authorization;
      },
    },
  }),
  mutant({
    breaks: '5/bearer-scheme-case-insensitive',
    slug: 'exact-case-only',
    area: 'auth',
    description: 'the Authorization scheme must be spelled exactly "Bearer": bearer or BEARER is refused',
    hooks: {
      requestHeaders(headers) {
        const auth = headers.authorization;
        if (auth !== undefined && /^bearer\s/i.test(auth) && !auth.startsWith('Bearer ')) {
          headers.authorization = auth.replace(/^\S+/, 'Unknown');
        }
      },
    },
  }),
];

/** Caught too; left out of the detection test to keep it within its time budget (`npm run mutants -- --extended`). */
const EXTENDED = new Set([
  '5-unauthorized-http-401--answers-403',
  '5-both-forms-must-be-valid--api-key-wins',
  '5-bearer-scheme-case-insensitive--exact-case-only',
]);

export const extended = variants.filter((v) => EXTENDED.has(v.name));
export default variants.filter((v) => !EXTENDED.has(v.name));
