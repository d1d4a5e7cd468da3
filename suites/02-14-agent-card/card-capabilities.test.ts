// Spec 2.14 with C-30 and C-41: the card's claims match behaviour. Listed methods are served, unlisted
// ones answer -32601; streaming true means message/stream really streams (a broken stream is false
// advertising), streaming false means -32601; the same for webhooks and the pushNotificationConfig pair.
import { randomUUID } from 'node:crypto';
import { ERROR_CODES, is, METHODS, SIDE_BY_SIDE, suiteFile, verifies } from '../support/index.ts';
import type { CheckContext } from '../support/index.ts';
import { answer, methodCalls } from '../support/calls.ts';
import { fetchCard, listedMethods, pathValue } from '../support/card.ts';
import { answerError } from '../support/errors.ts';
import { messageParams, textPart } from '../support/messages.ts';
import { resultOf } from '../support/rpc.ts';
import { declareSampleTask, sampleTaskId, sharedSample } from '../support/samples.ts';
import { GET, SET } from '../support/webhooks.ts';
import { isObject } from '../../schemas/json.ts';

suiteFile({
  cost: { requests: 0, turns: 0 },
  // Each check sends its own calls; the one that sets and reads back a webhook of the shared task
  // runs apart (concurrent: false below).
  concurrent: true,
});

const CARD_SAMPLE = 'the extended card';
const TASK_SAMPLE = declareSampleTask();
/** The card, fetched once for the file: every check reads the same claims. */
const sharedCard = sharedSample(CARD_SAMPLE, { requests: 1, turns: 0 }, (c) => fetchCard(c));
const NOT_FOUND = ERROR_CODES.METHOD_NOT_FOUND;

async function cardWithCapabilities(c: CheckContext) {
  const { card } = await sharedCard(c);
  if (!isObject(card?.capabilities))
    c.notExercised('the card carries no capabilities (see 4.8/capabilities-by-default)');
  return card!;
}

/**
 * The sample call of each method, in methodCalls' order (message/send first); the file's task is made
 * only when a call that names one is sent.
 */
function calls(c: CheckContext, methods: readonly string[]) {
  const order = methodCalls('', '', methods).map((k) => k.method);
  return order
    .filter((m) => methods.includes(m))
    .map((method) => ({
      method,
      params: async () => {
        const hook = (await c.webhooks()).newUrl('card').url;
        const taskId = TASK_METHODS.has(method) ? await sampleTaskId(c) : randomUUID();
        return methodCalls(taskId, hook, methods).find((k) => k.method === method)!.params;
      },
    }));
}

/** The methods whose sample call names the file's task. */
const TASK_METHODS = new Set<string>(METHODS.filter((m) => m.startsWith('tasks/')));

verifies(
  '2.14/supported-methods-served',
  'every method the card lists is served (no -32601)',
  async (c) => {
    const listed = listedMethods(await cardWithCapabilities(c));
    c.require('capabilities.supportedMethods', listed, is.type('array'));
    await c.each(
      'each listed method',
      calls(c, listed!),
      async ({ method, params }) => {
        const a = await answer(c.client, method, await params());
        // Served: a JSON-RPC answer, a result or an error other than -32601 (invalid params of the
        // sample call are fine); a redirect, an HTML page or an empty body is not serving the method.
        const error = answerError(a);
        const unanswered = `no JSON-RPC response (HTTP ${a.status})`;
        c.check(
          `${method}: answer`,
          a.served ? 'result' : error !== undefined ? error.code : unanswered,
          is.where(
            'a result, or an error code other than -32601',
            (v) => v !== NOT_FOUND && v !== unanswered,
          ),
        );
      },
      SIDE_BY_SIDE,
    );
  },
  {
    cost: { requests: 1, turns: 1 },
    samples: [CARD_SAMPLE, TASK_SAMPLE],
    property: { requests: 1, turns: 0, cases: METHODS.length },
  },
);

verifies(
  '2.14/supported-methods-served',
  'every section 4 method the card leaves out answers -32601',
  async (c) => {
    const listed = listedMethods(await cardWithCapabilities(c));
    c.require('capabilities.supportedMethods', listed, is.type('array'));
    const absent = METHODS.filter((m) => !listed!.includes(m));
    if (absent.length === 0) c.notApplicable('the card lists all eight methods of section 4');
    await c.each(
      'each method the card leaves out',
      calls(c, absent),
      async ({ method, params }) => {
        const a = await answer(c.client, method, await params());
        c.check(`${method} (not listed): error.code`, answerError(a)?.code, NOT_FOUND);
      },
      SIDE_BY_SIDE,
    );
  },
  {
    cost: { requests: 1, turns: 0 },
    samples: [CARD_SAMPLE, TASK_SAMPLE],
    property: { requests: 1, turns: 0, cases: METHODS.length },
  },
);

