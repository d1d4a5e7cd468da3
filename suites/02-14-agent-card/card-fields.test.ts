// Spec 2.14: presence and type of every field of the extended card, read from a fresh
// agent/authenticatedExtendedCard call and checked both by the `agent-extended-card` schema (errors
// at the field's path) and by the field's own rule. C-30 (metrics on request), C-46 (positive limits).
import { validate } from '../../schemas/registry.ts';
import { isObject } from '../../schemas/json.ts';
import { is, suiteFile, verifies, type CheckContext } from '../support/index.ts';
import { fetchCard, pathValue } from '../support/card.ts';
import { requireObject } from '../support/schemas.ts';
import type { Matcher } from '../../harness/check/index.ts';
import { sharedSample } from '../support/samples.ts';

suiteFile({
  cost: { requests: 0, turns: 0 },
  // The second card of metrics.totalRequests only informs when the count did not grow: a request of
  // another check in between cannot make it fail.
  concurrent: true,
});

const CARD_SAMPLE = 'the extended card asked with every include flag';
/** One card for the file: every field check reads the same answer. */
const sharedCard = sharedSample(CARD_SAMPLE, { requests: 1, turns: 0 }, (c) =>
  fetchCard(c, { includeCapabilities: true, includeMetrics: true }),
);
const READS_CARD = { samples: [CARD_SAMPLE] };

const STRING = is.type('string');
const BOOLEAN = is.type('boolean');
const POSITIVE = is.where('a number > 0', (v) => typeof v === 'number' && Number.isFinite(v) && v > 0);
const STRINGS = is.where(
  'an array of strings',
  (v) => Array.isArray(v) && v.every((x) => typeof x === 'string'),
);
// RFC 6838 type/subtype; `type/*` and `*/*` as ranges a card may list.
const MIME = /^(\*|[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*)\/(\*|[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*)$/;
const MIME_TYPES = is.where(
  'an array of MIME types (type/subtype)',
  (v) => Array.isArray(v) && v.every((x) => typeof x === 'string' && MIME.test(x)),
);
const NON_NEGATIVE = is.where('a number >= 0', (v) => typeof v === 'number' && Number.isFinite(v) && v >= 0);
const PERCENT = is.where('a number from 0 to 100', (v) => typeof v === 'number' && v >= 0 && v <= 100);

type Part = 'agent' | 'capabilities' | 'limits' | 'metrics';

const FIELDS: ReadonlyArray<[id: string, path: string, rule: Matcher]> = [
  ['2.14/card-agent-id', 'agent.id', STRING],
  ['2.14/card-agent-name', 'agent.name', STRING],
  ['2.14/card-agent-description', 'agent.description', STRING],
  ['2.14/card-agent-version', 'agent.version', STRING],
  ['2.14/card-agent-type', 'agent.type', STRING],
  ['2.14/card-agent-status', 'agent.status', is.oneOf(['active', 'inactive', 'maintenance'])],
  ['2.14/card-supported-methods', 'capabilities.supportedMethods', STRINGS],
  ['2.14/card-file-upload-supported', 'capabilities.fileUpload.supported', BOOLEAN],
  ['2.14/card-file-upload-max-file-size', 'capabilities.fileUpload.maxFileSize', POSITIVE],
  ['2.14/card-file-upload-supported-types', 'capabilities.fileUpload.supportedTypes', MIME_TYPES],
  ['2.14/card-streaming', 'capabilities.streaming', BOOLEAN],
  ['2.14/card-multi-turn', 'capabilities.multiTurn', BOOLEAN],
  ['2.14/card-webhooks', 'capabilities.webhooks', BOOLEAN],
  ['2.14/card-requests-per-minute', 'limits.requestsPerMinute', POSITIVE],
  ['2.14/card-concurrent-tasks', 'limits.concurrentTasks', POSITIVE],
  ['2.14/card-max-message-length', 'limits.maxMessageLength', POSITIVE],
  ['2.14/metrics-total-requests', 'metrics.totalRequests', NON_NEGATIVE],
  ['2.14/metrics-average-response-time', 'metrics.averageResponseTime', NON_NEGATIVE],
  ['2.14/metrics-success-rate', 'metrics.successRate', PERCENT],
];

/**
 * The card asked for everything, so that conditional parts (capabilities, metrics) are there to check:
 * the file's shared card, or (`fresh`) one fetched now.
 */
async function fullCard(c: CheckContext, part: Part, fresh = false) {
  const { card: result } = fresh
    ? await fetchCard(c, { includeCapabilities: true, includeMetrics: true })
    : await sharedCard(c);
  const card = requireObject(c, 'result of agent/authenticatedExtendedCard', result);
  if (part === 'capabilities' || part === 'metrics') {
    // "A card with capabilities/metrics carries ...": their absence is graded by 4.8 checks.
    if (!isObject(card[part]))
      c.notExercised(`the card asked with include flags true carries no ${part} object (see 4.8)`);
  } else {
    requireObject(c, `card.${part}`, card[part]);
  }
  return card;
}

/** Schema errors at or under the field's path (the registry's dotted paths). */
function schemaErrorsAt(card: unknown, path: string) {
  const result = validate('agent-extended-card', card);
  if (result.valid) return [];
  return result.errors.filter(
    (e) => e.path === path || e.path.startsWith(`${path}.`) || e.path.startsWith(`${path}[`),
  );
}

for (const [id, path, rule] of FIELDS) {
  verifies(
    id,
    `${path} is present with its type`,
    async (c) => {
      const card = await fullCard(c, path.split('.')[0] as Part);
      const value = pathValue(card, path);
      c.check(path, value, rule);
      c.check(`schema agent-extended-card errors at ${path}`, schemaErrorsAt(card, path), []);
    },
    READS_CARD,
  );
}

verifies(
  '2.14/card-agent-id',
  'agent.id names the agent of the request path',
  async (c) => {
    const card = await fullCard(c, 'agent');
    // The spec calls it the agent identifier; another id is reported, not failed (it may be an alias).
    if (pathValue(card, 'agent.id') !== c.target.agentId) {
      c.info('agent.id differs from the agent_id of the path', {
        agentId: c.target.agentId,
        cardId: pathValue(card, 'agent.id'),
      });
    }
    c.check('agent.id', pathValue(card, 'agent.id'), STRING);
  },
  READS_CARD,
);

verifies(
  '2.14/metrics-total-requests',
  'metrics.totalRequests between two cards',
  async (c) => {
    const first = await fullCard(c, 'metrics');
    const second = await fullCard(c, 'metrics', true);
    const [a, b] = [pathValue(first, 'metrics.totalRequests'), pathValue(second, 'metrics.totalRequests')];
    c.check('metrics.totalRequests of the first card', a, NON_NEGATIVE);
    c.check('metrics.totalRequests of the second card', b, NON_NEGATIVE);
    // Metrics may be sampled or aggregated, so a count that did not move is reported, not failed.
    if (typeof a === 'number' && typeof b === 'number' && b <= a) {
      c.info('metrics.totalRequests did not grow across a card request', { first: a, second: b });
    }
  },
  { cost: { requests: 1, turns: 0 }, ...READS_CARD },
);
