// Spec 2.11 with rulings C-14, C-17, C-18 and C-19: an invalid webhook configuration is refused with
// -32602 naming the offending field (`data.field`, rooted at params). Every set is scoped to a finished
// task, so a target that wrongly accepts one stores a task-level configuration nothing is sent to.
import { randomUUID } from 'node:crypto';
import { isObject } from '../../schemas/json.ts';
import {
  ERROR_CODES,
  is,
  SIDE_BY_SIDE,
  suiteFile,
  verifies,
  type CheckContext,
  type Matcher,
} from '../support/index.ts';
import { refusal } from '../support/errors.ts';
import { sendText } from '../support/messages.ts';
import { errorOf, resultOf } from '../support/rpc.ts';
import { finishedTaskId, sharedSample } from '../support/samples.ts';
import { getConfig, INVALID_PARAMS, requireResult, setConfig } from '../support/webhooks.ts';

suiteFile({
  cost: { requests: 1, turns: 0 },
});

const HOOK = 'https://webhook.a2a-conformance.invalid/validation';

const scopeTask = sharedSample(
  'finished task used as the scope of every set',
  { requests: 1, turns: 1 },
  async (c) => {
    const ex = await sendText(c, 'webhook validation scope');
    const id = resultOf(ex)?.id;
    return typeof id === 'string' ? id : undefined;
  },
);

async function taskScope(c: CheckContext): Promise<string> {
  const taskId = await scopeTask(c);
  c.require('a finished task to scope the sets (message/send result.id)', taskId, is.nonEmptyString());
  return taskId!;
}

type Case = readonly [label: string, config: unknown, field: string | Matcher];

/**
 * Sends each invalid configuration (an enumerated property, the first case the most telling), then
 * records code and field against C-14's -32602 {details, field}.
 */
async function expectRefused(c: CheckContext, cases: readonly Case[]): Promise<void> {
  const taskId = await taskScope(c);
  await c.each(
    'each invalid configuration',
    cases,
    async ([label, config, field]) => {
      const { code, field: actual } = refusal((await setConfig(c, config, taskId)).ex);
      c.check(`${label}: error.code`, code, INVALID_PARAMS);
      c.check(`${label}: error.data.field`, actual, field);
    },
    SIDE_BY_SIDE,
  );
}

// Every check here is a handful of independent requests: they run side by side.
const together = { concurrent: true };

/** A check of `cases` refusals on the file's task: one request each. */
const refuses = (cases: number) => ({
  ...together,
  samples: ['finished task used as the scope of every set'],
  property: { requests: 1, turns: 0, cases },
});

verifies(
  '2.11/url-required',
  'a config without url gets -32602 naming config.url',
  (c) =>
    expectRefused(c, [
      ['config {}', {}, 'config.url'],
      ['config with events only', { events: ['task.completed'] }, 'config.url'],
    ]),
  refuses(2),
);

verifies(
  '2.11/url-absolute-http',
  'relative, non-URL and non-http(s) urls get -32602',
  (c) =>
    expectRefused(
      c,
      ['not a url', '/hooks/relative', 'ftp://example.com/hook', 'mailto:hook@example.com'].map(
        (url) => [`url ${JSON.stringify(url)}`, { url }, 'config.url'] as const,
      ),
    ),
  refuses(4),
);

const COUNT = 'X-Conformance-Count';
// C-19 names config.headers for this rule; the header's own path is as precise, so both are accepted.
const EITHER = is.oneOf(['config.headers', `config.headers.${COUNT}`]);

verifies(
  '2.11/headers-string-map',
  'headers that are not a string map get -32602',
  (c) =>
    expectRefused(c, [
      ['a number value', { url: HOOK, headers: { [COUNT]: 1 } }, EITHER],
      ['a null value', { url: HOOK, headers: { [COUNT]: null } }, EITHER],
      ['headers as a string', { url: HOOK, headers: `${COUNT}: 1` }, 'config.headers'],
      ['headers as an array', { url: HOOK, headers: [COUNT] }, 'config.headers'],
    ]),
  refuses(4),
);

const RESERVED = [
  'Content-Type',
  'content-length',
  'Host',
  'User-Agent',
  'X-Webhook-Signature',
  'x-webhook-delivery',
  'X-WEBHOOK-EVENT',
];

