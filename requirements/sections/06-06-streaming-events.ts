// Ledger, section 6.6 (streaming events): the SSE events of message/stream and tasks/resubscribe.
// Data only (shape: requirements/types.ts).
import type { Requirement } from '../types.ts';

export const SECTION_6_6: readonly Requirement[] = [
  {
    id: '6.6/stream-events-as-4-2',
    section: '6.6',
    role: 'service',
    level: 'MUST',
    behaviour: 'The SSE events of tasks/resubscribe follow the message/stream rules of section 4.2.',
    source: { line: 325, quote: 'SSE events of message/stream and tasks/resubscribe: section 4.2.' },
    rulings: ['C-31'],
    capabilities: ['streaming'],
  },
  {
    id: '6.6/stream-event-id',
    section: '6.6',
    role: 'service',
    level: 'MUST',
    behaviour: 'Every SSE event of message/stream and tasks/resubscribe carries the request id.',
    source: { line: 325, quote: 'SSE events of message/stream and tasks/resubscribe' },
    rulings: ['C-31', 'C-13'],
    capabilities: ['streaming'],
  },
];
