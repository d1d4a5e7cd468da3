// Spec 4.8 with C-30: agent/authenticatedExtendedCard's optional params. includeCapabilities (default
// true) and includeMetrics (default false) decide which parts the card carries; agent and limits are
// always there; a non-boolean flag is -32602 (C-14).
import { validate } from '../../schemas/registry.ts';
import { isObject } from '../../schemas/json.ts';
import { ERROR_CODES, is, SIDE_BY_SIDE, suiteFile, typeOf, verifies } from '../support/index.ts';
import type { CheckContext } from '../support/index.ts';
import { fetchCard } from '../support/card.ts';
import { CARD, errorOf } from '../support/rpc.ts';
import { requireObject } from '../support/schemas.ts';
import { declareSample } from '../support/samples.ts';

suiteFile({
  cost: { requests: 0, turns: 0 },
  // Each check reads the cards of the module's Map of promises (one fetch per params form) or sends its own.
  concurrent: true,
});

const NO_PARAMS = declareSample('the card asked without params', { requests: 1, turns: 0 });
const METRICS_ONLY = declareSample('the card asked with includeCapabilities false, includeMetrics true', {
  requests: 1,
  turns: 0,
});

/** Params forms with what each must yield: `undefined` is a request without a params member. */
const DEFAULT_CAPABILITIES: ReadonlyArray<[string, unknown]> = [
  ['no params member', undefined],
  ['params {}', {}],
  ['includeCapabilities true', { includeCapabilities: true }],
  ['includeMetrics true', { includeMetrics: true }],
];

const NO_METRICS: ReadonlyArray<[string, unknown]> = [
  ['no params member', undefined],
  ['params {}', {}],
  ['includeMetrics false', { includeMetrics: false }],
  ['includeCapabilities false', { includeCapabilities: false }],
];

const cards = new Map<string, ReturnType<typeof fetchCard>>();

/**
 * The card asked with `params`, fetched once per file for each params form: the checks of this file
 * only read it, and each check's first form is one another check reads too.
 */
async function card(c: CheckContext, label: string, params: unknown) {
  const key =
    params === undefined ? 'no params' : JSON.stringify(params, Object.keys(params as object).sort());
  let fetched = cards.get(key);
  if (fetched === undefined) {
    fetched = fetchCard(c, params);
    cards.set(key, fetched);
  } else c.info(`${label}: the card another check of this file asked for with these params`);
  return requireObject(c, `${label}: result`, (await fetched).card);
}

/** A check reading cards, the first of which `sample` is, `cases` forms in all. */
const readsCards = (sample: string, cases: number) => ({
  samples: [sample],
  property: { requests: 1, turns: 0, cases },
});

verifies(
  '4.8/capabilities-by-default',
  'capabilities is there unless includeCapabilities is false',
  async (c) => {
    await c.each(
      'each params form that keeps capabilities',
      DEFAULT_CAPABILITIES,
      async ([label, params]) => {
        c.check(
          `${label}: type of capabilities`,
          typeOf((await card(c, label, params)).capabilities),
          'object',
        );
      },
      SIDE_BY_SIDE,
    );
  },
  readsCards(NO_PARAMS, DEFAULT_CAPABILITIES.length),
);

const CAPABILITIES_FALSE = [
  ['includeCapabilities false, includeMetrics true', { includeCapabilities: false, includeMetrics: true }],
  ['includeCapabilities false', { includeCapabilities: false }],
] as const;

verifies(
  '4.8/include-capabilities',
  'includeCapabilities false leaves capabilities out',
  async (c) => {
    await c.each(
      'each params form with includeCapabilities false',
      CAPABILITIES_FALSE,
      async ([label, params]) => {
        c.check(`${label}: capabilities`, (await card(c, label, params)).capabilities, is.absent());
      },
      SIDE_BY_SIDE,
    );
  },
  readsCards(METRICS_ONLY, CAPABILITIES_FALSE.length),
);

verifies(
  '4.8/metrics-absent-by-default',
  'metrics is absent unless includeMetrics is true',
  async (c) => {
    await c.each(
      'each params form without includeMetrics true',
      NO_METRICS,
      async ([label, params]) => {
        c.check(`${label}: metrics`, (await card(c, label, params)).metrics, is.absent());
      },
      SIDE_BY_SIDE,
    );
  },
  readsCards(NO_PARAMS, NO_METRICS.length),
);

const METRICS_TRUE = [
  ['includeMetrics true, includeCapabilities false', { includeMetrics: true, includeCapabilities: false }],
  ['includeMetrics true', { includeMetrics: true }],
] as const;

verifies(
  '4.8/metrics-when-requested',
  'includeMetrics true yields a metrics object',
  async (c) => {
    await c.each(
      'each params form with includeMetrics true',
      METRICS_TRUE,
      async ([label, params]) => {
        const metrics = (await card(c, label, params)).metrics;
        c.check(`${label}: type of metrics`, typeOf(metrics), 'object');
        const v = isObject(metrics)
          ? validate('agent-extended-card', { agent: {}, limits: {}, metrics })
          : undefined;
        const errors = v === undefined || v.valid ? [] : v.errors.filter((e) => e.path.startsWith('metrics'));
        c.check(`${label}: schema errors under metrics`, errors, []);
      },
      SIDE_BY_SIDE,
    );
  },
  readsCards(METRICS_ONLY, METRICS_TRUE.length),
);

const EVERY_FORM: ReadonlyArray<[string, unknown]> = [
  ['no params member', undefined],
  ['includeCapabilities false, includeMetrics true', { includeCapabilities: false, includeMetrics: true }],
  ['both flags false', { includeCapabilities: false, includeMetrics: false }],
  ['both flags true', { includeCapabilities: true, includeMetrics: true }],
];

verifies(
  '4.8/agent-and-limits-always',
  'agent and limits are there whatever the params',
  async (c) => {
    await c.each(
      'each params form',
      EVERY_FORM,
      async ([label, params]) => {
        const result = await card(c, label, params);
        c.check(`${label}: type of agent`, typeOf(result.agent), 'object');
        c.check(`${label}: type of limits`, typeOf(result.limits), 'object');
      },
      SIDE_BY_SIDE,
    );
  },
  readsCards(NO_PARAMS, EVERY_FORM.length),
);

/** A string "false" first: the likeliest mistake of a client that builds its params from text. */
const NON_BOOLEAN: ReadonlyArray<[string, unknown]> = [
  ['includeCapabilities "false"', { includeCapabilities: 'false' }],
  ['includeCapabilities 0', { includeCapabilities: 0 }],
  ['includeMetrics "true"', { includeMetrics: 'true' }],
  ['includeMetrics 1', { includeMetrics: 1 }],
];

verifies(
  '4.8/card-param-types',
  'a non-boolean includeCapabilities or includeMetrics gets -32602',
  async (c) => {
    await c.each(
      'each non-boolean flag',
      NON_BOOLEAN,
      async ([label, params]) => {
        const ex = await c.rpc(CARD, params);
        c.check(`${label}: error.code`, errorOf(ex)?.code, ERROR_CODES.INVALID_PARAMS);
      },
      SIDE_BY_SIDE,
    );
  },
  { cost: { requests: 1, turns: 0 }, property: { requests: 1, turns: 0, cases: NON_BOOLEAN.length } },
);
