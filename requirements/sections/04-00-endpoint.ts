// Ledger, section 4 (Endpoints, before the per-method subsections): the single agent path, its
// headers, and how unknown agents, routes and HTTP methods are refused. Data only (requirements/types.ts).
import type { Requirement } from '../types.ts';

export const SECTION_4: readonly Requirement[] = [
  {
    id: '4/single-endpoint',
    section: '4',
    role: 'service',
    level: 'MUST',
    behaviour: 'Every operation is served by POST to {base_url}/api/v1/a2a/{agent_id}.',
    source: { line: 196, quote: '`POST {base_url}/api/v1/a2a/{agent_id}`' },
  },
  {
    id: '4/method-selects-operation',
    section: '4',
    role: 'service',
    level: 'MUST',
    behaviour: 'The JSON-RPC `method` field alone selects the operation performed on the agent path.',
    source: { line: 206, quote: 'The `method` field selects the operation.' },
  },
  {
    id: '4/unknown-agent-rejected',
    section: '4',
    role: 'service',
    level: 'MUST',
    behaviour: 'A request to an unknown agent_id is answered with a JSON-RPC error and never a result.',
    source: {
      line: 200,
      quote: '| path parameter agent_id | string | yes | Identifier of the target agent |',
    },
    rulings: ['C-23'],
  },
  {
    id: '4/unknown-agent-404',
    section: '4',
    role: 'service',
    level: 'SHOULD',
    behaviour:
      'An unknown agent_id is answered with HTTP 404 and error -32011 carrying data.agentId, before credentials are checked.',
    source: { line: 200, quote: 'Identifier of the target agent' },
    rulings: ['C-23'],
  },
  {
    id: '4/content-type-json',
    section: '4',
    role: 'service',
    level: 'SHOULD',
    behaviour:
      'A request whose Content-Type is not application/json is answered with HTTP 415 and error -32600.',
    source: { line: 201, quote: '| header Content-Type | string | yes | `application/json` |' },
    rulings: ['C-28', 'C-03'],
  },
  {
    id: '4/content-type-parameters-accepted',
    section: '4',
    role: 'service',
    level: 'MUST',
    behaviour:
      'A request with Content-Type application/json carrying parameters such as charset=utf-8 is served.',
    source: { line: 201, quote: '| header Content-Type |' },
    rulings: ['C-28'],
  },
  {
    id: '4/accept-header-streaming',
    section: '4',
    role: 'service',
    level: 'INFO',
    behaviour:
      'message/stream and tasks/resubscribe answer with SSE whatever the Accept header, and the other methods answer application/json.',
    source: {
      line: 203,
      quote: '| header Accept | string | for streaming operations | `text/event-stream` |',
    },
    rulings: ['C-27'],
  },
  {
    id: '4/empty-body-rejected',
    section: '4',
    role: 'service',
    level: 'MUST',
    behaviour: 'A request with an empty body is answered with error -32700.',
    source: { line: 204, quote: '| body | JSON-RPC request envelope | yes | Section 2.1 |' },
    rulings: ['C-02'],
  },
  {
    id: '4/unknown-route-404',
    section: '4',
    role: 'service',
    level: 'SHOULD',
    behaviour:
      'A request to a path that is not an agent path is answered with HTTP 404 and error -32600 carrying data.path.',
    source: { line: 194, quote: 'All operations use one endpoint.' },
    rulings: ['C-32'],
  },
  {
    id: '4/wrong-http-method-405',
    section: '4',
    role: 'service',
    level: 'SHOULD',
    behaviour:
      'An HTTP method other than POST or OPTIONS on an agent path is answered with HTTP 405, `Allow: POST, OPTIONS` and error -32600.',
    source: { line: 196, quote: 'POST {base_url}' },
    rulings: ['C-32'],
  },
];
