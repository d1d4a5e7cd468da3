// Spec 5 and C-37: either header form alone is served, the Bearer scheme is case-insensitive, both
// forms sent must both be valid, and a credential never opens another agent. The run gives one or
// both credentials; the other form is tried with the same value (usableCredentials).
import { randomUUID } from 'node:crypto';
import { suiteFile, verifies, type CheckContext } from '../support/index.ts';
import { answer } from '../support/calls.ts';
import {
  onlyApiKey,
  onlyBearer,
  usableCredentials,
  wrongBearerHeader,
  wrongKeyHeader,
  type Headers,
} from '../support/credentials.ts';
import { answerError } from '../support/errors.ts';
import { messageParams, textPart } from '../support/messages.ts';
import { CARD } from '../support/rpc.ts';
import { keptUnlessFault } from '../support/made-once.ts';
import { declareSampleTask, sampleTaskId } from '../support/samples.ts';
import { isObject } from '../../schemas/json.ts';

suiteFile({
  cost: { requests: 1, turns: 0 },
});

const TASK_SAMPLE = declareSampleTask();

/** Three methods of different kinds: the card first (the cheapest), a task creation and a task read. */
const SERVED_CALLS: ReadonlyArray<{ method: string; params: (c: CheckContext) => Promise<unknown> }> = [
  { method: CARD, params: async () => ({}) },
  {
    method: 'message/send',
    params: async () => messageParams([textPart('conformance: header form')]),
  },
  { method: 'tasks/get', params: async (c) => ({ taskId: await sampleTaskId(c) }) },
];

const answers = new Map<string, ReturnType<typeof answer>>();

/**
 * The answer to `method` with exactly these headers, sent once per file: the checks that need the same
 * call with the same credentials (served alone, the control before a refusal) read one answer.
 */
async function answerWith(c: CheckContext, method: string, headers: Headers, params: () => Promise<unknown>) {
  const key = `${method} ${JSON.stringify(headers)}`;
  const a = keptUnlessFault(answers, key, () =>
    params().then((p) => answer(c.client, method, p, { headers })),
  );
  if (a.shared) c.info(`${method} with these headers: the answer another check of this file had`, headers);
  return a.answer;
}

async function checkServed(c: CheckContext, headers: Headers, label: string, served = true): Promise<void> {
  await c.each(`each kind of method with ${label}`, SERVED_CALLS, async ({ method, params }) => {
    const a = await answerWith(c, method, headers, () => params(c));
    c.check(`${method} with ${label}: served (a result came back)`, a.served, served);
  });
}

/** A check that sends the three calls with one set of headers (the card first). */
const SENDS_CALLS = {
  samples: [TASK_SAMPLE],
  property: { requests: 1, turns: 1, cases: SERVED_CALLS.length },
};

async function credential(c: CheckContext, form: 'apiKey' | 'bearer'): Promise<string> {
  const creds = await usableCredentials(c);
  const value = creds[form];
  if (value === undefined)
    c.notExercised(
      `no credential usable as ${form === 'apiKey' ? 'x-api-key' : 'Bearer token'}: ${creds.notes.join('; ')}`,
    );
  return value!;
}

verifies(
  '5/api-key-accepted',
  'a valid x-api-key alone is served',
  async (c) => {
    await checkServed(c, onlyApiKey(await credential(c, 'apiKey')), 'only x-api-key');
  },
  { concurrent: true, ...SENDS_CALLS },
);

verifies(
  '5/bearer-accepted',
  'a valid Authorization: Bearer token alone is served',
  async (c) => {
    await checkServed(c, onlyBearer(await credential(c, 'bearer')), 'only Authorization: Bearer');
  },
  { concurrent: true, ...SENDS_CALLS },
);

/** All lower case first: the spelling a client that lower-cases its headers sends. */
const SCHEMES = ['bearer', 'BEARER', 'bEaReR'];

