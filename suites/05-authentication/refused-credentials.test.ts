// Spec 5: every one of the eight methods refuses a missing credential, a wrong x-api-key and a wrong
// Bearer token (C-01: no result and nothing performed MUST; HTTP 401, WWW-Authenticate and -32010
// with data.reason SHOULD). What a refused call would have done is looked for afterwards.
import { randomUUID } from 'node:crypto';
import { ERROR_CODES, is, SIDE_BY_SIDE, suiteFile, verifies, type CheckContext } from '../support/index.ts';
import { answer, header, methodCalls, type Answer } from '../support/calls.ts';
import { listedMethods, pathValue } from '../support/card.ts';
import { REFUSED_CASES, type RefusedCase } from '../support/credentials.ts';
import { requireDirectives } from '../support/directives.ts';
import { answerError } from '../support/errors.ts';
import { startWorkingTask } from '../support/live-tasks.ts';
import { messageParams, sendText, textPart } from '../support/messages.ts';
import { errorOf, requestId, resultOf } from '../support/rpc.ts';
import { keptUnlessFault } from '../support/made-once.ts';
import { declareSample, declareSampleTask, sampleTaskId, sharedSample } from '../support/samples.ts';
import { getTask, stateOf } from '../support/tasks.ts';
import { SET } from '../support/webhooks.ts';
import { isObject } from '../../schemas/json.ts';

suiteFile({
  cost: { requests: 0, turns: 0 },
});

const REFUSED_SEND = declareSample('message/send refused without a credential', { requests: 1, turns: 0 });
const TASK_SAMPLE = declareSampleTask();
const CLIENT_IDS = 'whether the agent gives a task the id the client chose';

interface Refusal {
  method: string;
  rc: RefusedCase;
  id: string;
  a: Answer;
}

/** The eight methods with the three refused credentials, message/send without a credential first. */
const CASES = methodCalls('', '').flatMap(({ method }) => REFUSED_CASES.map((rc) => ({ method, rc })));
/** The methods whose call names the file's task. */
const TASK_METHODS = new Set(
  methodCalls('', '').flatMap((k) => (k.method.startsWith('tasks/') ? [k.method] : [])),
);

const refusals = new Map<string, Promise<Refusal>>();

/**
 * One method called with one refused credential, sent once per file and read by every check that
 * grades that answer (the exchange is the evidence of the first one). The file's task is made only
 * when a call that names one is sent.
 */
function refusal(c: CheckContext, method: string, rc: RefusedCase): Promise<Refusal> {
  const key = `${method} ${rc.name}`;
  return keptUnlessFault(refusals, key, async () => {
    const hook = (await c.webhooks()).newUrl('refused').url;
    const taskId = TASK_METHODS.has(method) ? await sampleTaskId(c) : randomUUID();
    const { params } = methodCalls(taskId, hook).find((k) => k.method === method)!;
    const id = requestId();
    return { method, rc, id, a: await answer(c.client, method, params, { headers: rc.headers, id }) };
  }).answer;
}

/** `run` on each refusal of the reasons given (an enumerated property: a paced run's first pass reads one). */
async function eachRefusal(
  c: CheckContext,
  reasons: ReadonlyArray<RefusedCase['reason']>,
  run: (r: Refusal) => void,
): Promise<void> {
  const cases = CASES.filter((k) => reasons.includes(k.rc.reason));
  await c.each(
    'each method with each refused credential',
    cases,
    async ({ method, rc }) => {
      run(await refusal(c, method, rc));
    },
    SIDE_BY_SIDE,
  );
}

async function checkRefused(c: CheckContext, reason: RefusedCase['reason']): Promise<void> {
  await eachRefusal(c, [reason], ({ method, rc, a }) => {
    c.check(`${method} with ${rc.name}: served (a result came back)`, a.served, false);
  });
}

const casesOf = (reason: RefusedCase['reason']) => CASES.filter((k) => k.rc.reason === reason).length;

