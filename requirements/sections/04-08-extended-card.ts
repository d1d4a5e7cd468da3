// Ledger, section 4.8 (agent/authenticatedExtendedCard): the includeCapabilities and includeMetrics
// params. The card's fields are in 02-14-agent-card.ts. Data only (shape: requirements/types.ts).
import type { Requirement } from '../types.ts';

export const SECTION_4_8: readonly Requirement[] = [
  {
    id: '4.8/capabilities-by-default',
    section: '4.8',
    role: 'service',
    level: 'MUST',
    behaviour: 'Without includeCapabilities, or with it true, the card carries `capabilities`.',
    source: { line: 248, quote: '`includeCapabilities` (boolean, default true)' },
    rulings: ['C-30'],
  },
  {
    id: '4.8/include-capabilities',
    section: '4.8',
    role: 'service',
    level: 'SHOULD',
    behaviour: 'With includeCapabilities false the card omits `capabilities`.',
    source: { line: 248, quote: '`includeCapabilities`' },
    rulings: ['C-30'],
  },
  {
    id: '4.8/metrics-absent-by-default',
    section: '4.8',
    role: 'service',
    level: 'MUST',
    behaviour: 'Without includeMetrics, or with it false, the card carries no `metrics`.',
    source: { line: 248, quote: '`includeMetrics` (boolean, default false)' },
    rulings: ['C-30'],
  },
  {
    id: '4.8/metrics-when-requested',
    section: '4.8',
    role: 'service',
    level: 'MUST',
    behaviour: 'With includeMetrics true the card carries a `metrics` object.',
    source: { line: 249, quote: 'The `metrics` object is present when requested.' },
    rulings: ['C-30'],
    capabilities: ['metrics'],
  },
  {
    id: '4.8/agent-and-limits-always',
    section: '4.8',
    role: 'service',
    level: 'MUST',
    behaviour: 'The card carries `agent` and `limits` whatever the params.',
    source: { line: 249, quote: '- Result: section 2.14.' },
    rulings: ['C-30'],
  },
  {
    id: '4.8/card-param-types',
    section: '4.8',
    role: 'service',
    level: 'SHOULD',
    behaviour: 'A non-boolean includeCapabilities or includeMetrics is answered with error -32602.',
    source: { line: 248, quote: '- Params (optional object)' },
    rulings: ['C-30', 'C-14'],
  },
];
