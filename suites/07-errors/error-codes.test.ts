// Spec 7 codes and their data: -32602 with data.details (MUST) and data.field (SHOULD, C-14) on every
// method, -32000 with taskId and suggestion, -32003 with taskId and currentState (C-08), -32004 with
// taskId and reason (C-41), -32603 (an unexpected fault, provoked by the a2a:directive internalError).
import { randomUUID } from 'node:crypto';
import { ERROR_CODES, is, SIDE_BY_SIDE, suiteFile, verifies, type CheckContext } from '../support/index.ts';
import { answer } from '../support/calls.ts';
import { listedMethods } from '../support/card.ts';
import { directivePart, requireDirectives } from '../support/directives.ts';
import { endedBefore } from '../support/ended-first.ts';
import { answerError } from '../support/errors.ts';
import { startWorkingTask } from '../support/live-tasks.ts';
import { messageParams, textPart } from '../support/messages.ts';
import { errorOf } from '../support/rpc.ts';
import { awaitState, getTask, isFinalState } from '../support/tasks.ts';
import { keptUnlessFault } from '../support/made-once.ts';
import { declareSample } from '../support/samples.ts';
import { isObject } from '../../schemas/json.ts';
import { invalidParamsCases, leafName, type ParamsCase } from './params-cases.ts';

suiteFile({
  cost: { requests: 0, turns: 0 },
  // Answers are shared through Maps of promises; the live-task checks each hold and cancel their own task.
  concurrent: true,
});

const FIRST_MISSING = declareSample('message/send without message', { requests: 1, turns: 0 });
const FIRST_UNKNOWN = declareSample('tasks/get of an unknown id', { requests: 1, turns: 0 });

const C = ERROR_CODES;

/** The cases whose method the card lists (an unlisted one answers -32601, graded in 2.14). */
function served(c: CheckContext, cases: readonly ParamsCase[]): ParamsCase[] {
  const listed = listedMethods(c.card ?? undefined);
  return listed === undefined ? [...cases] : cases.filter((k) => listed.includes(k.method));
}

type ParamsError = { k: ParamsCase; error: Record<string, unknown> | undefined };
const answered = new Map<string, Promise<ParamsError>>();

/**
 * One case's error, sent once per file: the checks of the code, details and field read it. Sent again
 * (with fresh params) only after a fault, by the case run again (keptUnlessFault).
 */
function errorOf1(c: CheckContext, k: ParamsCase): Promise<ParamsError> {
  return keptUnlessFault(answered, k.label, async () => ({
    k,
    error: answerError(await answer(c.client, k.method, k.params())),
  })).answer;
}

/**
 * `run` on each served case's error (an enumerated property, message/send without message first: a
 * paced run's first pass sends that one case for every check of the file).
 */
async function eachParamsError(
  c: CheckContext,
  kinds: readonly boolean[],
  run: (e: ParamsError) => void,
): Promise<void> {
  const cases = kinds.flatMap((missing) => served(c, invalidParamsCases(c.card, missing)));
  await c.each(
    'each invalid params case of a served method',
    cases,
    async (k) => {
      run(await errorOf1(c, k));
    },
    SIDE_BY_SIDE,
  );
}

/** A check reading the -32602 cases (the first one is the file's sample; at most this many). */
const readsParamsErrors = (kinds: readonly boolean[]) => ({
  samples: [FIRST_MISSING],
  property: {
    requests: 1,
    turns: 0,
    cases: kinds.reduce((n, missing) => n + invalidParamsCases(undefined, missing).length, 0),
  },
});

const dataOf = (e: Record<string, unknown> | undefined) => (isObject(e?.data) ? e.data : undefined);

verifies(
  '7/invalid-params-code',
  'a missing required member on any method gets -32602',
  async (c) => {
    await eachParamsError(c, [true], ({ k, error }) => {
      c.check(`${k.label}: error.code`, error?.code, C.INVALID_PARAMS);
    });
  },
  readsParamsErrors([true]),
);

verifies(
  '7/invalid-params-details',
  'every -32602 for a missing field has data.details naming it',
  async (c) => {
    await eachParamsError(c, [true], ({ k, error }) => {
      if (error?.code !== C.INVALID_PARAMS) return; // the code itself is graded by 7/invalid-params-code
      const leaf = leafName(k.field);
      c.check(
        `${k.label}: error.data.details`,
        dataOf(error)?.details,
        is.where(
          `a string naming ${leaf}`,
          (v) => typeof v === 'string' && v.toLowerCase().includes(leaf.toLowerCase()),
        ),
      );
    });
  },
  readsParamsErrors([true]),
);

