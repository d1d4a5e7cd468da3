// 2.9 cancel result, on one real cancellation of a running task with a supplied reason (C-34: a
// success is always canceled true). The task runs until cancelled under the directive contract; on
// other agents the cancel races a plain message/stream and the checks are not-exercised if it loses.
import { suiteFile, verifies, type CheckContext } from '../support/index.ts';
import { servedMethods } from '../support/card.ts';
import { directivesHonoured } from '../support/directives.ts';
import { resultOf } from '../support/rpc.ts';
import { cancelRunningTask, sharedSample, type CancelSample } from '../support/samples.ts';
import { checkSchemaWithExtras, requireObject } from '../support/schemas.ts';
import { statusOf } from '../support/tasks.ts';

suiteFile({
  cost: { requests: 1, turns: 0 },
  // The checks read the one shared cancellation; the non-ASCII reason cancels a task of its own.
  concurrent: true,
});

const cancellation = sharedSample('cancellation of a running task', { requests: 0, turns: 0 }, async (c) =>
  servedMethods(c).includes('message/stream') ? cancelRunningTask(c, await directivesHonoured(c)) : undefined,
);

async function sample(c: CheckContext): Promise<CancelSample & { result: Record<string, unknown> }> {
  const s = await cancellation(c);
  if (s === undefined) {
    return c.notExercised('no task could be cancelled while running (no stream, or the task finished first)');
  }
  return { ...s, result: requireObject(c, 'tasks/cancel result', s.result) };
}

verifies('2.9/cancel-result-id', 'the cancel result id is the id of the cancelled task', async (c) => {
  const s = await sample(c);
  c.check('result.id', s.result.id, s.taskId);
});

verifies('2.9/cancel-result-state', 'the cancel result status.state is "canceled"', async (c) => {
  const s = await sample(c);
  c.check('result.status.state', statusOf(s.result)?.state, 'canceled');
});

verifies(
  '2.9/cancel-result-reason',
  'the cancel result status.reason is the supplied reason, unchanged',
  async (c) => {
    const s = await sample(c);
    c.check('result.status.reason', statusOf(s.result)?.reason, s.reason);
  },
);

verifies(
  '2.9/cancel-result-reason',
  'a reason with non-ASCII text and quotes comes back unchanged',
  async (c) => {
    if (!servedMethods(c).includes('message/stream')) return c.notExercised('message/stream is not served');
    const s = await cancelRunningTask(c, await directivesHonoured(c), 'arrêt « demandé » \u2713 "quoted"');
    if (s === undefined) return c.notExercised('the task finished before the cancel arrived');
    c.check('result.status.reason', statusOf(s.result)?.reason, s.reason);
  },
);

verifies('2.9/cancel-result-canceled', 'a successful cancel result carries canceled true', async (c) => {
  const s = await sample(c);
  c.check('result.canceled', s.result.canceled, true);
  // The task stays cancelled: tasks/get agrees with the result.
  const got = resultOf(await c.rpc('tasks/get', { taskId: s.taskId }));
  c.check('tasks/get status.state after the cancel', statusOf(got)?.state, 'canceled');
});

verifies(
  '2/extra-fields-tolerated',
  'the cancel result validates with any extra fields it carries',
  async (c) => {
    const s = await sample(c);
    checkSchemaWithExtras(c, 'cancel-result', s.result, 'tasks/cancel result');
  },
  { crossSection: 'section 2 applies to every result: graded on each result type' },
);
