// Mutants of the per-agent limits (spec 8, 2.14; rulings C-04, C-21, C-22, C-46): the agent enforces
// one limit other than the one its card reports (the card is edited by the proxy, the enforcement is
// the reference server's own, set through its agent configuration).
import { mutant } from '../define.ts';
import { sendJson } from '../proxy.ts';
import { DEFAULT_SUPPORTED_TYPES } from '../../reference-server/index.ts';
import type { Variant } from '../types.ts';
import { isObject, type JsonObject } from '../../schemas/json.ts';

const CARD = 'agent/authenticatedExtendedCard';

/** A JSON hook editing one part (`limits` or `capabilities.fileUpload`) of the card result. */
function editCard(part: 'limits' | 'fileUpload', edit: (o: JsonObject) => void) {
  return {
    [CARD](body: unknown) {
      const card = isObject(body) && isObject(body.result) ? body.result : undefined;
      const caps = isObject(card?.capabilities) ? card.capabilities : undefined;
      const o = part === 'limits' ? card?.limits : caps?.fileUpload;
      if (isObject(o)) edit(o);
    },
  };
}

// The certification agent's limits, restated whole because agent overrides replace the object.
const LIMITS = { requestsPerMinute: 6000, concurrentTasks: 4, maxMessageLength: 100_000 };
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
  mutant({
    breaks: '8/rate-limit-retry-after',
    slug: 'header-missing',
    area: 'limits',
    description: 'a rate-limited request gets 429 and -32012 but no Retry-After header',
    options: { agent: { limits: { ...LIMITS, requestsPerMinute: 40 } } },
    hooks: {
      head(head) {
        delete head.headers['retry-after'];
      },
    },
  }),
  mutant({
    breaks: '8/limits-reported',
    slug: 'rate-as-text',
    area: 'limits',
    description: 'the card reports limits.requestsPerMinute as the text "6000/min"',
    hooks: {
      json: editCard('limits', (l) => {
        l.requestsPerMinute = `${String(l.requestsPerMinute)}/min`;
      }),
    },
  }),
  mutant({
    breaks: '8/max-message-length',
    slug: 'utf16-units',
    area: 'limits',
    description:
      'message length is counted in UTF-16 code units (JavaScript string length), so text with emoji is refused below the limit',
    hooks: {
      answer(call, res) {
        if (call.method !== 'message/send' && call.method !== 'message/stream') return false;
        const message = isObject(call.params?.message) ? call.params.message : {};
        const parts = Array.isArray(message.parts) ? (message.parts as unknown[]) : [];
        let total = 0;
        let at = -1;
        parts.forEach((p, i) => {
          if (!isObject(p) || typeof p.text !== 'string') return;
          total += p.text.length;
          if (at < 0 && total > LIMITS.maxMessageLength) at = i;
        });
        if (at < 0) return false;
        const data = {
          details: 'message text exceeds maxMessageLength',
          field: `message.parts[${at}].text`,
          limit: LIMITS.maxMessageLength,
          actual: total,
        };
        const error = { code: -32602, message: 'Invalid params', data };
        return sendJson(res, { jsonrpc: '2.0', id: call.id ?? null, error });
      },
    },
  }),
];

/** Caught too; left out of the detection test to keep it within its time budget (`npm run mutants -- --extended`). */
const EXTENDED = new Set([
  '8-rate-limit-retry-after--header-missing',
  '8-limits-reported--rate-as-text',
  '8-max-message-length--utf16-units',
]);

export const extended = variants.filter((v) => EXTENDED.has(v.name));
export default variants.filter((v) => !EXTENDED.has(v.name));
