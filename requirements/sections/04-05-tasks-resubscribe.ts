// Ledger, section 4.5 (tasks/resubscribe): live streams, finished tasks, includeHistory and -32004.
// Data only (shape: requirements/types.ts).
import type { Requirement } from '../types.ts';

export const SECTION_4_5: readonly Requirement[] = [
  {
    id: '4.5/resubscribe-task-id-required',
    section: '4.5',
    role: 'service',
    level: 'MUST',
    behaviour: 'tasks/resubscribe without `taskId` is answered with error -32602.',
    source: { line: 233, quote: '- Params: `taskId` (string, required)' },
    rulings: ['C-14'],
    capabilities: ['streaming'],
  },
  {
    id: '4.5/resubscribe-include-history',
    section: '4.5',
    role: 'service',
    level: 'SHOULD',
    behaviour:
      'With includeHistory true the stream first replays the earlier statuses of the task in order with final false, and without it the first event is the current status.',
    source: {
      line: 233,
      quote: '`includeHistory` (boolean, optional, default false: include earlier updates)',
    },
    rulings: ['C-10'],
    capabilities: ['streaming'],
  },
  {
    id: '4.5/resubscribe-live-stream',
    section: '4.5',
    role: 'service',
    level: 'MUST',
    behaviour:
      'Resubscribing to a running task yields an SSE stream, framed like message/stream, that ends with one final event.',
    source: {
      line: 235,
      quote: 'For a task still streaming, the response is an SSE stream like message/stream.',
    },
    rulings: ['C-31'],
    capabilities: ['streaming'],
  },
  {
    id: '4.5/resubscribe-final-task-returns-status',
    section: '4.5',
    role: 'service',
    level: 'MUST',
    behaviour:
      'Resubscribing to a finished task returns its final status with final true, as one JSON response or a stream of exactly one final event.',
    source: { line: 235, quote: 'For a completed task, the final status is returned.' },
    rulings: ['C-09'],
    capabilities: ['streaming'],
  },
  {
    id: '4.5/resubscribe-final-task-plain-json',
    section: '4.5',
    role: 'service',
    level: 'INFO',
    behaviour:
      'Resubscribing to a finished task is answered with a plain application/json response rather than a stream.',
    source: { line: 234, quote: 'Send with `Accept: text/event-stream`.' },
    rulings: ['C-09', 'C-27'],
    capabilities: ['streaming'],
  },
  {
    id: '4.5/resubscribe-subscription-failed',
    section: '4.5',
    role: 'service',
    level: 'MUST',
    behaviour:
      'A resubscribe that cannot be served, such as one on a live task of an agent without streaming, is answered with error -32004.',
    source: { line: 237, quote: '- Error `-32004` when subscription fails.' },
    rulings: ['C-41', 'C-26'],
  },
];
