// Spec 2.12 (set result) and 2.13 (get result) with rulings C-17, C-20, C-29 and C-39, on task-level
// configurations of finished tasks (nothing is ever delivered): the fields each result carries, the
// effective events and retryPolicy, lastUsed null before any delivery, secret and headers never returned.
import { randomBytes } from 'node:crypto';
import { WEBHOOK_EVENTS } from '../../schemas/error-codes.ts';
import { validate } from '../../schemas/registry.ts';
import { isObject } from '../../schemas/json.ts';
import { is, suiteFile, verifies, type CheckContext } from '../support/index.ts';
import { DEFAULT_POLICY } from '../support/deliveries.ts';
import { sendText } from '../support/messages.ts';
import { resultOf } from '../support/rpc.ts';
import { sharedSample } from '../support/samples.ts';
import { isoTimestamp } from '../support/timestamps.ts';
import { getConfig, requireResult, setConfig, type SetOutcome } from '../support/webhooks.ts';

suiteFile({
  cost: { requests: 0, turns: 0 },
});

// Each check works on its own tasks (task-level scopes): they run side by side.
const together = { concurrent: true };

const HOOK = 'https://webhook.a2a-conformance.invalid/results';
const EVENTS = ['task.completed', 'task.failed'];
const ALL_FIVE = is.where(`the five events ${JSON.stringify(WEBHOOK_EVENTS)}, any order`, (a) => {
  return Array.isArray(a) && a.length === 5 && WEBHOOK_EVENTS.every((e) => a.includes(e));
});

async function plainTaskId(c: CheckContext): Promise<string | undefined> {
  const ex = await sendText(c, 'webhook results scope');
  const id = resultOf(ex)?.id;
  return typeof id === 'string' ? id : undefined;
}

interface Pair {
  taskId: string | undefined;
  config: Record<string, unknown>;
  set: SetOutcome | undefined;
  get: SetOutcome | undefined;
}

/** A set on a fresh finished task, then a get of the same scope. */
async function setThenGet(c: CheckContext, config: Record<string, unknown>): Promise<Pair> {
  const taskId = await plainTaskId(c);
  if (taskId === undefined) return { taskId, config, set: undefined, get: undefined };
  const set = await setConfig(c, config, taskId);
  return { taskId, config, set, get: await getConfig(c, taskId) };
}

// The secret and header value are fresh per run, so finding one in an answer can only be a leak.
const withSecret = sharedSample(
  'set and get with events, secret and headers',
  { requests: 3, turns: 1 },
  (c) =>
    setThenGet(c, {
      url: HOOK,
      events: EVENTS,
      secret: randomBytes(18).toString('base64url'),
      headers: { 'X-Conformance-Probe': randomBytes(12).toString('hex') },
    }),
);
const bare = sharedSample('set and get of a url only', { requests: 3, turns: 1 }, (c) =>
  setThenGet(c, { url: HOOK }),
);

function requirePair(
  c: CheckContext,
  pair: Pair,
): { set: Record<string, unknown>; get: Record<string, unknown> } {
  c.require('a finished task to scope the set', pair.taskId, is.nonEmptyString());
  return { set: requireResult(c, 'set result', pair.set!), get: requireResult(c, 'get result', pair.get!) };
}

function storedConfig(c: CheckContext, get: Record<string, unknown>): Record<string, unknown> {
  c.require('get result.config', get.config, is.type('object'));
  return get.config as Record<string, unknown>;
}

verifies(
  '2.12/set-configured',
  'a stored configuration answers configured: true',
  async (c) => {
    const { set } = requirePair(c, await withSecret(c));
    c.check('result.configured', set.configured, true);
    const schema = validate('push-config-set-result', set);
    c.check('set result against schema push-config-set-result', schema.valid ? [] : schema.errors, []);
  },
  together,
);

verifies(
  '2.12/set-config-id',
  'the set result carries a string configId',
  async (c) => {
    const { set } = requirePair(c, await withSecret(c));
    c.check('result.configId', set.configId, is.nonEmptyString());
  },
  together,
);

verifies(
  '2.12/set-url',
  'the set result url equals the configured url',
  async (c) => {
    const { set } = requirePair(c, await withSecret(c));
    c.check('result.url', set.url, HOOK);
  },
  together,
);

verifies(
  '2.12/set-events',
  'the set result lists the subscribed events',
  async (c) => {
    const { set } = requirePair(c, await withSecret(c));
    c.check(
      'result.events (events given)',
      set.events,
      is.where(`${JSON.stringify(EVENTS)} in any order`, (a) => {
        return Array.isArray(a) && a.length === EVENTS.length && EVENTS.every((e) => a.includes(e));
      }),
    );
    const { set: all } = requirePair(c, await bare(c));
    c.check('result.events (no events given: all five, C-17)', all.events, ALL_FIVE);
  },
  together,
);

