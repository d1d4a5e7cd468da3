// Mutants of the extended card (spec 2.14, 4.8; ruling C-30): the proxy edits one field of the card
// answer, or one param of the card request, of an unmodified reference server.
import { mutant } from '../define.ts';
import { sendJson } from '../proxy.ts';
import type { Variant } from '../types.ts';
import { isObject, type JsonObject } from '../../schemas/json.ts';

const CARD = 'agent/authenticatedExtendedCard';

/** A JSON hook editing the card result (an error answer is left alone). */
function editCard(edit: (card: JsonObject) => void) {
  return {
    [CARD](body: unknown) {
      if (isObject(body) && isObject(body.result)) edit(body.result);
    },
  };
}

/** A request hook editing the card params (created when absent). */
function editParams(edit: (params: JsonObject) => void) {
  return (call: { method?: string; json: unknown }): unknown => {
    if (call.method !== CARD || !isObject(call.json)) return undefined;
    const params = isObject(call.json.params) ? call.json.params : {};
    edit(params);
    call.json.params = params;
    return call.json;
  };
}

const variants: Variant[] = [
  mutant({
    breaks: '2.14/card-agent-version',
    slug: 'missing',
    area: 'card',
    description: 'the card leaves out agent.version',
    hooks: {
      json: editCard((card) => {
        if (isObject(card.agent)) delete card.agent.version;
      }),
    },
  }),
  mutant({
    breaks: '2.14/metrics-success-rate',
    slug: 'percent-text',
    area: 'card',
    description: 'metrics.successRate is the text "NN%" instead of a number from 0 to 100',
    hooks: {
      json: editCard((card) => {
        if (isObject(card.metrics)) card.metrics.successRate = `${String(card.metrics.successRate)}%`;
      }),
    },
  }),
  mutant({
    breaks: '4.8/metrics-absent-by-default',
    slug: 'always-included',
    area: 'card',
    description: 'the card always carries metrics, whatever includeMetrics says',
    hooks: {
      request: editParams((params) => {
        params.includeMetrics = true;
      }),
    },
  }),
  mutant({
    breaks: '4.8/include-capabilities',
    slug: 'flag-ignored',
    area: 'card',
    description: 'includeCapabilities false is ignored: the card always carries capabilities',
    hooks: {
      request: editParams((params) => {
        if (params.includeCapabilities === false) delete params.includeCapabilities;
      }),
    },
  }),
  mutant({
    breaks: '2.14/supported-methods-served',
    slug: 'resubscribe-listed-not-served',
    area: 'card',
    description: 'the card lists tasks/resubscribe, but the agent answers it with -32601 Method not found',
    hooks: {
      answer(call, res) {
        if (call.method !== 'tasks/resubscribe') return false;
        const error = { code: -32601, message: 'Method not found', data: { method: call.method } };
        return sendJson(res, { jsonrpc: '2.0', id: call.id ?? null, error });
      },
    },
  }),
];

/** Caught too; left out of the detection test to keep it within its time budget (`npm run mutants -- --extended`). */
const EXTENDED = new Set([
  '4-8-include-capabilities--flag-ignored',
  '2-14-supported-methods-served--resubscribe-listed-not-served',
]);

export const extended = variants.filter((v) => EXTENDED.has(v.name));
export default variants.filter((v) => !EXTENDED.has(v.name));
