// Ledger, section 9 (Versioning): the /api/v1/ path, JSON-RPC "2.0" exactly, and agent.version.
// Data only (shape: requirements/types.ts).
import type { Requirement } from '../types.ts';

export const SECTION_9: readonly Requirement[] = [
  {
    id: '9/version-path-v1',
    section: '9',
    role: 'service',
    level: 'MUST',
    behaviour: 'The service is served under the /api/v1/ path.',
    source: { line: 368, quote: 'The path carries a version segment: `/api/v1/`.' },
  },
  {
    id: '9/other-versions-404',
    section: '9',
    role: 'service',
    level: 'SHOULD',
    behaviour:
      'A path with another version segment, such as /api/v2/, is answered with HTTP 404 and a JSON-RPC error.',
    source: { line: 368, quote: 'version segment' },
    rulings: ['C-33', 'C-32'],
  },
  {
    id: '9/jsonrpc-exact-version',
    section: '9',
    role: 'service',
    level: 'MUST',
    behaviour:
      'A request whose jsonrpc is "1.0", the number 2 or anything but the string "2.0" is answered with error -32600.',
    source: {
      origin: 'JSON-RPC 2.0, section 4',
      quote: 'A String specifying the version of the JSON-RPC protocol. MUST be exactly "2.0".',
    },
    rulings: ['C-02'],
  },
  {
    id: '9/agent-version-reported',
    section: '9',
    role: 'service',
    level: 'MUST',
    behaviour: 'Each agent card reports a non-empty `agent.version` string that stays the same across calls.',
    source: { line: 370, quote: 'Each agent reports its own `agent.version` string in the extended card.' },
  },
];
