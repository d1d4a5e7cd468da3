// Ledger, section 3 (States and transitions): every transition of the table, the webhook each one
// emits, and the rules on final states and new tasks. Data only (shape: requirements/types.ts).
import type { Requirement } from '../types.ts';

export const SECTION_3: readonly Requirement[] = [
  {
    id: '3/listed-transitions-only',
    section: '3',
    level: 'MUST',
    behaviour: 'A task changes state only along the transitions of the section 3 table.',
    source: { line: 178, quote: '| From state | Trigger | Condition | Next state | Also |' },
  },
  {
    id: '3/submitted-to-working-on-dequeue',
    section: '3',
    level: 'MUST',
    behaviour: 'A submitted task moves to working when it is dequeued and processing starts.',
    source: { line: 180, quote: '| submitted | processing starts | task dequeued | working |' },
    rulings: ['C-21'],
  },
  {
    id: '3/working-webhook-optional',
    section: '3',
    level: 'MAY',
    behaviour: 'The move to working may deliver a `task.working` webhook, at the choice of the agent.',
    source: { line: 180, quote: 'A `task.working` webhook may be sent (optional per agent)' },
    rulings: ['C-20'],
    capabilities: ['webhooks'],
  },
  {
    id: '3/cancel-from-submitted',
    section: '3',
    level: 'MUST',
    behaviour: 'tasks/cancel on a submitted task succeeds and moves it to canceled.',
    source: { line: 181, quote: '| submitted | tasks/cancel | not yet processing | canceled |' },
    rulings: ['C-34'],
  },
  {
    id: '3/cancel-from-submitted-webhook',
    section: '3',
    level: 'MUST',
    behaviour: 'Cancelling a submitted task delivers a `task.canceled` webhook.',
    source: { line: 181, quote: '| canceled | `task.canceled` webhook |' },
    capabilities: ['webhooks'],
  },
  {
    id: '3/working-to-completed',
    section: '3',
    level: 'MUST',
    behaviour:
      'A working task whose agent finishes successfully moves to completed with its result message set.',
    source: { line: 182, quote: '| working | agent finishes | success | completed | Result message is set' },
  },
  {
    id: '3/completed-webhook',
    section: '3',
    level: 'MUST',
    behaviour: 'The move to completed delivers a `task.completed` webhook.',
    source: { line: 182, quote: '`task.completed` webhook' },
    capabilities: ['webhooks'],
  },
  {
    id: '3/working-to-failed',
    section: '3',
    level: 'MUST',
    behaviour: 'A working task whose agent errors moves to failed.',
    source: { line: 183, quote: '| working | agent errors | processing error | failed |' },
  },
  {
    id: '3/failed-webhook',
    section: '3',
    level: 'MUST',
    behaviour: 'The move to failed delivers a `task.failed` webhook.',
    source: { line: 183, quote: '`task.failed` webhook' },
    capabilities: ['webhooks'],
  },
  {
    id: '3/cancel-from-working',
    section: '3',
    level: 'MUST',
    behaviour: 'tasks/cancel on a working task succeeds and moves it to canceled.',
    source: {
      line: 184,
      quote: '| working | tasks/cancel or system timeout | task still running | canceled |',
    },
    rulings: ['C-34'],
  },
  {
    id: '3/cancel-from-working-webhook',
    section: '3',
    level: 'MUST',
    behaviour:
      'Cancelling a working task, by tasks/cancel or by the system timeout, delivers a `task.canceled` webhook.',
    source: { line: 184, quote: '| task still running | canceled | `task.canceled` webhook |' },
    rulings: ['C-05'],
    capabilities: ['webhooks'],
  },
  {
    id: '3/system-timeout-cancels-working',
    section: '3',
    level: 'MUST',
    behaviour: 'A working task that reaches the system timeout moves to canceled and stays there.',
    source: { line: 184, quote: 'tasks/cancel or system timeout' },
    rulings: ['C-05'],
  },
  {
    id: '3/system-timeout-reason',
    section: '3',
    level: 'SHOULD',
    behaviour: 'A task canceled by the system timeout carries `status.reason` "system timeout".',
    source: { line: 184, quote: 'system timeout' },
    rulings: ['C-05'],
  },
  {
    id: '3/final-states-terminal',
    section: '3',
    level: 'MUST',
    behaviour: 'A task in completed, failed or canceled never changes state again.',
    source: {
      line: 187,
      quote: '`completed`, `failed` and `canceled` are final; no transition leaves them.',
    },
  },
  {
    id: '3/cancel-final-task-rejected',
    section: '3',
    level: 'MUST',
    behaviour:
      'tasks/cancel on a task in a final state is answered with an error, never a cancel result, and the task keeps its state.',
    source: {
      line: 188,
      quote: 'tasks/cancel on a task already in a final state returns an error (section 7).',
    },
    rulings: ['C-06', 'C-07'],
  },
  {
    id: '3/new-task-submitted',
    section: '3',
    level: 'MUST',
    behaviour: 'A new task starts in state submitted.',
    source: { line: 189, quote: 'A new task enters `submitted`' },
  },
  {
    id: '3/task-submitted-announced',
    section: '3',
    level: 'MUST',
    behaviour:
      'A new task is announced with a `task.submitted` webhook to an agent-level configuration subscribed to it.',
    source: { line: 189, quote: 'is announced with `task.submitted` when subscribed' },
    rulings: ['C-17'],
    capabilities: ['webhooks'],
  },
  {
    id: '3/system-timeout-duration',
    section: '3',
    level: 'INFO',
    behaviour:
      'The system timeout lasts a per-agent duration and applies to working tasks only, never to queued ones.',
    source: { line: 190, quote: 'The duration of the system timeout that cancels a task: not shown.' },
    rulings: ['C-05'],
  },
];