verifies(
  '2.13/get-unconfigured',
  'a scope without configuration: config, configId null, active false',
  async (c) => {
    const taskId = await plainTaskId(c);
    c.require('a finished task without configuration', taskId, is.nonEmptyString());
    const result = requireResult(c, 'get result', await getConfig(c, taskId));
    c.check('result.config', result.config, null);
    c.check('result.configId', result.configId, null);
    c.check('result.active', result.active, false);
  },
  { ...together, cost: { requests: 2, turns: 1 } },
);

verifies(
  '2.13/get-config-url',
  'get returns the configured url',
  async (c) => {
    const { get } = requirePair(c, await withSecret(c));
    c.check('result.config.url', storedConfig(c, get).url, HOOK);
  },
  together,
);

verifies(
  '2.13/get-config-events',
  'get returns the subscribed events',
  async (c) => {
    const { get } = requirePair(c, await withSecret(c));
    const events = storedConfig(c, get).events;
    c.check('result.config.events', events, is.type('array'));
    c.check(
      'result.config.events are the subscribed names',
      [...(Array.isArray(events) ? events : [])].sort(),
      [...EVENTS].sort(),
    );
  },
  together,
);

verifies(
  '2.13/get-config-retry-policy',
  'get returns config.retryPolicy as an object',
  async (c) => {
    const { get } = requirePair(c, await withSecret(c));
    c.check('result.config.retryPolicy', storedConfig(c, get).retryPolicy, is.type('object'));
  },
  together,
);

verifies(
  '2.13/get-effective-values',
  'get fills in all five events and the 3 / 2 / 1 defaults',
  async (c) => {
    const { get } = requirePair(c, await bare(c));
    const config = storedConfig(c, get);
    c.check('result.config.events (none given)', config.events, ALL_FIVE);
    // Members beyond the three are tolerated (C-36).
    c.check(
      'result.config.retryPolicy (none given)',
      config.retryPolicy,
      is.objectContaining(DEFAULT_POLICY),
    );
    const partial = await setThenGet(c, { url: HOOK, retryPolicy: { maxRetries: 5 } });
    const got = storedConfig(c, requirePair(c, partial).get);
    const expected = { ...DEFAULT_POLICY, maxRetries: 5 };
    c.check('result.config.retryPolicy (maxRetries 5 given)', got.retryPolicy, is.objectContaining(expected));
  },
  { ...together, cost: { requests: 3, turns: 1 } },
);

verifies(
  '2.13/get-config-created-at',
  'get returns config.createdAt as an RFC 3339 timestamp',
  async (c) => {
    const { get } = requirePair(c, await withSecret(c));
    c.check('result.config.createdAt', storedConfig(c, get).createdAt, isoTimestamp);
  },
  together,
);

verifies(
  '2.13/get-last-used-null-before-delivery',
  'lastUsed is null before any delivery',
  async (c) => {
    const { get } = requirePair(c, await withSecret(c));
    c.check(
      'result.config.lastUsed (task finished before the set: nothing delivered)',
      storedConfig(c, get).lastUsed,
      null,
    );
  },
  together,
);

verifies(
  '2.13/get-config-id',
  'get returns the configId of the set',
  async (c) => {
    const { set, get } = requirePair(c, await withSecret(c));
    c.check('get result.configId', get.configId, set.configId);
  },
  together,
);

verifies(
  '2.13/get-active',
  'get of a configured scope answers active: true',
  async (c) => {
    const { get } = requirePair(c, await withSecret(c));
    c.check('result.active', get.active, true);
    const schema = validate('push-config-get-result', get);
    c.check('get result against schema push-config-get-result', schema.valid ? [] : schema.errors, []);
  },
  together,
);

/** Every object key at any depth, as dotted paths. */
function keyPaths(value: unknown, at = 'result'): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => keyPaths(v, `${at}[${i}]`));
  if (!isObject(value)) return [];
  return Object.entries(value).flatMap(([k, v]) => [`${at}.${k}`, ...keyPaths(v, `${at}.${k}`)]);
}

verifies(
  '2.13/get-omits-secret-headers',
  'get never returns the secret or the headers',
  async (c) => {
    const pair = await withSecret(c);
    const { get } = requirePair(c, pair);
    const leaked = keyPaths(get).filter((p) => /\.(secret|headers)$/i.test(p));
    c.check('fields named secret or headers, at any depth', leaked, []);
    // The values were made up for this check (no secrets of the user, so never redacted): any
    // occurrence in the answer, under any name, is a leak.
    const body = pair.get!.ex.response.body ?? '';
    const configured = [pair.config.secret, ...Object.values(pair.config.headers ?? {})].map(String);
    c.check(
      'the configured secret or header value found in the get response body',
      configured.filter((v) => body.includes(v)),
      [],
    );
  },
  together,
);
