// Ledger, section 5 (Authentication): both header forms, refusal of missing or invalid credentials,
// credentials per agent, and CORS. Data only (shape: requirements/types.ts).
import type { Requirement } from '../types.ts';

export const SECTION_5: readonly Requirement[] = [
  {
    id: '5/api-key-accepted',
    section: '5',
    role: 'service',
    level: 'MUST',
    behaviour: 'A request carrying a valid `x-api-key` header alone is served.',
    source: { line: 262, quote: '| API key | `x-api-key: <API_KEY>` |' },
    rulings: ['C-37'],
  },
  {
    id: '5/bearer-accepted',
    section: '5',
    role: 'service',
    level: 'MUST',
    behaviour: 'A request carrying a valid `Authorization: Bearer` token alone is served.',
    source: { line: 263, quote: '| Bearer token | `Authorization: Bearer <ACCESS_TOKEN>` |' },
    rulings: ['C-37'],
  },
  {
    id: '5/bearer-scheme-case-insensitive',
    section: '5',
    role: 'service',
    level: 'SHOULD',
    behaviour: 'The Bearer scheme name is matched case-insensitively, so `bearer <token>` is accepted.',
    source: { line: 263, quote: '`Authorization: Bearer <ACCESS_TOKEN>`' },
    rulings: ['C-37'],
  },
  {
    id: '5/both-forms-must-be-valid',
    section: '5',
    role: 'service',
    level: 'SHOULD',
    behaviour: 'A request carrying both header forms is refused unless both credentials are valid.',
    source: { line: 258, quote: 'Two header forms are accepted:' },
    rulings: ['C-37'],
  },
  {
    id: '5/credentials-per-agent',
    section: '5',
    role: 'service',
    level: 'MUST',
    behaviour: 'A credential of one agent never opens another agent.',
    source: { line: 266, quote: 'How keys or tokens are issued or validated: not shown.' },
    rulings: ['C-37'],
  },
  {
    id: '5/missing-credential-rejected',
    section: '5',
    role: 'service',
    level: 'MUST',
    behaviour: 'A request for any method without a credential gets no result, and nothing is performed.',
    source: {
      line: 265,
      quote: "Every operation's documented request lists `x-api-key` as a required header.",
    },
    rulings: ['C-01'],
  },
  {
    id: '5/invalid-credential-rejected',
    section: '5',
    role: 'service',
    level: 'MUST',
    behaviour:
      'A request for any method with an invalid credential gets no result, and nothing is performed.',
    source: {
      line: 267,
      quote: 'The response to a missing or invalid credential (HTTP status, error code): not shown.',
    },
    rulings: ['C-01'],
  },
  {
    id: '5/unauthorized-http-401',
    section: '5',
    role: 'service',
    level: 'SHOULD',
    behaviour:
      'A refused credential is answered with HTTP 401, a WWW-Authenticate header and error -32010 carrying data.reason missing or invalid.',
    source: { line: 267, quote: '(HTTP status, error code)' },
    rulings: ['C-01', 'C-03'],
  },
  {
    id: '5/cors-allow-origin',
    section: '5',
    role: 'service',
    level: 'SHOULD',
    behaviour:
      'Every response to a request with an allowed Origin, errors included, carries Access-Control-Allow-Origin and exposes Retry-After and WWW-Authenticate.',
    source: {
      line: 269,
      quote:
        'Cross-origin browser use requires the server to send CORS headers such as `Access-Control-Allow-Origin`.',
    },
    rulings: ['C-38'],
  },
  {
    id: '5/cors-preflight',
    section: '5',
    role: 'service',
    level: 'SHOULD',
    behaviour:
      'An OPTIONS preflight on an agent path is answered with 204 without credentials, allowing POST and OPTIONS and the headers Content-Type, Authorization, x-api-key and Accept.',
    source: { line: 269, quote: 'CORS headers' },
    rulings: ['C-38'],
  },
];
