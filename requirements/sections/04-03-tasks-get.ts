// Ledger, section 4.3 (tasks/get): params, the task result with timestamps and per-state details,
// and retention of finished tasks. Data only (shape: requirements/types.ts).
import type { Requirement } from '../types.ts';

export const SECTION_4_3: readonly Requirement[] = [
  {
    id: '4.3/get-task-id-required',
    section: '4.3',
    role: 'service',
    level: 'MUST',
    behaviour: 'tasks/get without `taskId` is answered with error -32602.',
    source: { line: 224, quote: '- Params: `taskId` (string, required).' },
    rulings: ['C-14'],
  },
  {
    id: '4.3/get-result-fields',
    section: '4.3',
    role: 'service',
    level: 'MUST',
    behaviour: 'A tasks/get result carries `id`, `status`, `createdAt` and `updatedAt`.',
    source: {
      line: 225,
      quote: 'Result: Task (2.7) with `id`, `status`, optional `contextId`, `createdAt`, `updatedAt`.',
    },
    rulings: ['C-35'],
  },
  {
    id: '4.3/get-current-state',
    section: '4.3',
    role: 'service',
    level: 'MUST',
    behaviour:
      'tasks/get reports the current state of the task, for instance the final state a finished call returned.',
    source: { line: 225, quote: '`status.state` is any of the five states.' },
  },
  {
    id: '4.3/get-status-details',
    section: '4.3',
    role: 'service',
    level: 'MUST',
    behaviour:
      'A tasks/get status carries `message` when completed, `error` when failed and `progress` when working.',
    source: {
      line: 225,
      quote: '`message` appears when completed, `error` when failed, `progress` when working.',
    },
  },
  {
    id: '4.3/get-timestamps-ordered',
    section: '4.3',
    role: 'service',
    level: 'MUST',
    behaviour: '`createdAt` is not later than `updatedAt`, and `updatedAt` changes at every state change.',
    source: { line: 225, quote: '`createdAt`, `updatedAt`' },
    rulings: ['C-35'],
  },
  {
    id: '4.3/get-unknown-task-32000',
    section: '4.3',
    role: 'service',
    level: 'MUST',
    behaviour:
      'tasks/get with a task id the agent does not know, or no longer keeps, is answered with error -32000.',
    source: { line: 340, quote: '| -32000 | Task not found | Unknown task id;' },
    rulings: ['C-44'],
  },
  {
    id: '4.3/finished-task-retrievable',
    section: '4.3',
    role: 'service',
    level: 'SHOULD',
    behaviour: 'A finished task stays retrievable with tasks/get for at least one hour.',
    source: { line: 225, quote: 'Result: Task (2.7)' },
    rulings: ['C-44'],
  },
];
