// Ledger, sections 4.6 (tasks/pushNotificationConfig/set) and 4.7 (tasks/pushNotificationConfig/get):
// params, replacement of a scope's configuration, and get returning exactly the requested scope.
import type { Requirement } from '../types.ts';

export const SECTION_4_6_TO_4_7: readonly Requirement[] = [
  {
    id: '4.6/set-config-required',
    section: '4.6',
    role: 'service',
    level: 'MUST',
    behaviour: 'tasks/pushNotificationConfig/set without `config` is answered with error -32602.',
    source: { line: 240, quote: '- Params: `config` (object, required, section 2.11)' },
    rulings: ['C-14'],
    capabilities: ['webhooks'],
  },
  {
    id: '4.6/set-config-object',
    section: '4.6',
    role: 'service',
    level: 'SHOULD',
    behaviour: 'A `config` that is not an object is answered with error -32602.',
    source: { line: 240, quote: '`config` (object, required, section 2.11)' },
    rulings: ['C-14', 'C-54'],
    capabilities: ['webhooks'],
  },
  {
    id: '4.6/set-replaces-scope',
    section: '4.6',
    role: 'service',
    level: 'MUST',
    behaviour: 'A set on a scope that already has a configuration replaces it and returns a new configId.',
    source: { line: 240, quote: '`taskId` (string, optional)' },
    rulings: ['C-17', 'C-54'],
    capabilities: ['webhooks'],
  },
  {
    id: '4.7/get-agent-scope',
    section: '4.7',
    role: 'service',
    level: 'MUST',
    behaviour: 'A get without `taskId` returns the agent-level configuration.',
    source: { line: 244, quote: '- Params: optional object with `taskId`' },
    rulings: ['C-17'],
    capabilities: ['webhooks'],
  },
  {
    id: '4.7/get-returns-scope',
    section: '4.7',
    role: 'service',
    level: 'MUST',
    behaviour:
      'A get with `taskId` returns the configuration of that task only and never falls back to the agent-level one.',
    source: { line: 244, quote: '(string, optional; task-specific configuration)' },
    rulings: ['C-17'],
    capabilities: ['webhooks'],
  },
  {
    id: '4.7/get-reflects-set',
    section: '4.7',
    role: 'service',
    level: 'MUST',
    behaviour:
      'After a set, a get on the same scope returns the stored url, events and configId with active true.',
    source: { line: 245, quote: '- Result: section 2.13.' },
    capabilities: ['webhooks'],
  },
];