verifies(
  '5/bearer-scheme-case-insensitive',
  'the scheme spelled bearer, BEARER or bEaReR is served',
  async (c) => {
    const token = await credential(c, 'bearer');
    await c.each('each spelling of the scheme', SCHEMES, async (scheme) => {
      const a = await answer(c.client, CARD, {}, { headers: onlyBearer(token, scheme) });
      c.check(`${CARD} with Authorization: ${scheme} <token>: served`, a.served, true);
    });
  },
  { concurrent: true, property: { requests: 1, turns: 0, cases: 3 } },
);

/**
 * A refusal of a valid credential beside a wrong one means something only if the valid one alone is
 * served: against a target that serves nothing (or answers garbage) the refusal is not exercised.
 */
async function requireServedAlone(c: CheckContext, headers: Headers, label: string): Promise<void> {
  const a = await answerWith(c, CARD, headers, async () => ({}));
  if (!a.served)
    c.notExercised(`${CARD} with ${label} alone is not served, so a refusal beside it shows nothing`);
}

verifies(
  '5/both-forms-must-be-valid',
  'a valid x-api-key beside a wrong Bearer token is refused',
  async (c) => {
    const key = await credential(c, 'apiKey');
    await requireServedAlone(c, onlyApiKey(key), 'the valid x-api-key');
    await checkServed(
      c,
      { 'x-api-key': key, authorization: wrongBearerHeader() },
      'a valid key and a wrong token',
      false,
    );
  },
  { concurrent: true, ...SENDS_CALLS },
);

verifies(
  '5/both-forms-must-be-valid',
  'a wrong x-api-key beside a valid Bearer token is refused',
  async (c) => {
    const token = await credential(c, 'bearer');
    await requireServedAlone(c, onlyBearer(token), 'the valid Bearer token');
    await checkServed(
      c,
      { 'x-api-key': wrongKeyHeader(), authorization: `Bearer ${token}` },
      'a wrong key and a valid token',
      false,
    );
  },
  { concurrent: true, ...SENDS_CALLS },
);

verifies(
  '5/both-forms-must-be-valid',
  'a valid x-api-key beside a valid Bearer token is served',
  async (c) => {
    const key = await credential(c, 'apiKey');
    const token = await credential(c, 'bearer');
    await checkServed(c, { 'x-api-key': key, authorization: `Bearer ${token}` }, 'both forms valid');
  },
  { concurrent: true, ...SENDS_CALLS },
);

verifies(
  '5/credentials-per-agent',
  "the run's credential does not open a made-up agent id",
  async (c) => {
    const creds = await usableCredentials(c);
    const forms: Array<[string, Headers]> = [];
    if (creds.apiKey !== undefined) forms.push(['x-api-key', onlyApiKey(creds.apiKey)]);
    if (creds.bearer !== undefined) forms.push(['Bearer', onlyBearer(creds.bearer)]);
    if (forms.length === 0) c.notExercised('the run has no credential');
    // Only a made-up id is knowable from outside: the card names no other agent. C-23 (checked before
    // credentials) answers 404 -32011, a server that knows the id answers 401: both are refusals.
    const other = `a2a-conformance-other-agent-${randomUUID().slice(0, 8)}`;
    const observed: unknown[] = [];
    const calls = forms.flatMap(([form, headers]) =>
      [
        { method: CARD, params: {} },
        { method: 'message/send', params: messageParams([textPart('conformance: other agent')]) },
      ].map((call) => ({ form, headers, call })),
    );
    await c.each(
      'each credential form and method on a made-up agent id',
      calls,
      async ({ form, headers, call }) => {
        // The control (the same card call on the run's agent) is the answer 5/api-key-accepted reads.
        const control = await answerWith(c, CARD, headers, async () => ({}));
        c.require(`${CARD} on the run's agent with ${form}: served`, control.served, true);
        const a = await answer(c.client, call.method, call.params, { headers, agentId: other });
        c.check(`${call.method} on agent ${other} with ${form}: served`, a.served, false);
        observed.push({ form, method: call.method, status: a.status, code: answerError(a)?.code });
      },
    );
    c.info(
      'a made-up agent id shows that a valid credential opens no arbitrary agent; that a key of agent A never opens an existing agent B needs two agents the run does not know',
      observed.filter((o) => isObject(o)),
    );
  },
  { concurrent: true, property: { requests: 1, turns: 0, cases: 4 } },
);
