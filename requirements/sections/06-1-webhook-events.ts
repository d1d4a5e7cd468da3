// Ledger, sections 6 (Events) and 6.1 (Task events): which configuration receives which event, and
// the data each event carries. Data only (shape: requirements/types.ts).
import type { Requirement } from '../types.ts';

export const SECTION_6_TO_6_1: readonly Requirement[] = [
  {
    id: '6/no-delivery-without-config',
    section: '6',
    level: 'MUST',
    behaviour: 'No webhook request is sent for a task that no configuration covers.',
    source: { line: 275, quote: 'Sent as HTTP POST to the configured webhook url' },
    rulings: ['C-17'],
    capabilities: ['webhooks'],
  },
  {
    id: '6/task-level-replaces-agent-level',
    section: '6',
    level: 'MUST',
    behaviour:
      'A task-level configuration replaces the agent-level one for its task, so each event is delivered once.',
    source: { line: 275, quote: 'to the configured webhook url for tasks whose status changes' },
    rulings: ['C-17'],
    capabilities: ['webhooks'],
  },
  {
    id: '6.1/http-post-to-url',
    section: '6.1',
    level: 'MUST',
    behaviour: 'Each notification is an HTTP POST to the configured url.',
    source: { line: 275, quote: 'Sent as HTTP POST' },
    capabilities: ['webhooks'],
  },
  {
    id: '6.1/events-filter',
    section: '6.1',
    level: 'MUST',
    behaviour: 'Only the events listed in a configuration are delivered to it.',
    source: { line: 275, quote: 'filtered by the `events` list' },
    capabilities: ['webhooks'],
  },
  {
    id: '6.1/submitted-data',
    section: '6.1',
    level: 'MUST',
    behaviour: 'A `task.submitted` payload data carries taskId, submittedAt and estimatedDuration.',
    source: { line: 279, quote: '| task.submitted | task queued | taskId, submittedAt, estimatedDuration |' },
    capabilities: ['webhooks'],
  },
  {
    id: '6.1/working-data',
    section: '6.1',
    level: 'MUST',
    behaviour:
      'A `task.working` payload data, when the event is sent, carries taskId, startedAt and progress.',
    source: {
      line: 280,
      quote: '| task.working | processing starts (optional per agent) | taskId, startedAt, progress |',
    },
    capabilities: ['webhooks'],
  },
  {
    id: '6.1/completed-data',
    section: '6.1',
    level: 'MUST',
    behaviour:
      'A `task.completed` payload data carries taskId, status.message, contextId, duration and completedAt.',
    source: {
      line: 281,
      quote: '| task.completed | task completes | taskId, status.message, contextId, duration, completedAt |',
    },
    capabilities: ['webhooks'],
  },
  {
    id: '6.1/failed-data',
    section: '6.1',
    level: 'MUST',
    behaviour: 'A `task.failed` payload data carries taskId, status.error, duration and failedAt.',
    source: { line: 282, quote: '| task.failed | task fails | taskId, status.error, duration, failedAt |' },
    rulings: ['C-45'],
    capabilities: ['webhooks'],
  },
  {
    id: '6.1/canceled-data',
    section: '6.1',
    level: 'MUST',
    behaviour: 'A `task.canceled` payload data carries taskId, reason and canceledAt.',
    source: { line: 283, quote: '| task.canceled | task cancelled | taskId, reason, canceledAt |' },
    rulings: ['C-34'],
    capabilities: ['webhooks'],
  },
  {
    id: '6.1/data-timestamps-iso8601',
    section: '6.1',
    level: 'MUST',
    behaviour:
      'submittedAt, startedAt, completedAt, failedAt and canceledAt are ISO 8601 timestamps with a time zone.',
    source: { line: 279, quote: 'submittedAt' },
    rulings: ['C-39', 'C-20'],
    capabilities: ['webhooks'],
  },
  {
    id: '6.1/durations-milliseconds',
    section: '6.1',
    level: 'MUST',
    behaviour: '`duration` and `estimatedDuration` are non-negative numbers of milliseconds.',
    source: { line: 279, quote: 'estimatedDuration' },
    rulings: ['C-43'],
    capabilities: ['webhooks'],
  },
  {
    id: '6.1/transition-order',
    section: '6.1',
    level: 'SHOULD',
    behaviour:
      'The deliveries of one task to one configuration start in the order of its transitions, one event per transition.',
    source: { line: 285, quote: 'State transitions that emit them: section 3.' },
    rulings: ['C-20'],
    capabilities: ['webhooks'],
  },
];