verifies(
  '5/missing-credential-rejected',
  'each of the eight methods without a credential gets no result',
  (c) => checkRefused(c, 'missing'),
  {
    concurrent: true,
    samples: [REFUSED_SEND, TASK_SAMPLE],
    property: { requests: 1, turns: 0, cases: casesOf('missing') },
  },
);

verifies(
  '5/invalid-credential-rejected',
  'each of the eight methods with a wrong key or token gets no result',
  (c) => checkRefused(c, 'invalid'),
  {
    concurrent: true,
    cost: { requests: 1, turns: 0 },
    samples: [TASK_SAMPLE],
    property: { requests: 1, turns: 0, cases: casesOf('invalid') },
  },
);

verifies(
  '5/unauthorized-http-401',
  'each refusal is 401 with WWW-Authenticate and -32010 data.reason',
  async (c) => {
    await eachRefusal(c, ['missing', 'invalid'], ({ method, rc, id, a }) => {
      const label = `${method} with ${rc.name}`;
      c.check(`${label}: HTTP status`, a.status, 401);
      c.check(`${label}: WWW-Authenticate`, header(a.ex, 'www-authenticate'), is.nonEmptyString());
      const error = answerError(a);
      c.check(`${label}: error.code`, error?.code, ERROR_CODES.UNAUTHORIZED);
      c.check(
        `${label}: error.data.reason`,
        isObject(error?.data) ? error.data.reason : undefined,
        rc.reason,
      );
      c.check(`${label}: id`, isObject(a.json) ? a.json.id : undefined, is.oneOf([id, null]));
    });
  },
  {
    concurrent: true,
    samples: [REFUSED_SEND, TASK_SAMPLE],
    property: { requests: 1, turns: 0, cases: CASES.length },
  },
);

/** Whether the target gives a task the id the client chose (C-16); else the refusal check proves little. */
const honoursClientIds = sharedSample(CLIENT_IDS, { requests: 1, turns: 1 }, async (c) => {
  const id = randomUUID();
  const ex = await sendText(c, 'conformance: client id', { id });
  return resultOf(ex)?.id === id;
});

async function checkNoTaskCreated(c: CheckContext, cases: readonly RefusedCase[]): Promise<void> {
  if (!(await honoursClientIds(c))) {
    c.notExercised(
      'the target does not give a task the id the client chose (params.id, C-16), so a task created by a refused call could not be found',
    );
  }
  const calls = ['message/send', 'message/stream'].flatMap((method) => cases.map((rc) => ({ method, rc })));
  await c.each(
    'message/send and message/stream with each refused credential',
    calls,
    async ({ method, rc }) => {
      const id = randomUUID();
      await answer(c.client, method, messageParams([textPart('conformance: refused')], { id }), {
        headers: rc.headers,
      });
      const ex = await c.rpc('tasks/get', { taskId: id });
      c.check(
        `${method} with ${rc.name}, then tasks/get of its id: error.code`,
        errorOf(ex)?.code,
        ERROR_CODES.TASK_NOT_FOUND,
      );
    },
    SIDE_BY_SIDE,
  );
}

/** A refused call and the tasks/get of its id, per case; the client-id probe is the file's sample. */
const noTaskCost = (reason: RefusedCase['reason']) => ({
  concurrent: true,
  cost: { requests: 2, turns: 0 },
  samples: [CLIENT_IDS],
  property: { requests: 2, turns: 0, cases: 2 * REFUSED_CASES.filter((rc) => rc.reason === reason).length },
});

verifies(
  '5/missing-credential-rejected',
  'message/send and message/stream without a credential create no task',
  async (c) => {
    await checkNoTaskCreated(
      c,
      REFUSED_CASES.filter((rc) => rc.reason === 'missing'),
    );
  },
  noTaskCost('missing'),
);

verifies(
  '5/invalid-credential-rejected',
  'message/send and message/stream with a wrong credential create no task',
  async (c) => {
    await checkNoTaskCreated(
      c,
      REFUSED_CASES.filter((rc) => rc.reason === 'invalid'),
    );
  },
  noTaskCost('invalid'),
);

