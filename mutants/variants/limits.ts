// Mutants of the per-agent limits (spec 8, 2.14; rulings C-04, C-21, C-22, C-46): the agent enforces
// one limit other than the one its card reports (the card is edited by the proxy, the enforcement is
// the reference server's own, set through its agent configuration).
import { mutant } from '../define.ts';
import { DEFAULT_SUPPORTED_TYPES } from '../../reference-server/index.ts';
import type { Variant } from '../types.ts';

const CARD = 'agent/authenticatedExtendedCard';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A JSON hook editing one part (`limits` or `capabilities.fileUpload`) of the card result. */
function editCard(part: 'limits' | 'fileUpload', edit: (o: Obj) => void) {
  return {
    [CARD](body: unknown) {
      const card = isObj(body) && isObj(body.result) ? body.result : undefined;
      const caps = isObj(card?.capabilities) ? card.capabilities : undefined;
      const o = part === 'limits' ? card?.limits : caps?.fileUpload;
      if (isObj(o)) edit(o);
    },
  };
}

const SMALL_FILES = 65_536;

const variants: Variant[] = [
  mutant({
    breaks: '8/max-message-length',
    slug: 'off-by-one',
    area: 'limits',
    description: 'the card reports maxMessageLength one below the length the agent enforces',
    hooks: {
      json: editCard('limits', (l) => {
        l.maxMessageLength = Number(l.maxMessageLength) - 1;
      }),
    },
  }),
  mutant({
    breaks: '8/max-file-size',
    slug: 'off-by-one',
    area: 'limits',
    description: 'the card reports fileUpload.maxFileSize one byte below the size the agent enforces',
    options: { agent: { capabilities: { fileUpload: { maxFileSize: SMALL_FILES } } } },
    hooks: {
      json: editCard('fileUpload', (f) => {
        f.maxFileSize = SMALL_FILES - 1;
      }),
    },
  }),
  mutant({
    breaks: '8/file-supported-types',
    slug: 'any-type-accepted',
    area: 'limits',
    description: 'the card lists five supportedTypes, but a file of any MIME type is accepted',
    options: { agent: { capabilities: { fileUpload: { supportedTypes: ['*/*'] } } } },
    hooks: {
      json: editCard('fileUpload', (f) => {
        f.supportedTypes = [...DEFAULT_SUPPORTED_TYPES];
      }),
    },
  }),
  mutant({
    breaks: '8/concurrent-tasks-cap',
    slug: 'reports-two-runs-four',
    area: 'limits',
    description: 'the card reports concurrentTasks 2, but four tasks of the agent work at once',
    hooks: {
      json: editCard('limits', (l) => {
        l.concurrentTasks = 2;
      }),
    },
  }),
  mutant({
    breaks: '8/rate-limit-enforced',
    slug: 'reported-not-enforced',
    area: 'limits',
    description: 'the card reports requestsPerMinute 30, but the agent serves 6000 a minute',
    hooks: {
      json: editCard('limits', (l) => {
        l.requestsPerMinute = 30;
      }),
    },
  }),
];

export default variants;
