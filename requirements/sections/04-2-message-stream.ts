// Ledger, section 4.2 (message/stream): the SSE response, its events and their `final` flags, and
// errors before and after the stream starts. Data only (shape: requirements/types.ts).
import type { Requirement } from '../types.ts';

export const SECTION_4_2: readonly Requirement[] = [
  {
    id: '4.2/stream-same-params',
    section: '4.2',
    level: 'MUST',
    behaviour:
      'message/stream accepts the params of message/send and refuses a missing required field with error -32602.',
    source: { line: 216, quote: 'Request: same envelope and params as message/send' },
    rulings: ['C-14'],
    capabilities: ['streaming'],
  },
  {
    id: '4.2/stream-content-type-sse',
    section: '4.2',
    level: 'MUST',
    behaviour: 'A valid message/stream request is answered with Content-Type text/event-stream.',
    source: { line: 217, quote: 'Response: an SSE stream.' },
    rulings: ['C-31', 'C-27'],
    capabilities: ['streaming'],
  },
  {
    id: '4.2/stream-event-data-line',
    section: '4.2',
    level: 'MUST',
    behaviour: 'Every SSE event carries in its data one JSON-RPC response object.',
    source: { line: 217, quote: 'Each event is a line `data: <JSON-RPC response object>`' },
    rulings: ['C-31'],
    capabilities: ['streaming'],
  },
  {
    id: '4.2/stream-event-task',
    section: '4.2',
    level: 'MUST',
    behaviour: 'Every stream event result is a task carrying `id`, `status.state` and `final`.',
    source: { line: 217, quote: 'where `result` is a Task with `id`, `status.state` and `final`' },
    capabilities: ['streaming'],
  },
  {
    id: '4.2/stream-intermediate-not-final',
    section: '4.2',
    level: 'MUST',
    behaviour: 'Every event before the last carries final false.',
    source: { line: 218, quote: 'Intermediate events carry `final` false (for instance state `working`).' },
    capabilities: ['streaming'],
  },
  {
    id: '4.2/stream-single-final-event',
    section: '4.2',
    level: 'MUST',
    behaviour: 'Exactly one event carries final true, it reports a final state, and nothing follows it.',
    source: { line: 218, quote: 'The last event carries `final` true' },
    rulings: ['C-31'],
    capabilities: ['streaming'],
  },
  {
    id: '4.2/stream-event-sequence',
    section: '4.2',
    level: 'SHOULD',
    behaviour:
      'Stream events report submitted, then working with progress, then the final state, in that order.',
    source: { line: 218, quote: '(for instance `completed` with the reply message)' },
    rulings: ['C-31'],
    capabilities: ['streaming'],
  },
  {
    id: '4.2/stream-keep-alive',
    section: '4.2',
    level: 'MAY',
    behaviour: 'The stream may carry `: ping` comment lines, which carry no event.',
    source: { line: 219, quote: 'Keep-alive comment lines `: ping` may appear and are ignored by clients.' },
    rulings: ['C-31'],
    capabilities: ['streaming'],
  },
  {
    id: '4.2/stream-closed-after-final',
    section: '4.2',
    level: 'SHOULD',
    behaviour: 'The server ends the stream after the final event.',
    source: { line: 220, quote: 'Clients close the stream when `final` is true.' },
    rulings: ['C-31'],
    capabilities: ['streaming'],
  },
  {
    id: '4.2/stream-framing',
    section: '4.2',
    level: 'INFO',
    behaviour:
      'Each event is one compact `data:` line followed by a blank line, without event or id fields, and the response carries Cache-Control no-cache.',
    source: { line: 217, quote: 'Each event is a line' },
    rulings: ['C-31'],
    capabilities: ['streaming'],
  },
  {
    id: '4.2/stream-errors-before-start',
    section: '4.2',
    level: 'MUST',
    behaviour:
      'A message/stream request refused before streaming starts is answered with a JSON-RPC error, as a plain JSON response or a stream whose only event is that error.',
    source: { line: 221, quote: 'the params are those of message/send' },
    rulings: ['C-26'],
    capabilities: ['streaming'],
  },
  {
    id: '4.2/stream-error-after-start',
    section: '4.2',
    level: 'SHOULD',
    behaviour:
      'A failure after the stream started is sent as one SSE event carrying a JSON-RPC error response, and then the stream closes.',
    source: { line: 217, quote: 'Response: an SSE stream.' },
    rulings: ['C-26'],
    capabilities: ['streaming'],
  },
];
