// Ledger, section 4.1 (message/send): the synchronous call, its result and its missing-field error.
// Data only (shape: requirements/types.ts).
import type { Requirement } from '../types.ts';

export const SECTION_4_1: readonly Requirement[] = [
  {
    id: '4.1/send-blocks-until-final',
    section: '4.1',
    role: 'service',
    level: 'INFO',
    behaviour:
      'message/send answers once the task is in a final state, and a working result with final true is only reported.',
    source: { line: 210, quote: 'The call blocks until the agent has a complete answer.' },
    rulings: ['C-25'],
  },
  {
    id: '4.1/send-result-states',
    section: '4.1',
    role: 'service',
    level: 'MUST',
    behaviour: 'A message/send result has state completed, working, failed or canceled, never submitted.',
    source: {
      line: 211,
      quote: '`status.state` is documented as `completed`, `working`, `failed` or `canceled`.',
    },
    rulings: ['C-25'],
  },
  {
    id: '4.1/send-result-final-true',
    section: '4.1',
    role: 'service',
    level: 'MUST',
    behaviour: 'A message/send result carries `id`, `status`, `contextId` and `final` true.',
    source: {
      line: 211,
      quote: 'Result: Task (2.7) with `id`, `status`, `contextId`, and `final` always true.',
    },
  },
  {
    id: '4.1/send-timeout-result',
    section: '4.1',
    role: 'service',
    level: 'SHOULD',
    behaviour:
      'When the system timeout ends the task, message/send returns it canceled with `status.reason` "system timeout" and final true.',
    source: { line: 211, quote: '`status.state` is documented as' },
    rulings: ['C-25', 'C-05'],
  },
  {
    id: '4.1/reply-in-status-message',
    section: '4.1',
    role: 'service',
    level: 'MUST',
    behaviour:
      'A completed message/send result carries the reply text in text parts of `status.message`, whose role is agent.',
    source: { line: 212, quote: 'The reply text is in `result.status.message.parts[]` with role `agent`.' },
  },
  {
    id: '4.1/missing-required-field-32602',
    section: '4.1',
    role: 'service',
    level: 'MUST',
    behaviour:
      'message/send with a required field such as messageId missing is answered with error -32602 whose data.details names the field.',
    source: {
      line: 213,
      quote: 'Error: `-32602` with `error.data.details` when a required field such as messageId is missing.',
    },
    rulings: ['C-14'],
  },
];