async function checkNoWebhookConfigured(c: CheckContext, cases: readonly RefusedCase[]): Promise<void> {
  const listed = listedMethods(c.card ?? undefined);
  if (c.card !== null && pathValue(c.card, 'capabilities.webhooks') === false)
    c.notApplicable('the card says webhooks: false');
  if (listed !== undefined && !listed.includes(SET)) c.notApplicable(`the card does not list ${SET}`);
  const created = resultOf(await sendText(c, 'conformance: webhook target'));
  c.require('message/send result id', typeof created?.id, 'string');
  const taskId = created!.id as string;
  const hooks = await c.webhooks();
  await c.each('each refused credential', cases, async (rc) => {
    await answer(
      c.client,
      SET,
      { taskId, config: { url: hooks.newUrl('refused-set').url } },
      { headers: rc.headers },
    );
  });
  const ex = await c.rpc('tasks/pushNotificationConfig/get', { taskId });
  const result = resultOf(ex);
  c.check(
    `tasks/pushNotificationConfig/get of ${taskId} after refused sets: result.config`,
    result?.config,
    null,
  );
}

verifies(
  '5/missing-credential-rejected',
  'a set without a credential configures no webhook',
  async (c) => {
    await checkNoWebhookConfigured(
      c,
      REFUSED_CASES.filter((rc) => rc.reason === 'missing'),
    );
  },
  { concurrent: true, cost: { requests: 3, turns: 1 } },
);

verifies(
  '5/invalid-credential-rejected',
  'a set with a wrong credential configures no webhook',
  async (c) => {
    await checkNoWebhookConfigured(
      c,
      REFUSED_CASES.filter((rc) => rc.reason === 'invalid'),
    );
  },
  { concurrent: true, cost: { requests: 3, turns: 1 }, property: { requests: 1, turns: 0, cases: 2 } },
);

async function checkCancelNotApplied(c: CheckContext, cases: readonly RefusedCase[]): Promise<void> {
  await requireDirectives(c, 'a task that stays working until canceled');
  const { taskId, close } = await startWorkingTask(c, { runUntilCanceled: true });
  await c.each('each refused credential', cases, async (rc) => {
    await answer(c.client, 'tasks/cancel', { taskId, reason: 'refused' }, { headers: rc.headers });
  });
  const after = await getTask(c, taskId);
  const reason = (after?.status as { reason?: unknown } | undefined)?.reason;
  // Canceled for another reason (the agent's system timeout while a loaded agent answered the refused
  // calls): the refused cancels were not applied, but the check no longer shows it.
  if (stateOf(after) === 'canceled' && reason !== 'refused') {
    c.notExercised(
      `the task was canceled by the agent (reason ${JSON.stringify(reason)}) before it could be read`,
    );
  }
  c.check(`state of ${taskId} after refused cancels`, stateOf(after), 'working');
  await c.rpc('tasks/cancel', { taskId });
  await close();
}

verifies(
  '5/missing-credential-rejected',
  'a cancel without a credential leaves a working task working',
  async (c) => {
    await checkCancelNotApplied(
      c,
      REFUSED_CASES.filter((rc) => rc.reason === 'missing'),
    );
  },
  { concurrent: true, cost: { requests: 5, turns: 1 } },
);

verifies(
  '5/invalid-credential-rejected',
  'a cancel with a wrong credential leaves a working task working',
  async (c) => {
    await checkCancelNotApplied(
      c,
      REFUSED_CASES.filter((rc) => rc.reason === 'invalid'),
    );
  },
  { concurrent: true, cost: { requests: 5, turns: 1 }, property: { requests: 1, turns: 0, cases: 2 } },
);

verifies(
  '5/invalid-credential-rejected',
  'the credential comparison is constant-time (C-37)',
  async (c) => {
    c.notExercised(
      'constant-time comparison (C-37) is not observable from outside: loopback timing noise dwarfs the difference a byte-by-byte comparison makes, so no measurement would be evidence either way',
    );
  },
  { concurrent: true, cost: { requests: 0, turns: 0 }, unobservable: true },
);
