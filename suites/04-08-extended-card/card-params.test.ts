// Spec 4.8 with C-30: agent/authenticatedExtendedCard's optional params. includeCapabilities (default
// true) and includeMetrics (default false) decide which parts the card carries; agent and limits are
// always there; a non-boolean flag is -32602 (C-14).
import { validate } from '../../schemas/registry.ts';
import { isObject } from '../../schemas/json.ts';
import { ERROR_CODES, is, suiteFile, typeOf, verifies, type CheckContext } from '../support/index.ts';
import { fetchCard } from '../support/card.ts';
import { CARD, errorOf } from '../support/rpc.ts';
import { requireObject } from '../support/schemas.ts';

suiteFile({
  cost: { requests: 4, turns: 0 },
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

async function card(c: CheckContext, label: string, params: unknown) {
  return requireObject(c, `${label}: result`, (await fetchCard(c, params)).card);
}

verifies(
  '4.8/capabilities-by-default',
  'capabilities is there unless includeCapabilities is false',
  async (c) => {
    for (const [label, params] of DEFAULT_CAPABILITIES) {
      c.check(
        `${label}: type of capabilities`,
        typeOf((await card(c, label, params)).capabilities),
        'object',
      );
    }
  },
);

verifies('4.8/include-capabilities', 'includeCapabilities false leaves capabilities out', async (c) => {
  for (const [label, params] of [
    ['includeCapabilities false', { includeCapabilities: false }],
    ['includeCapabilities false, includeMetrics true', { includeCapabilities: false, includeMetrics: true }],
  ] as const) {
    c.check(`${label}: capabilities`, (await card(c, label, params)).capabilities, is.absent());
  }
});

verifies('4.8/metrics-absent-by-default', 'metrics is absent unless includeMetrics is true', async (c) => {
  for (const [label, params] of NO_METRICS) {
    c.check(`${label}: metrics`, (await card(c, label, params)).metrics, is.absent());
  }
});

verifies('4.8/metrics-when-requested', 'includeMetrics true yields a metrics object', async (c) => {
  for (const [label, params] of [
    ['includeMetrics true', { includeMetrics: true }],
    ['includeMetrics true, includeCapabilities false', { includeMetrics: true, includeCapabilities: false }],
  ] as const) {
    const metrics = (await card(c, label, params)).metrics;
    c.check(`${label}: type of metrics`, typeOf(metrics), 'object');
    const v = isObject(metrics)
      ? validate('agent-extended-card', { agent: {}, limits: {}, metrics })
      : undefined;
    const errors = v === undefined || v.valid ? [] : v.errors.filter((e) => e.path.startsWith('metrics'));
    c.check(`${label}: schema errors under metrics`, errors, []);
  }
});

verifies('4.8/agent-and-limits-always', 'agent and limits are there whatever the params', async (c) => {
  const forms: ReadonlyArray<[string, unknown]> = [
    ['no params member', undefined],
    ['both flags false', { includeCapabilities: false, includeMetrics: false }],
    ['both flags true', { includeCapabilities: true, includeMetrics: true }],
    ['includeCapabilities false, includeMetrics true', { includeCapabilities: false, includeMetrics: true }],
  ];
  for (const [label, params] of forms) {
    const result = await card(c, label, params);
    c.check(`${label}: type of agent`, typeOf(result.agent), 'object');
    c.check(`${label}: type of limits`, typeOf(result.limits), 'object');
  }
});

verifies(
  '4.8/card-param-types',
  'a non-boolean includeCapabilities or includeMetrics gets -32602',
  async (c) => {
    const forms: ReadonlyArray<[string, unknown]> = [
      ['includeCapabilities "false"', { includeCapabilities: 'false' }],
      ['includeCapabilities 0', { includeCapabilities: 0 }],
      ['includeMetrics "true"', { includeMetrics: 'true' }],
      ['includeMetrics 1', { includeMetrics: 1 }],
    ];
    for (const [label, params] of forms) {
      const ex = await c.rpc(CARD, params);
      c.check(`${label}: error.code`, errorOf(ex)?.code, ERROR_CODES.INVALID_PARAMS);
    }
  },
);