/** C-41: the flag and the list agree (a card without a list says nothing about it). */
function checkListed(c: CheckContext, card: unknown, methods: readonly string[], expected: boolean): void {
  const listed = listedMethods(isObject(card) ? card : undefined);
  if (listed === undefined) return;
  for (const m of methods) c.check(`capabilities.supportedMethods lists ${m}`, listed.includes(m), expected);
}

verifies(
  '2.14/capability-flags-match-methods',
  'streaming true: message/stream streams to a final event',
  async (c) => {
    const card = await cardWithCapabilities(c);
    if (pathValue(card, 'capabilities.streaming') !== true)
      c.notApplicable('the card does not claim streaming: true');
    checkListed(c, card, ['message/stream', 'tasks/resubscribe'], true);
    const s = await c.stream('message/stream', messageParams([textPart('conformance: streaming claim')]), {
      closeOnFinal: true,
      totalMs: 10_000,
    });
    const t = await s.done;
    c.check('message/stream: HTTP status', t.status, 200);
    c.check('message/stream: an SSE response (text/event-stream)', t.isEventStream, true);
    const final = t.finalIndex === null ? undefined : t.events[t.finalIndex];
    c.check('message/stream: a final event (result.final true)', final?.isFinal, true);
    c.check('message/stream: the final event is a result, not an error', final?.isError, false);
  },
  { cost: { requests: 1, turns: 1 }, samples: [CARD_SAMPLE] },
);

verifies(
  '2.14/capability-flags-match-methods',
  'streaming false: message/stream answers -32601',
  async (c) => {
    const card = await cardWithCapabilities(c);
    if (pathValue(card, 'capabilities.streaming') !== false)
      c.notApplicable('the card does not claim streaming: false');
    checkListed(c, card, ['message/stream'], false);
    const a = await answer(
      c.client,
      'message/stream',
      messageParams([textPart('conformance: no streaming')]),
    );
    c.check('message/stream: error.code', answerError(a)?.code, NOT_FOUND);
  },
  { cost: { requests: 1, turns: 0 }, samples: [CARD_SAMPLE] },
);

verifies(
  '2.14/capability-flags-match-methods',
  'webhooks true: set and get of a task webhook work',
  async (c) => {
    const card = await cardWithCapabilities(c);
    if (pathValue(card, 'capabilities.webhooks') !== true)
      c.notApplicable('the card does not claim webhooks: true');
    checkListed(c, card, [SET, GET], true);
    const taskId = await sampleTaskId(c);
    const url = (await c.webhooks()).newUrl('claim').url;
    const set = resultOf(await c.rpc(SET, { taskId, config: { url } }));
    c.check(`${SET}: result.configured`, set?.configured, true);
    const got = resultOf(await c.rpc(GET, { taskId }));
    c.check(`${GET}: result.config.url`, pathValue(got, 'config.url'), url);
  },
  // Not beside the listed-methods check: its set of the same shared task could come between this
  // set and get, and the get would read the other URL.
  { cost: { requests: 2, turns: 0 }, samples: [CARD_SAMPLE, TASK_SAMPLE], concurrent: false },
);

verifies(
  '2.14/capability-flags-match-methods',
  'webhooks false: both pushNotificationConfig methods answer -32601',
  async (c) => {
    const card = await cardWithCapabilities(c);
    if (pathValue(card, 'capabilities.webhooks') !== false)
      c.notApplicable('the card does not claim webhooks: false');
    checkListed(c, card, [SET, GET], false);
    const taskId = await sampleTaskId(c);
    const url = (await c.webhooks()).newUrl('no-claim').url;
    c.check(
      `${SET}: error.code`,
      answerError(await answer(c.client, SET, { taskId, config: { url } }))?.code,
      NOT_FOUND,
    );
    c.check(`${GET}: error.code`, answerError(await answer(c.client, GET, { taskId }))?.code, NOT_FOUND);
  },
  { cost: { requests: 2, turns: 0 }, samples: [CARD_SAMPLE, TASK_SAMPLE] },
);
