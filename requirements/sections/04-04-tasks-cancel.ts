// Ledger, section 4.4 (tasks/cancel): params, the cancel result and reason, and the error codes for
// cancelling a task already in a final state or racing its completion. Data only (requirements/types.ts).
import type { Requirement } from '../types.ts';

export const SECTION_4_4: readonly Requirement[] = [
  {
    id: '4.4/cancel-task-id-required',
    section: '4.4',
    role: 'service',
    level: 'MUST',
    behaviour: 'tasks/cancel without `taskId` is answered with error -32602.',
    source: { line: 228, quote: '- Params: `taskId` (string, required)' },
    rulings: ['C-14'],
  },
  {
    id: '4.4/cancel-result-fields',
    section: '4.4',
    role: 'service',
    level: 'MUST',
    behaviour:
      'A successful tasks/cancel is answered with a cancel result carrying `id`, `status` and `canceled` true.',
    source: { line: 229, quote: '- Result: cancel result (2.9).' },
    rulings: ['C-34'],
  },
  {
    id: '4.4/cancel-reason',
    section: '4.4',
    role: 'service',
    level: 'MUST',
    behaviour:
      'A supplied reason is reported unchanged in the cancel result, in tasks/get and in the `task.canceled` webhook.',
    source: { line: 228, quote: '`reason` (string, optional)' },
    rulings: ['C-34'],
  },
  {
    id: '4.4/cancel-default-reason',
    section: '4.4',
    role: 'service',
    level: 'SHOULD',
    behaviour: 'tasks/cancel without `reason` succeeds and reports the reason "Canceled by client".',
    source: { line: 228, quote: '`reason` (string, optional).' },
    rulings: ['C-34'],
  },
  {
    id: '4.4/cancel-completed-task-code',
    section: '4.4',
    role: 'service',
    level: 'SHOULD',
    behaviour:
      'tasks/cancel on a completed task is answered with error -32001 (or -32000, the form of spec 7 note 1) carrying data.taskId and data.currentState "completed".',
    source: { line: 341, quote: '| -32001 | Task already completed | Modifying a completed task |' },
    rulings: ['C-06'],
  },
  {
    id: '4.4/cancel-failed-task-code',
    section: '4.4',
    role: 'service',
    level: 'SHOULD',
    behaviour:
      'tasks/cancel on a failed task is answered with error -32001 (or -32000, as for a completed task) carrying data.taskId and data.currentState "failed".',
    source: { line: 341, quote: 'Modifying a completed task' },
    rulings: ['C-07'],
  },
  {
    id: '4.4/cancel-canceled-task-code',
    section: '4.4',
    role: 'service',
    level: 'SHOULD',
    behaviour:
      'tasks/cancel on a canceled task is answered with error -32002 carrying data.taskId and data.currentState "canceled".',
    source: { line: 342, quote: '| -32002 | Task already canceled | Modifying a cancelled task |' },
    rulings: ['C-07'],
  },
  {
    id: '4.4/cancel-race-consistent',
    section: '4.4',
    role: 'service',
    level: 'MUST',
    behaviour:
      'A cancel that loses a race with completion is answered with an error and the task keeps its final state, while a cancel that wins leaves the task canceled for good.',
    source: {
      line: 343,
      quote: '| -32003 | Cancellation failed | Task may have completed during cancellation |',
    },
    rulings: ['C-08'],
  },
];