verifies(
  '7/invalid-params-field',
  'every -32602 has data.field, the dotted path of the field',
  async (c) => {
    await eachParamsError(c, [true, false], ({ k, error }) => {
      if (error?.code !== C.INVALID_PARAMS) return;
      c.check(`${k.label}: error.data.field`, dataOf(error)?.field, is.oneOf([k.field, `params.${k.field}`]));
    });
  },
  readsParamsErrors([true, false]),
);

const UNKNOWN_ID_METHODS = ['tasks/get', 'tasks/cancel', 'tasks/resubscribe'] as const;
const unknownAnswers = new Map<string, Promise<{ taskId: string; error: RpcError }>>();
type RpcError = ReturnType<typeof answerError>;

/** Each method's answer about an unknown task id, sent once per file (tasks/get first). */
async function eachUnknownId(
  c: CheckContext,
  run: (method: string, taskId: string, error: RpcError) => void,
): Promise<void> {
  await c.each(
    'each method of an unknown task id',
    UNKNOWN_ID_METHODS,
    async (method) => {
      const { taskId, error } = await keptUnlessFault(unknownAnswers, method, () => {
        const taskId = randomUUID();
        return answer(c.client, method, { taskId }).then((a) => ({ taskId, error: answerError(a) }));
      }).answer;
      run(method, taskId, error);
    },
    SIDE_BY_SIDE,
  );
}

const READS_UNKNOWN_ID = {
  samples: [FIRST_UNKNOWN],
  property: { requests: 1, turns: 0, cases: UNKNOWN_ID_METHODS.length },
};

verifies(
  '7/task-not-found-code',
  'tasks/get, tasks/cancel and tasks/resubscribe of an unknown id get -32000',
  async (c) => {
    await eachUnknownId(c, (method, _taskId, error) => {
      c.check(`${method}: error.code`, error?.code, C.TASK_NOT_FOUND);
    });
  },
  READS_UNKNOWN_ID,
);

verifies(
  '7/task-not-found-data',
  'a -32000 carries data.taskId (the id asked for) and data.suggestion',
  async (c) => {
    await eachUnknownId(c, (method, taskId, error) => {
      c.require(`${method}: error.code`, error?.code, C.TASK_NOT_FOUND);
      c.check(`${method}: error.data.taskId`, dataOf(error)?.taskId, taskId);
      c.check(`${method}: error.data.suggestion`, dataOf(error)?.suggestion, is.nonEmptyString());
    });
  },
  READS_UNKNOWN_ID,
);

/** The race to completed first: a task that finishes on the cancel, whatever the agent's pace. */
const RACES = [
  [{ runUntilCanceled: true, finishOnCancel: true }, 'completed'],
  [{ delayMs: 300, fail: 'conformance failure', finishOnCancel: true }, 'failed'],
] as const;

verifies(
  '7/cancellation-failed-data',
  'a cancel that loses the race gets -32003 with taskId and currentState',
  async (c) => {
    await requireDirectives(c, 'a task that finishes when the cancel arrives');
    const notRaced: string[] = [];
    let raced = 0;
    await c.each('each final state a cancel races', RACES, async ([directive, state]) => {
      const live = await startWorkingTask(c, directive);
      const { taskId, close } = live;
      const ex = await c.rpc('tasks/cancel', { taskId });
      const error = errorOf(ex);
      // The task met its system timeout or its own end while the cancel waited (a rate-limited or
      // slow agent): no race happened, and a refusal of a final task is the right answer (C-06).
      const ended = error?.code === C.CANCELLATION_FAILED ? undefined : endedBefore(c, live, ex);
      if (ended !== undefined) {
        c.info(`the cancel racing to ${state} was not raced: ${ended}`);
        notRaced.push(`${state}: ${ended}`);
        await close();
        return;
      }
      const finishedFirst =
        error?.code === C.TASK_ALREADY_COMPLETED ||
        (error?.code === C.TASK_NOT_FOUND && dataOf(error)?.currentState === 'failed'); // C-06 note 1 form
      if (state === 'failed' && finishedFirst) {
        // The 300 ms delay ran out before the cancel arrived (a slow run): no race happened.
        c.info('the task failed before the cancel arrived; the failed case was not raced', dataOf(error));
        await close();
        return;
      }
      raced += 1;
      c.check(`cancel racing to ${state}: error.code`, error?.code, C.CANCELLATION_FAILED);
      c.check(`cancel racing to ${state}: error.data.taskId`, dataOf(error)?.taskId, taskId);
      c.check(`cancel racing to ${state}: error.data.currentState`, dataOf(error)?.currentState, state);
      await close();
    });
    if (raced === 0)
      c.notExercised(`no cancel met a running task: ${notRaced.join('; ') || 'see the notes'}`);
  },
  // A live task (message/stream, one poll until working), then the cancel.
  { cost: { requests: 3, turns: 1 }, property: { requests: 3, turns: 1, cases: 2 } },
);

