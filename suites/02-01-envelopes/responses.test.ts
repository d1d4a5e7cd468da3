// 2.2 response envelope: `result` on success, `error` on failure, never both (JSON-RPC 2.0 section 5),
// checked with the registry schemas; and section 2's extra-fields policy (C-36), observed on results.
import { isObject } from '../../schemas/json.ts';
import { is, suiteFile, typeOf, verifies, type AnsweredExchange } from '../support/index.ts';
import { sendText } from '../support/messages.ts';
import { CARD, resultOf } from '../support/rpc.ts';
import { sharedSample } from '../support/samples.ts';
import { checkSchema, reportExtras } from '../support/schemas.ts';

suiteFile({
  cost: { requests: 2, turns: 0 },
  concurrent: true,
});

const EXACTLY_ONE = is.where('exactly one of result and error', (a) => Array.isArray(a) && a.length === 1);

/** One success and one failure of each kind this file needs, made once. */
const successes = sharedSample('card and message/send successes', { requests: 0, turns: 0 }, async (c) => ({
  card: await c.rpc(CARD),
  send: await sendText(c, 'response envelope sample'),
}));

const failures = sharedSample(
  'unknown method and unknown task failures',
  { requests: 0, turns: 0 },
  async (c) => ({
    unknownMethod: await c.rpc('tasks/conformanceUnknown', {}),
    unknownTask: await c.rpc('tasks/get', { taskId: 'conformance-no-such-task' }),
  }),
);

function body(ex: AnsweredExchange): Record<string, unknown> | undefined {
  return isObject(ex.response.json) ? ex.response.json : undefined;
}

function members(ex: AnsweredExchange): string[] {
  const b = body(ex);
  return b === undefined ? [] : ['result', 'error'].filter((k) => k in b);
}

verifies(
  '2.2/result-on-success',
  'successful calls carry a result object (schema jsonrpc-success-response)',
  async (c) => {
    const { card, send } = await successes(c);
    for (const [label, ex] of [
      ['agent/authenticatedExtendedCard', card],
      ['message/send', send],
    ] as const) {
      c.check(`${label}: type of result`, typeOf(body(ex)?.result), 'object');
      checkSchema(c, 'jsonrpc-success-response', body(ex), `${label} response`);
    }
  },
);

verifies(
  '2.2/error-on-failure',
  'failed calls carry an error object (schema jsonrpc-error-response)',
  async (c) => {
    const { unknownMethod, unknownTask } = await failures(c);
    for (const [label, ex] of [
      ['unknown method', unknownMethod],
      ['tasks/get of an unknown task', unknownTask],
    ] as const) {
      c.check(`${label}: error is an object`, isObject(body(ex)?.error), true);
      checkSchema(c, 'jsonrpc-error-response', body(ex), `${label} response`);
    }
  },
);

verifies('2.2/result-xor-error', 'every response carries exactly one of result and error', async (c) => {
  const all = { ...(await successes(c)), ...(await failures(c)) };
  for (const [label, ex] of Object.entries(all)) {
    c.check(`${label}: members present among result/error`, members(ex), EXACTLY_ONE);
  }
});

const CARD_FIELDS = ['agent', 'capabilities', 'limits', 'metrics'];

verifies(
  '2/extra-fields-tolerated',
  'results with unlisted fields still carry every listed field validly',
  async (c) => {
    const { card, send } = await successes(c);
    const task = resultOf(send);
    reportExtras(c, 'message/send result', task);
    reportExtras(c, 'card result', resultOf(card), CARD_FIELDS);
    // Extra fields may be added, but never at the cost of a listed field's presence or type.
    checkSchema(c, 'send-result', task, 'message/send result');
    checkSchema(c, 'agent-extended-card', resultOf(card), 'card result');
  },
);
