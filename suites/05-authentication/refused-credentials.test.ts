// Spec 5: every one of the eight methods refuses a missing credential, a wrong x-api-key and a wrong
// Bearer token (C-01: no result and nothing performed MUST; HTTP 401, WWW-Authenticate and -32010
// with data.reason SHOULD). What a refused call would have done is looked for afterwards.
import { randomUUID } from 'node:crypto';
import { ERROR_CODES, is, suiteFile, verifies, type CheckContext } from '../support/index.ts';
import { answer, header, methodCalls, type Answer } from '../support/calls.ts';
import { listedMethods, pathValue } from '../support/card.ts';
import { REFUSED_CASES, type RefusedCase } from '../support/credentials.ts';
import { requireDirectives } from '../support/directives.ts';
import { answerError } from '../support/errors.ts';
import { startWorkingTask } from '../support/live-tasks.ts';
import { messageParams, sendText, textPart } from '../support/messages.ts';
import { errorOf, requestId, resultOf } from '../support/rpc.ts';
import { sampleTaskId } from '../support/samples.ts';
import { getTask, stateOf } from '../support/tasks.ts';
import { SET } from '../support/webhooks.ts';
import { isObject } from '../../schemas/json.ts';

suiteFile({
  cost: { requests: 5, turns: 1 },
  samples: {
    'task made for the requests that need one': { requests: 7, turns: 0 },
  },
});

interface Refusal {
  method: string;
  rc: RefusedCase;
  id: string;
  a: Answer;
}

let refusals: Promise<Refusal[]> | undefined;

/**
 * The eight methods, each with the three refused credentials: sent once per file, read by the three
 * checks below (the exchanges are the evidence of the first one).
 */
function refuseAll(c: CheckContext): Promise<Refusal[]> {
  refusals ??= (async () => {
    const hook = (await c.webhooks()).newUrl('refused').url;
    const out: Refusal[] = [];
    for (const { method, params } of methodCalls(await sampleTaskId(c), hook)) {
      for (const rc of REFUSED_CASES) {
        const id = requestId();
        out.push({ method, rc, id, a: await answer(c.client, method, params, { headers: rc.headers, id }) });
      }
    }
    return out;
  })();
  return refusals;
}

async function checkRefused(c: CheckContext, reason: RefusedCase['reason']): Promise<void> {
  for (const { method, rc, a } of await refuseAll(c)) {
    if (rc.reason !== reason) continue;
    c.check(`${method} with ${rc.name}: served (a result came back)`, a.served, false);
  }
}

verifies(
  '5/missing-credential-rejected',
  'each of the eight methods without a credential gets no result',
  (c) => checkRefused(c, 'missing'),
  { concurrent: true },
);

verifies(
  '5/invalid-credential-rejected',
  'each of the eight methods with a wrong key or token gets no result',
  (c) => checkRefused(c, 'invalid'),
  { concurrent: true },
);

verifies(
  '5/unauthorized-http-401',
  'each refusal is 401 with WWW-Authenticate and -32010 data.reason',
  async (c) => {
    for (const { method, rc, id, a } of await refuseAll(c)) {
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
    }
  },
  { concurrent: true },
);

/** Whether the target gives a task the id the client chose (C-16); else the refusal check proves little. */
async function honoursClientIds(c: CheckContext): Promise<boolean> {
  const id = randomUUID();
  const ex = await sendText(c, 'conformance: client id', { id });
  return resultOf(ex)?.id === id;
}

async function checkNoTaskCreated(c: CheckContext, cases: readonly RefusedCase[]): Promise<void> {
  if (!(await honoursClientIds(c))) {
    c.notExercised(
      'the target does not give a task the id the client chose (params.id, C-16), so a task created by a refused call could not be found',
    );
  }
  for (const method of ['message/send', 'message/stream']) {
    for (const rc of cases) {
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
    }
  }
}

verifies(
  '5/missing-credential-rejected',
  'message/send and message/stream without a credential create no task',
  async (c) => {
    await checkNoTaskCreated(
      c,
      REFUSED_CASES.filter((rc) => rc.reason === 'missing'),
    );
  },
  { concurrent: true },
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
  { concurrent: true },
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
  for (const rc of cases) {
    await answer(
      c.client,
      SET,
      { taskId, config: { url: hooks.newUrl('refused-set').url } },
      { headers: rc.headers },
    );
  }
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
  { concurrent: true },
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
  { concurrent: true },
);

async function checkCancelNotApplied(c: CheckContext, cases: readonly RefusedCase[]): Promise<void> {
  await requireDirectives(c, 'a task that stays working until canceled');
  const { taskId, close } = await startWorkingTask(c, { runUntilCanceled: true });
  for (const rc of cases) {
    await answer(c.client, 'tasks/cancel', { taskId, reason: 'refused' }, { headers: rc.headers });
  }
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
  { concurrent: true },
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
  { concurrent: true },
);

verifies(
  '5/invalid-credential-rejected',
  'the credential comparison is constant-time (C-37)',
  async (c) => {
    c.notExercised(
      'constant-time comparison (C-37) is not observable from outside: loopback timing noise dwarfs the difference a byte-by-byte comparison makes, so no measurement would be evidence either way',
    );
  },
  { concurrent: true },
);
