// Ledger, section 1 (What the service does): the overview statements a target can show on the wire.
// Data only (shape: requirements/types.ts); the details live in the later sections.
import type { Requirement } from '../types.ts';

export const SECTION_1: readonly Requirement[] = [
  {
    id: '1/json-rpc-over-http',
    section: '1',
    role: 'service',
    level: 'MUST',
    behaviour: 'The service speaks JSON-RPC 2.0 over HTTP or HTTPS.',
    source: { line: 7, quote: 'The protocol uses JSON-RPC 2.0 over HTTP/HTTPS.' },
  },
  {
    id: '1/message-returns-task',
    section: '1',
    role: 'service',
    level: 'MUST',
    behaviour: 'A message sent to an agent is answered with a task whose result carries the agent reply.',
    source: { line: 8, quote: 'A client sends a message to one agent and gets back a task.' },
  },
  {
    id: '1/sync-or-streaming-calls',
    section: '1',
    role: 'service',
    level: 'INFO',
    behaviour:
      'A call is answered either with one response or, for streaming methods, with a Server-Sent Events stream.',
    source: {
      line: 9,
      quote: 'Calls are either synchronous (one response) or streaming (Server-Sent Events).',
    },
  },
];