verifies(
  '7/subscription-failed-data',
  'without streaming, resubscribe to a live task gets -32004 with taskId and reason',
  async (c) => {
    if (
      c.card?.capabilities === undefined ||
      (c.card.capabilities as { streaming?: unknown }).streaming !== false
    ) {
      c.notApplicable(
        '-32004 is the answer of an agent without streaming (C-41); this card does not say streaming: false',
      );
    }
    await requireDirectives(c, 'a task that stays working');
    const id = randomUUID();
    const params = messageParams([textPart('conformance: live'), directivePart({ runUntilCanceled: true })], {
      id,
    });
    const send = c.client.rpc('message/send', params, { timeoutMs: 15_000 });
    const live = await awaitState(c, id, (s) => s === 'working', 2_000);
    if (live === undefined)
      c.notExercised(
        'the target did not give the task the client-chosen id (C-16), so it could not be found while working',
      );
    const error = answerError(await answer(c.client, 'tasks/resubscribe', { taskId: id }));
    c.check('tasks/resubscribe: error.code', error?.code, C.SUBSCRIPTION_FAILED);
    c.check('tasks/resubscribe: error.data.taskId', dataOf(error)?.taskId, id);
    c.check('tasks/resubscribe: error.data.reason', dataOf(error)?.reason, is.nonEmptyString());
    await c.rpc('tasks/cancel', { taskId: id });
    await send;
  },
  { cost: { requests: 4, turns: 1 } },
);

verifies(
  '7/subscription-failed-data',
  'resubscribe to a live task that cannot be streamed (directive streamable false) gets -32004 with taskId and reason',
  async (c) => {
    await requireDirectives(c, 'a live task that cannot be streamed (streamable)');
    const id = randomUUID();
    const directive = directivePart({ streamable: false, runUntilCanceled: true });
    const send = c.client.rpc(
      'message/send',
      messageParams([textPart('conformance: unstreamable'), directive], { id }),
      {
        timeoutMs: 15_000,
      },
    );
    try {
      const live = await awaitState(c, id, (s) => s === 'working', 2_000);
      if (live === undefined)
        c.notExercised('the task with the client-chosen id (C-16) was not seen working');
      const resubscribed = await answer(c.client, 'tasks/resubscribe', { taskId: id });
      const error = answerError(resubscribed);
      // A task that ended first (its system timeout while the resubscribe waited on a slow or loaded
      // run) may be answered as it is (spec 4.5): no live task was resubscribed to.
      const ended = error === undefined ? (await getTask(c, id))?.status : undefined;
      const state = isObject(ended) ? ended.state : undefined;
      if (typeof state === 'string' && isFinalState(state))
        c.notExercised(
          `the task was ${state} before the resubscribe arrived: no live task was resubscribed to`,
        );
      c.check('tasks/resubscribe: error.code', error?.code, C.SUBSCRIPTION_FAILED);
      c.check('tasks/resubscribe: error.data.taskId', dataOf(error)?.taskId, id);
      c.check('tasks/resubscribe: error.data.reason', dataOf(error)?.reason, is.nonEmptyString());
    } finally {
      await c.client.rpc('tasks/cancel', { taskId: id });
      await send;
    }
  },
  { cost: { requests: 4, turns: 1 } },
);

verifies(
  '7/internal-error-code',
  'an unexpected server failure gets a well-formed -32603',
  async (c) => {
    await requireDirectives(c, 'provoking an unexpected agent failure (internalError)');
    // docs/directives.md `internalError`: the agent faults before creating the task it was asked for.
    const taskId = randomUUID();
    const fault = { type: 'text', text: `a2a:directive ${JSON.stringify({ internalError: true })}` };
    const ex = await c.rpc('message/send', messageParams([textPart('fault'), fault], { id: taskId }));
    const body = ex.response.json;
    const sent = (ex.request.json as { id?: unknown } | undefined)?.id;
    c.check('HTTP status (C-03)', ex.response.status, 200);
    c.check('jsonrpc', isObject(body) ? body.jsonrpc : body, '2.0');
    c.check('id', isObject(body) ? body.id : undefined, sent);
    c.check('result absent', isObject(body) && 'result' in body, false);
    const error = errorOf(ex);
    c.check('error.code', error?.code, C.INTERNAL_ERROR);
    c.check('error.message', error?.message, is.nonEmptyString());
    c.check(
      'error.data, when present, is an object (C-40)',
      error?.data,
      is.where('absent or an object', (d) => d === undefined || isObject(d)),
    );
    c.info('error.data', error?.data);
    const get = await c.rpc('tasks/get', { taskId });
    c.check('tasks/get of the client task id: nothing was created', errorOf(get)?.code, C.TASK_NOT_FOUND);
  },
  { cost: { requests: 2, turns: 1 } },
);