verifies(
  '2.11/headers-reserved-rejected',
  'service headers cannot be configured',
  (c) =>
    expectRefused(
      c,
      RESERVED.map(
        (name) =>
          [
            `header ${name}`,
            { url: HOOK, headers: { [name]: 'conformance' } },
            `config.headers.${name}`,
          ] as const,
      ),
    ),
  refuses(RESERVED.length),
);

verifies(
  '2.11/events-allowed-names',
  'unknown event names and an empty list get -32602',
  (c) =>
    expectRefused(c, [
      ['events ["task.done"]', { url: HOOK, events: ['task.done'] }, 'config.events[0]'],
      [
        'events ["task.completed", "TASK.FAILED"]',
        { url: HOOK, events: ['task.completed', 'TASK.FAILED'] },
        'config.events[1]',
      ],
      ['events []', { url: HOOK, events: [] }, 'config.events'],
    ]),
  refuses(3),
);

verifies(
  '2.11/events-allowed-names',
  'duplicate event names are listed once',
  async (c) => {
    const taskId = await finishedTaskId(c);
    const events = ['task.completed', 'task.failed', 'task.completed'];
    const set = requireResult(c, 'set with duplicates', await setConfig(c, { url: HOOK, events }, taskId));
    const once = is.where('["task.completed", "task.failed"] in any order, each once (C-18)', (a) => {
      return Array.isArray(a) && a.length === 2 && a.includes('task.completed') && a.includes('task.failed');
    });
    c.check('set result.events', set.events, once);
    const config = (await getConfig(c, taskId)).result?.config;
    c.check('get result.config.events', isObject(config) ? config.events : config, once);
  },
  { ...together, cost: { requests: 3, turns: 1 } },
);

const OUT_OF_RANGE: ReadonlyArray<[string, unknown]> = [
  ['maxRetries', -1],
  ['maxRetries', 11],
  ['maxRetries', 1.5],
  ['maxRetries', '3'],
  ['backoffMultiplier', 0.5],
  ['backoffMultiplier', 11],
  ['initialDelay', 0],
  ['initialDelay', -1],
  ['initialDelay', 3601],
];

verifies(
  '2.11/retry-policy-bounds',
  'retryPolicy values outside the C-19 ranges get -32602',
  (c) =>
    expectRefused(
      c,
      OUT_OF_RANGE.map(
        ([key, value]) =>
          [
            `retryPolicy.${key} ${JSON.stringify(value)}`,
            { url: HOOK, retryPolicy: { [key]: value } },
            `config.retryPolicy.${key}`,
          ] as const,
      ),
    ),
  refuses(OUT_OF_RANGE.length),
);

verifies(
  '2.11/retry-policy-bounds',
  'retryPolicy values at the C-19 bounds are accepted',
  async (c) => {
    const taskId = await finishedTaskId(c);
    const bounds = [
      { maxRetries: 0, backoffMultiplier: 1, initialDelay: 3600 },
      { maxRetries: 10, backoffMultiplier: 10, initialDelay: 0.5 },
    ];
    for (const retryPolicy of bounds) {
      const { ex, result } = await setConfig(c, { url: HOOK, retryPolicy }, taskId);
      const label = `set with retryPolicy ${JSON.stringify(retryPolicy)}`;
      c.check(label, result === undefined ? refusal(ex) : 'a result', 'a result');
    }
  },
  { ...together, cost: { requests: 3, turns: 1 } },
);

verifies(
  '2.11/secret-non-empty',
  'an empty or non-string secret gets -32602',
  (c) =>
    expectRefused(c, [
      ['secret ""', { url: HOOK, secret: '' }, 'config.secret'],
      ['secret 42', { url: HOOK, secret: 42 }, 'config.secret'],
    ]),
  refuses(2),
);

verifies(
  '2.11/task-scoped-unknown-task',
  'a set for an unknown taskId gets -32000',
  async (c) => {
    const taskId = randomUUID();
    const { ex, result } = await setConfig(c, { url: HOOK }, taskId);
    c.check('result', result, is.absent());
    c.check('error.code', errorOf(ex)?.code, ERROR_CODES.TASK_NOT_FOUND);
    const data = errorOf(ex)?.data;
    c.check('error.data.taskId', isObject(data) ? data.taskId : data, taskId);
  },
  together,
);
