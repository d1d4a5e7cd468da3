// Ledger, section 4.9 (Multi-turn and files): contextId continuity and messages with several file
// parts. Data only (shape: requirements/types.ts).
import type { Requirement } from '../types.ts';

export const SECTION_4_9: readonly Requirement[] = [
  {
    id: '4.9/context-id-returned',
    section: '4.9',
    role: 'service',
    level: 'MUST',
    behaviour: 'The response to the first message of a conversation carries a contextId.',
    source: { line: 252, quote: 'The first message response returns `contextId`.' },
    capabilities: ['multiTurn'],
  },
  {
    id: '4.9/context-id-distinct',
    section: '4.9',
    role: 'service',
    level: 'SHOULD',
    behaviour: 'Two messages sent without contextId start conversations with different contextIds.',
    source: { line: 252, quote: 'The first message response returns' },
    capabilities: ['multiTurn'],
  },
  {
    id: '4.9/context-id-continues',
    section: '4.9',
    role: 'service',
    level: 'MUST',
    behaviour:
      'A later message sent with a returned contextId is answered with a task carrying that same contextId.',
    source: { line: 253, quote: 'Later messages send it in `params.contextId`' },
    rulings: ['C-15'],
    capabilities: ['multiTurn'],
  },
  {
    id: '4.9/context-kept',
    section: '4.9',
    role: 'service',
    level: 'INFO',
    behaviour: 'The agent answers a later message with the earlier turns of its conversation in context.',
    source: { line: 253, quote: 'the agent keeps the conversation context' },
    capabilities: ['multiTurn'],
  },
  {
    id: '4.9/files-alongside-text',
    section: '4.9',
    role: 'service',
    level: 'MUST',
    behaviour: 'A message with several file parts alongside text parts, within the card limits, is accepted.',
    source: {
      line: 254,
      quote:
        'Files are sent as parts of type `file`, several parts per message allowed, alongside text parts.',
    },
    capabilities: ['fileUpload'],
  },
];
